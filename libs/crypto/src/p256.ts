import { ECDH, createPublicKey, type KeyObject } from 'node:crypto';

/** P-256 public key encodings shared by stamps, session keys and HPKE sealing. */
const CURVE = 'prime256v1';
const COMPRESSED_HEX = /^0[23][0-9a-fA-F]{64}$/;
const UNCOMPRESSED_HEX = /^04[0-9a-fA-F]{128}$/;

/** SubjectPublicKeyInfo header for an id-ecPublicKey on prime256v1 followed by a 33-byte compressed point. */
const SPKI_COMPRESSED_PREFIX = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');

/**
 * Lowercase compressed SEC1 hex of a P-256 public key, or undefined when the value is not a
 * compressed key or not a point on the curve. Stamps and sessions are compared in this form.
 */
export function normalizeCompressedPublicKey(hex: unknown): string | undefined {
  if (typeof hex !== 'string' || !COMPRESSED_HEX.test(hex)) return undefined;
  const lower = hex.toLowerCase();
  try {
    ECDH.convertKey(lower, CURVE, 'hex', 'hex', 'uncompressed');
  } catch {
    return undefined;
  }
  return lower;
}

/** Uncompressed SEC1 bytes (65) of an uncompressed hex key (`04...`), or undefined when not a P-256 point. */
export function uncompressedPublicKeyBytes(hex: unknown): Buffer | undefined {
  if (typeof hex !== 'string' || !UNCOMPRESSED_HEX.test(hex)) return undefined;
  try {
    // Round-trips through OpenSSL so a string of the right shape that is off the curve is refused.
    return ECDH.convertKey(hex.toLowerCase(), CURVE, 'hex', undefined, 'uncompressed') as Buffer;
  } catch {
    return undefined;
  }
}

export function compressPublicKey(key: Uint8Array): Buffer {
  return ECDH.convertKey(Buffer.from(key), CURVE, undefined, undefined, 'compressed') as Buffer;
}

export function uncompressPublicKey(key: Uint8Array): Buffer {
  return ECDH.convertKey(Buffer.from(key), CURVE, undefined, undefined, 'uncompressed') as Buffer;
}

/** A verification KeyObject for a normalized compressed key (throws when the point is invalid). */
export function publicKeyObject(compressedHex: string): KeyObject {
  const der = Buffer.concat([SPKI_COMPRESSED_PREFIX, Buffer.from(compressedHex, 'hex')]);
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}
