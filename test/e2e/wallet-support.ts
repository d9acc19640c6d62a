import { createHash } from 'node:crypto';

/** OIDC helpers for the wallet e2e specs (sessions and signed calls: `test/support/wallet-session.ts`). */

/** A JWT-shaped sandbox token: real claims, a dummy signature segment. */
export function sandboxToken(claims: Record<string, unknown>): string {
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signature = Buffer.from('dummy-signature').toString('base64url');
  return `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment(claims)}.${signature}`;
}

/** Claims a sandbox OIDC token needs at `nowMs`, for the default Google issuer. */
export function googleClaims(nowMs: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const iat = Math.floor(nowMs / 1000);
  return {
    iss: 'https://accounts.google.com',
    aud: 'wallet-app',
    sub: 'google-user-1',
    email: 'holder@gmail.com',
    iat,
    exp: iat + 600,
    ...extra,
  };
}

/** The OIDC `nonce` a verify token must carry: lowercase hex sha256 of the exact clientPublicKey. */
export function oidcNonce(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}
