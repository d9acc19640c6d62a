import { verify as verifySignature, type KeyObject } from 'node:crypto';
import { publicKeyObject } from './p256.js';
import { RecentCache } from '#domain/primitives.js';

export { normalizeCompressedPublicKey } from './p256.js';

/**
 * The `Service-Wallet-Signature` stamp: base64url (no padding) of
 * `{"publicKey": <compressed P-256 hex>, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature": <DER hex>}`,
 * an ECDSA P-256 / SHA-256 signature over the exact UTF-8 bytes of the stored payloadToSign.
 * The format is the one Turnkey's API-key stamper produces, so its client libraries can sign.
 */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

export interface Stamp {
  /** Lowercase compressed SEC1 hex. */
  publicKey: string;
  scheme: typeof STAMP_SCHEME;
  /** DER-encoded ECDSA signature. */
  signature: Buffer;
}

export type StampFailureCode = 'WALLET_SIGNATURE_MALFORMED' | 'WALLET_SIGNATURE_INVALID';

export type StampParseResult =
  { ok: true; stamp: Stamp } | { ok: false; code: 'WALLET_SIGNATURE_MALFORMED'; reason: string };

export type StampVerification = { ok: true; publicKey: string } | { ok: false; code: StampFailureCode; reason: string };

// A stamp is about 250 characters; anything far larger is not a stamp and is not worth decoding.
const MAX_HEADER_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;
// DER of two 33-byte integers plus headers is at most 72 bytes.
const MAX_DER_SIGNATURE_BYTES = 72;
const STAMP_FIELDS = ['publicKey', 'scheme', 'signature'];

const malformed = (reason: string): { ok: false; code: 'WALLET_SIGNATURE_MALFORMED'; reason: string } => ({
  ok: false,
  code: 'WALLET_SIGNATURE_MALFORMED',
  reason,
});

export function parseStamp(header: unknown): StampParseResult {
  if (typeof header !== 'string' || header.length === 0) return malformed('the stamp is empty');
  if (header.length > MAX_HEADER_LENGTH) return malformed('the stamp is too long');
  if (!BASE64URL.test(header) || header.length % 4 === 1)
    return malformed('the stamp is not base64url without padding');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    return malformed('the stamp does not decode to JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return malformed('the stamp is not a JSON object');
  const fields = body as Record<string, unknown>;
  const keys = Object.keys(fields).sort();
  if (keys.length !== STAMP_FIELDS.length || keys.some((k, i) => k !== STAMP_FIELDS[i])) {
    return malformed('the stamp must have exactly the fields publicKey, scheme and signature');
  }
  if (fields.scheme !== STAMP_SCHEME) return malformed(`the stamp scheme must be ${STAMP_SCHEME}`);
  if (typeof fields.publicKey !== 'string' || !COMPRESSED_KEY.test(fields.publicKey)) {
    return malformed('the stamp publicKey is not a compressed P-256 public key in hex');
  }
  const publicKey = fields.publicKey.toLowerCase();
  const signature = fields.signature;
  if (typeof signature !== 'string' || !HEX.test(signature) || signature.length / 2 > MAX_DER_SIGNATURE_BYTES) {
    return malformed('the stamp signature is not a DER signature in hex');
  }
  // Building (or finding) the KeyObject is also the on-curve check.
  if (!keyFor(publicKey)) return malformed('the stamp publicKey is not a valid P-256 point');
  return { ok: true, stamp: { publicKey, scheme: STAMP_SCHEME, signature: Buffer.from(signature, 'hex') } };
}

/**
 * Verification KeyObjects by compressed key. Session keys sign many requests, and building the
 * KeyObject costs more than the verification itself; the bound keeps memory flat under key churn.
 */
export class BoundedKeyCache<V> {
  private readonly entries: RecentCache<string, V>;
  constructor(limit: number) {
    this.entries = new RecentCache(limit);
  }

  get(key: string, create: (key: string) => V): V {
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const value = create(key);
    this.entries.set(key, value);
    return value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }
}

const keyCache = new BoundedKeyCache<KeyObject>(10_000);

function keyFor(publicKey: string): KeyObject | undefined {
  try {
    return keyCache.get(publicKey, publicKeyObject);
  } catch {
    return undefined;
  }
}

/** Verifies `header` over the exact bytes of `payloadToSign`; high-S signatures are accepted. */
export function verifyStamp(header: unknown, payloadToSign: string): StampVerification {
  const parsed = parseStamp(header);
  if (!parsed.ok) return parsed;
  const { publicKey, signature } = parsed.stamp;
  const key = keyFor(publicKey) as KeyObject;
  let valid: boolean;
  try {
    valid = verifySignature('sha256', Buffer.from(payloadToSign, 'utf8'), { key, dsaEncoding: 'der' }, signature);
  } catch {
    // OpenSSL rejects some malformed DER by throwing rather than returning false.
    valid = false;
  }
  if (!valid)
    return {
      ok: false,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'the stamp signature does not verify over payloadToSign',
    };
  return { ok: true, publicKey };
}
