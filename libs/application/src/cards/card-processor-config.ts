import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  cardProcessorDecider,
  cardProcessorStream,
  type CardProcessorSettings,
  type CardProcessorState,
} from '#domain/cards/card-processor.js';
import type { SecretBox } from '#crypto/secret-box.js';
import { CommandRunner } from '../command-runner.js';
import { PlatformClocks } from '../command-context.js';
import { verifySignedCall, type SignedCaller } from '../signed-callers.js';
import { SECRET_BOX, type Actor } from '../tokens.js';

const secretContext = (platformId: string) => `card-processor-secret:${platformId}`;

/** The card processor settings as `GET /config/card-processor` shows them (never the secret). */
export interface CardProcessorConfigView extends CardProcessorSettings {
  secretSet: boolean;
  secretSetAt: string | null;
}

const view = (state: CardProcessorState): CardProcessorConfigView => ({
  decisionDeadlineMs: state.decisionDeadlineMs,
  standInDecision: state.standInDecision,
  secretSet: state.sealedSecret !== undefined,
  secretSetAt: state.secretSetAt ?? null,
});

/**
 * A platform's card processor configuration: the HMAC secret its processor signs messages with (set or rotated by
 * the platform, shown once), the decision deadline and the stand-in decision; and the check of a message's signature.
 */
@Injectable()
export class CardProcessorConfig {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async settings(platformId: string): Promise<CardProcessorState> {
    return (await this.runner.load(cardProcessorStream(platformId), cardProcessorDecider)).state;
  }

  async view(platformId: string): Promise<CardProcessorConfigView> {
    return view(await this.settings(platformId));
  }

  /** A new secret replaces the previous one at once; the answer is the only time it is shown. */
  async rotateSecret(actor: Actor): Promise<{ cardProcessorSecret: string } & CardProcessorConfigView> {
    const secret = `cpsec_${randomBytes(32).toString('base64url')}`;
    const sealedSecret = this.box.seal(secret, secretContext(actor.platformId));
    const now = (await this.clocks.now(actor.platformId)).toISOString();
    const command = { type: 'SetCardProcessorSecret' as const, platformId: actor.platformId, sealedSecret, now };
    const { state } = await this.runner.run(cardProcessorStream(actor.platformId), cardProcessorDecider, command, {
      metadata: { ...actor },
    });
    return { cardProcessorSecret: secret, ...view(state) };
  }

  async configure(changes: Partial<CardProcessorSettings>, actor: Actor): Promise<CardProcessorConfigView> {
    const now = (await this.clocks.now(actor.platformId)).toISOString();
    const command = { type: 'ConfigureCardProcessor' as const, platformId: actor.platformId, changes, now };
    const { state } = await this.runner.run(cardProcessorStream(actor.platformId), cardProcessorDecider, command, {
      metadata: { ...actor },
    });
    return view(state);
  }

  /**
   * Whether a message to `platformId` carries a valid signature of its raw body with the platform's secret, within
   * five minutes of the platform's clock. An unknown platform and one without a secret fail like a bad signature.
   */
  verify(platformId: string | undefined, header: string | undefined, rawBody: Buffer | undefined) {
    return verifySignedCall(this.caller, platformId, header, rawBody);
  }

  private readonly caller: SignedCaller = {
    unknownPlatform: 'X-Processor-Platform must name a platform with a secret',
    noBody: 'the message has no JSON body',
    sealedSecret: async (platformId) => (await this.settings(platformId)).sealedSecret,
    secretContext,
    box: this.box,
    clocks: this.clocks,
  };
}
