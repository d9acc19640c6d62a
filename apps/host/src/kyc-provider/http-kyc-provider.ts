import type { KycProvider, KycProviderEndpoint, KycSubmission } from '#application/verifications/kyc-provider.js';
import { systemClock, type Clock } from '#domain/clock.js';
import { processorSignature } from '#domain/cards/card-processor.js';
import { KYC_PROVIDER_SIGNATURE_HEADER } from '#domain/verifications/kyc-provider.js';
import type { AllowedHost } from '#net/address-policy.js';
import type { Resolver } from '#net/resolve-target.js';
import { postWebhook, type SendResult } from '../webhooks/sender.js';

/** How long a provider has to take a submission. */
export const KYC_PROVIDER_TIMEOUT_MS = 5000;

export interface HttpKycProviderDeps {
  /** The signature's timestamp (the provider compares it with its own clock). */
  wallClock?: Clock;
  /** Hosts the operator trusts whatever they resolve to (`WEBHOOK_ALLOWED_HOSTS`). */
  allowedHosts: readonly AllowedHost[];
  resolve?: Resolver;
  /** The POST itself (the webhook sender by default: vetted addresses, no redirects, a timeout). */
  post?: typeof postWebhook;
}

/** The signature header of a body sent at `unixSeconds`: the card processor's scheme, with the shared secret. */
export const kycProviderSignature = (secret: string, unixSeconds: number, body: string) =>
  `t=${unixSeconds},v1=${processorSignature(secret, unixSeconds, body)}`;

/**
 * The KYC provider over HTTP: the submission as JSON, POSTed to the provider's endpoint through the webhook sender
 * (the address policy, no redirects, a timeout), signed with HMAC-SHA256 of the raw body and the shared secret.
 */
export class HttpKycProvider implements KycProvider {
  constructor(private readonly deps: HttpKycProviderDeps) {}

  async submit(endpoint: KycProviderEndpoint, submission: KycSubmission) {
    const body = JSON.stringify(submission);
    const unixSeconds = Math.floor((this.deps.wallClock ?? systemClock).now().getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      [KYC_PROVIDER_SIGNATURE_HEADER]: kycProviderSignature(endpoint.secret, unixSeconds, body),
    };
    const post = this.deps.post ?? postWebhook;
    const result: SendResult = await post(endpoint.url, body, headers, {
      timeoutMs: KYC_PROVIDER_TIMEOUT_MS,
      allowedHosts: this.deps.allowedHosts,
      ...(this.deps.resolve ? { resolve: this.deps.resolve } : {}),
    });
    const status = result.statusCode;
    if (status !== undefined && status >= 200 && status <= 299) return { accepted: true };
    return { accepted: false, detail: status === undefined ? (result.cause ?? 'unreachable') : `HTTP ${status}` };
  }
}

export function createKycProvider(config: { webhookAllowedHosts: readonly AllowedHost[] }): HttpKycProvider {
  return new HttpKycProvider({ allowedHosts: config.webhookAllowedHosts });
}
