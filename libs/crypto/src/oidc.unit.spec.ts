import { describe, it, expect } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { OIDC_REASONS, createOidcVerifier, decodeJwt, oidcNonceFor } from './oidc.js';

const start = Date.UTC(2025, 9, 13, 12);
const now = start / 1000;
const clientPublicKey = '04' + 'ab'.repeat(64);
const ISSUER = 'https://accounts.google.com';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claims = {
  iss: ISSUER,
  sub: 'sandbox-user',
  aud: 'sandbox-app',
  iat: now,
  exp: now + 600,
  email: 'bob@example.com',
  nonce: oidcNonceFor(clientPublicKey),
};
/** A sandbox token: real header and claims, a dummy signature segment. */
const sandboxToken = (overrides: Record<string, unknown> = {}) =>
  [segment({ alg: 'RS256', typ: 'JWT' }), segment({ ...claims, ...overrides }), 'sandbox-signature'].join('.');

const verifier = () =>
  createOidcVerifier({
    mode: 'sandbox',
    issuers: { [ISSUER]: 'https://www.googleapis.com/oauth2/v3/certs' },
    clock: new ManualClock(start),
  });

describe('OIDC verification in the sandbox (dummy signatures, real claim checks)', () => {
  it('accepts a JWT-shaped token with a dummy signature and valid claims', async () => {
    expect(await verifier().verify(sandboxToken(), { clientPublicKey })).toEqual({
      ok: true,
      identity: claims,
    });
  });

  it('binds the nonce to the exact clientPublicKey string (case matters)', async () => {
    const upper = clientPublicKey.toUpperCase();
    expect(await verifier().verify(sandboxToken(), { clientPublicKey: upper })).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      reason: OIDC_REASONS.nonce,
    });
    expect(oidcNonceFor(clientPublicKey)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('allows 5 seconds of skew on iat age in the sandbox', async () => {
    expect(await verifier().verify(sandboxToken({ iat: now - 65 }), { clientPublicKey })).toMatchObject({ ok: true });
    expect(await verifier().verify(sandboxToken({ iat: now - 66 }), { clientPublicKey })).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      reason: OIDC_REASONS.iatTooOld,
    });
    expect(await verifier().verify(sandboxToken({ iat: now + 5 }), { clientPublicKey })).toMatchObject({ ok: true });
    expect(await verifier().verify(sandboxToken({ iat: now + 6 }), { clientPublicKey })).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      reason: OIDC_REASONS.iatInFuture,
    });
  });

  it.each([
    ['an unsupported iss', { iss: 'https://evil.example.com' }, OIDC_REASONS.issuer],
    ['no iss', { iss: undefined }, OIDC_REASONS.issuer],
    ['a numeric aud', { aud: 7 }, OIDC_REASONS.audience],
    ['an empty aud array', { aud: [] }, OIDC_REASONS.audience],
    ['a numeric sub', { sub: 42 }, OIDC_REASONS.subject],
    ['a string iat', { iat: String(now) }, OIDC_REASONS.iatMissing],
    ['an nbf in the future', { nbf: now + 60 }, OIDC_REASONS.notYetValid],
    ['a string exp', { exp: String(now + 600) }, OIDC_REASONS.expMissing],
    ['an exp in the past', { exp: now - 1 }, OIDC_REASONS.expired],
    ['a wrong nonce', { nonce: 'abc' }, OIDC_REASONS.nonce],
  ])('refuses a token with %s', async (_name, overrides, reason) => {
    expect(await verifier().verify(sandboxToken(overrides), { clientPublicKey })).toEqual({
      ok: false,
      code: 'UNAUTHORIZED',
      reason,
    });
  });

  it.each([
    ['a non-string', 12],
    ['two segments', 'a.b'],
    ['four segments', sandboxToken() + '.x'],
    ['an empty signature segment', sandboxToken().replace(/[^.]+$/, '')],
    ['non-base64url characters', sandboxToken().replace('.', '.+')],
    ['claims that are not JSON', `${segment({ alg: 'none' })}.${Buffer.from('nope').toString('base64url')}.sig`],
    ['claims that are a JSON array', `${segment({ alg: 'none' })}.${segment([1])}.sig`],
    ['the legacy fixed literal', 'sandbox-oidc-token'],
  ])('treats %s as a malformed JWT (INVALID_INPUT)', async (_name, token) => {
    expect(await verifier().verify(token, { clientPublicKey })).toEqual({
      ok: false,
      code: 'INVALID_INPUT',
      reason: OIDC_REASONS.malformed,
    });
    expect(decodeJwt(token)).toBeUndefined();
  });
});
