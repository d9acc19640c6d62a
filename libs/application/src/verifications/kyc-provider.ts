import { Inject, Injectable, Logger } from '@nestjs/common';
import { kycProviderDecider, kycProviderStream, type KycProviderState } from '#domain/verifications/kyc-provider.js';
import type { SecretBox } from '#crypto/secret-box.js';
import { CommandContext } from '../command-context.js';
import { isSandboxPlatform } from '../platforms/platform-config.js';
import { verifySignedCall, type SignedCaller } from '../signed-callers.js';
import { SECRET_BOX, type Actor } from '../tokens.js';
import { KycReviewQueries } from './kyc-review-queries.js';

/** The KYC provider port: the adapter (apps/host) the API process supplies. */
export const KYC_PROVIDER = Symbol('KYC_PROVIDER');

/** What the provider is sent: the review as `GET /verifications/reviews/{id}` shows it, and where to answer. */
export interface KycSubmission {
  type: 'KYC_REVIEW.SUBMITTED';
  platformId: string;
  submittedAt: string;
  /** `POST /kyc-provider/callback` with `{ reviewId, decision, reason? }`, signed with the same secret. */
  callbackPath: string;
  review: Record<string, unknown>;
}

/** A provider endpoint and the shared secret the submission is signed with. */
export interface KycProviderEndpoint {
  url: string;
  secret: string;
}

/**
 * Sends a submission to a platform's KYC provider: a POST of the JSON body with
 * `X-Kyc-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. Whether the provider
 * took it (a 2xx); it decides later through the callback.
 */
export interface KycProvider {
  submit(endpoint: KycProviderEndpoint, submission: KycSubmission): Promise<{ accepted: boolean; detail?: string }>;
}

/** Where no adapter is supplied (the worker, tests of other areas): nothing is sent; reviews wait for an operator. */
export const NO_KYC_PROVIDER: KycProvider = { submit: async () => ({ accepted: false, detail: 'no KYC provider' }) };

const secretContext = (platformId: string) => `kyc-provider-secret:${platformId}`;

/** The provider settings as `GET /config/kyc-provider` shows them (never the secret). */
const view = (state: KycProviderState) =>
  state.configured
    ? { configured: true, url: state.url, secretSet: true, updatedAt: state.updatedAt }
    : { configured: false, url: null, secretSet: false, updatedAt: state.updatedAt ?? null };

/**
 * A production platform's KYC provider: its endpoint and shared secret (sealed at rest), the submission of each
 * verification that waits for review, and the check of the provider's signed callback.
 */
@Injectable()
export class KycProviderSettings {
  private readonly logger = new Logger('KycProvider');

  constructor(
    private readonly ctx: CommandContext,
    private readonly reviews: KycReviewQueries,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(KYC_PROVIDER) private readonly provider: KycProvider,
  ) {}

  private async state(platformId: string): Promise<KycProviderState> {
    return (await this.ctx.runner.load(kycProviderStream(platformId), kycProviderDecider)).state;
  }

  async view(platformId: string) {
    return view(await this.state(platformId));
  }

  async configure(input: { url: string; secret: string }, actor: Actor) {
    const sandbox = await isSandboxPlatform(this.ctx.runner, actor.platformId);
    const sealedSecret = this.box.seal(input.secret, secretContext(actor.platformId));
    const now = (await this.ctx.clocks.now(actor.platformId)).toISOString();
    const command = {
      type: 'ConfigureKycProvider' as const,
      platformId: actor.platformId,
      sandbox,
      url: input.url,
      sealedSecret,
      now,
    };
    const { state } = await this.ctx.runner.run(kycProviderStream(actor.platformId), kycProviderDecider, command, {
      metadata: { ...actor },
    });
    return view(state);
  }

  async remove(actor: Actor) {
    const now = (await this.ctx.clocks.now(actor.platformId)).toISOString();
    const command = { type: 'RemoveKycProvider' as const, platformId: actor.platformId, now };
    const { state } = await this.ctx.runner.run(kycProviderStream(actor.platformId), kycProviderDecider, command, {
      metadata: { ...actor },
    });
    return view(state);
  }

  /**
   * Sends a review to the platform's provider, if it has one. A provider that cannot be reached or refuses leaves
   * the review waiting for an operator; the verification itself is never failed by it.
   */
  async submit(platformId: string, reviewId: string): Promise<void> {
    const state = await this.state(platformId);
    if (!state.configured) return;
    const secret = this.box.open(state.sealedSecret, secretContext(platformId)).toString('utf8');
    const submittedAt = (await this.ctx.clocks.now(platformId)).toISOString();
    const review = await this.reviews.get(platformId, reviewId);
    const submission: KycSubmission = {
      type: 'KYC_REVIEW.SUBMITTED',
      platformId,
      submittedAt,
      callbackPath: '/kyc-provider/callback',
      review,
    };
    try {
      const sent = await this.provider.submit({ url: state.url, secret }, submission);
      if (!sent.accepted) this.logger.warn(`review ${reviewId}: the KYC provider did not take it (${sent.detail})`);
    } catch (error) {
      this.logger.warn(`review ${reviewId}: the KYC provider could not be reached (${(error as Error).message})`);
    }
  }

  /**
   * Whether a callback for `platformId` carries a valid signature of its raw body with the platform's shared secret,
   * within five minutes of the platform's clock (the card processor's check). An unknown platform and one without a
   * provider fail like a bad signature.
   */
  verify(platformId: string | undefined, header: string | undefined, rawBody: Buffer | undefined) {
    return verifySignedCall(this.caller, platformId, header, rawBody);
  }

  private readonly caller: SignedCaller = {
    unknownPlatform: 'X-Kyc-Provider-Platform must name a platform with a provider',
    noBody: 'the callback has no JSON body',
    headerName: 'X-Kyc-Provider-Signature',
    sealedSecret: async (platformId) => {
      const state = await this.state(platformId);
      return state.configured ? state.sealedSecret : undefined;
    },
    secretContext,
    box: this.box,
    clocks: this.ctx.clocks,
  };
}
