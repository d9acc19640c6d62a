import type { Decider } from '../decider.js';
import { invalid } from '../errors.js';

/**
 * A production platform's KYC provider: the endpoint the service sends each verification that waits for review to
 * (the customer's data as the hosted KYC link or the API submitted it), and the shared secret both sides sign with
 * (HMAC-SHA256 of the raw body, `t=<unix seconds>,v1=<hex>`, as card processor messages are signed). The provider
 * answers later at `POST /kyc-provider/callback`. Without a provider, reviews wait for an operator.
 */
export type KycProviderState =
  | { configured: false; updatedAt?: string }
  | { configured: true; url: string; sealedSecret: string; updatedAt: string };

export type KycProviderCommand =
  | {
      type: 'ConfigureKycProvider';
      platformId: string;
      sandbox: boolean;
      url: string;
      sealedSecret: string;
      now: string;
    }
  | { type: 'RemoveKycProvider'; platformId: string; now: string };

export type KycProviderEvent =
  | {
      type: 'KycProviderConfigured';
      data: { platformId: string; url: string; sealedSecret: string; updatedAt: string };
    }
  | { type: 'KycProviderRemoved'; data: { platformId: string; updatedAt: string } };

/** The settings live beside the platform, in a stream of their own. */
export const kycProviderStream = (platformId: string) => `kycprovider-${platformId.split(':')[1]}`;

/** The header carrying the platform the provider answers for. */
export const KYC_PROVIDER_PLATFORM_HEADER = 'x-kyc-provider-platform';
/** The provider's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`. */
export const KYC_PROVIDER_SIGNATURE_HEADER = 'x-kyc-provider-signature';

/** A provider endpoint: an https URL of at most 2,048 characters. */
export function checkProviderUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.protocol !== 'https:' || url.length > 2048)
    throw invalid('INVALID_INPUT', 'url must be an https URL of at most 2048 characters', 'url');
}

function decide(cmd: KycProviderCommand, state: KycProviderState): KycProviderEvent[] {
  if (cmd.type === 'RemoveKycProvider')
    return state.configured
      ? [{ type: 'KycProviderRemoved', data: { platformId: cmd.platformId, updatedAt: cmd.now } }]
      : [];
  if (cmd.sandbox)
    throw invalid(
      'KYC_PROVIDER_NOT_FOR_SANDBOX',
      'sandbox platforms decide verifications by their magic values; a KYC provider is for production platforms',
      'url',
    );
  checkProviderUrl(cmd.url);
  const { platformId, url, sealedSecret, now } = cmd;
  return [{ type: 'KycProviderConfigured', data: { platformId, url, sealedSecret, updatedAt: now } }];
}

function evolve(_state: KycProviderState, event: KycProviderEvent): KycProviderState {
  if (event.type === 'KycProviderRemoved') return { configured: false, updatedAt: event.data.updatedAt };
  const { url, sealedSecret, updatedAt } = event.data;
  return { configured: true, url, sealedSecret, updatedAt };
}

export const kycProviderDecider: Decider<KycProviderState, KycProviderCommand, KycProviderEvent> = {
  initialState: () => ({ configured: false }),
  evolve,
  decide,
};
