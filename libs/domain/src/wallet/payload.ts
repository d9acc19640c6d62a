import { DomainError } from '../errors.js';
import { canonicalJson } from '../canonical-json.js';

export { canonicalJson };

/**
 * The signed-retry `payloadToSign`: compact JSON with keys sorted at every level, generated and
 * stored by the server. It binds the operation, the target resource, the account, the requestId,
 * the expiry and every body field the retry must echo. Clients stamp it byte for byte; the server
 * never re-serializes it for verification, so canonical form only matters for the body echo check.
 */
export interface SignedPayloadFields {
  /** `METHOD /path`, e.g. `DELETE /auth/credentials/AuthMethod:<uuid>`. */
  operation: string;
  targetId: string;
  accountId: string;
  requestId: string;
  expiresAt: string;
  body: Record<string, unknown>;
}

export function operationOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

export function buildPayloadToSign(fields: SignedPayloadFields): string {
  return canonicalJson(fields);
}

export function parsePayloadToSign(payloadToSign: string): SignedPayloadFields {
  const parsed = JSON.parse(payloadToSign) as SignedPayloadFields;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.body !== 'object' || parsed.body === null) {
    throw new Error('stored payloadToSign has no body');
  }
  return parsed;
}

const bodyMismatch = (reason: string) =>
  new DomainError(
    'unauthorized',
    'WALLET_SIGNATURE_BODY_MISMATCH',
    'the retried body does not repeat the fields of the signed payload',
    { reason },
  );

/**
 * The retry must carry exactly the body that was bound into payloadToSign: a changed, missing or
 * added field would be an unsigned change, so each is refused and named in `reason`.
 */
export function assertRetryBodyMatches(payloadToSign: string, retryBody: unknown): void {
  const signed = parsePayloadToSign(payloadToSign).body;
  const retry = retryBody === undefined || retryBody === null ? {} : retryBody;
  if (typeof retry !== 'object' || Array.isArray(retry)) throw bodyMismatch('the retried body is not a JSON object');
  const retried = retry as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(signed), ...Object.keys(retried)])].sort();
  for (const key of keys) {
    const inSigned = signed[key] !== undefined;
    const inRetry = retried[key] !== undefined;
    if (inSigned && !inRetry) throw bodyMismatch(`body field ${key} is missing from the retry`);
    if (!inSigned && inRetry) throw bodyMismatch(`body field ${key} is not part of the signed payload`);
    if (inSigned && canonicalJson(signed[key]) !== canonicalJson(retried[key]))
      throw bodyMismatch(`body field ${key} differs from the signed payload`);
  }
}
