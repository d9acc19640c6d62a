/**
 * Verifying webhook deliveries in a receiver. Every delivery is signed twice, and both are checked over the raw
 * body exactly as received (verify before parsing):
 * - `X-Service-Signature: {"v":"1","s":"<base64 DER>"}`: ECDSA P-256 / SHA-256, checked with the platform's
 *   `webhookSigningPublicKey` (PEM, from `GET /config`);
 * - Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`): HMAC with the
 *   `webhookSecret` (from `GET /config`), checked by `standardwebhooks`, which also refuses timestamps more than
 *   five minutes off (replays).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A delivery's envelope. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  timestamp: string;
  data: D;
}

export interface WebhookKeys {
  /** `webhookSigningPublicKey` from `GET /config` (PEM). */
  webhookSigningPublicKey: string;
  /** `webhookSecret` from `GET /config` (`whsec_…`). */
  webhookSecret: string;
}

/** Headers as node:http, fetch or a framework gives them (names in any case; arrays take their first value). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    /** Which check failed. */
    readonly check: 'service-signature' | 'standard-webhooks' | 'body',
    message: string,
  ) {
    super(message);
  }
}

function lowerCaseHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Iterable<[string, string | string[] | undefined]> =
    headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[name.toLowerCase()] = first;
  }
  return out;
}

/** Checks `X-Service-Signature` over the raw body with the platform's public key. */
export function serviceSignatureValid(publicKey: KeyObject | string, rawBody: Uint8Array, header?: string): boolean {
  if (!header) return false;
  try {
    const { v, s } = JSON.parse(header) as { v?: unknown; s?: unknown };
    if (v !== '1' || typeof s !== 'string') return false;
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    return verify('sha256', rawBody, { key, dsaEncoding: 'der' }, Buffer.from(s, 'base64'));
  } catch {
    return false;
  }
}

/** Verifies deliveries with one platform's keys; keep one per platform and reuse it. */
export class WebhookVerifier {
  private readonly publicKey: KeyObject;
  private readonly standard: Webhook;

  constructor(keys: WebhookKeys) {
    this.publicKey = createPublicKey(keys.webhookSigningPublicKey);
    this.standard = new Webhook(keys.webhookSecret);
  }

  /**
   * Returns the envelope when both signatures match the raw body, or throws WebhookVerificationError saying
   * which check failed (answer such a delivery 400; answer a verified one 2xx after deduplicating on its `id`).
   */
  verify<D = Record<string, unknown>>(rawBody: Uint8Array | string, headers: WebhookHeaders): WebhookEvent<D> {
    const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
    const h = lowerCaseHeaders(headers);
    if (!serviceSignatureValid(this.publicKey, bytes, h['x-service-signature']))
      throw new WebhookVerificationError('service-signature', 'X-Service-Signature does not match the body');
    let event: unknown;
    try {
      event = this.standard.verify(Buffer.from(bytes).toString('utf8'), h);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new WebhookVerificationError('standard-webhooks', `Standard Webhooks signature: ${message}`);
    }
    if (typeof event !== 'object' || event === null || typeof (event as WebhookEvent).id !== 'string')
      throw new WebhookVerificationError('body', 'the body is not a webhook envelope');
    return event as WebhookEvent<D>;
  }
}

/** One-off verification: `new WebhookVerifier(keys).verify(rawBody, headers)`. */
export function verifyWebhook<D = Record<string, unknown>>(
  keys: WebhookKeys,
  rawBody: Uint8Array | string,
  headers: WebhookHeaders,
): WebhookEvent<D> {
  return new WebhookVerifier(keys).verify<D>(rawBody, headers);
}
