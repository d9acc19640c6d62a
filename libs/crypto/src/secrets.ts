import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API token secrets: 32 random bytes (base64url, never containing ':'), stored as a SHA-256 hash.
 * A fast hash is sound here because the secret has full entropy; a slow KDF only matters for
 * human-chosen passwords.
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
