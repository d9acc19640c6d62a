import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { startJwksServer, type JwksServer } from '../../../test/support/jwks-server.js';
import { OIDC_REASONS, createOidcVerifier, oidcNonceFor, type OidcVerifier } from './oidc.js';

const clientPublicKey = '04' + 'ab'.repeat(64);
const start = Date.UTC(2025, 9, 13, 12);
const now = start / 1000;
/** A refused token's verification result. */
const refused = (reason: string, code = 'UNAUTHORIZED') => ({ ok: false, code, reason });

describe('OIDC verification against a remote key set (production mode)', () => {
  let issuer: JwksServer;
  let clock: ManualClock;
  let verifier: OidcVerifier;

  beforeAll(async () => {
    issuer = await startJwksServer();
    clock = new ManualClock(start);
    verifier = createOidcVerifier({
      mode: 'production',
      issuers: { [issuer.issuer]: issuer.jwksUri, 'https://accounts.example.com': 'http://127.0.0.1:1/jwks' },
      clock,
    });
  });
  afterAll(() => issuer.close());

  const claims = (overrides: Record<string, unknown> = {}) => ({
    sub: 'user-123',
    aud: 'client-app',
    iat: now - 10,
    exp: now + 3600,
    email: 'alice@example.com',
    nonce: oidcNonceFor(clientPublicKey),
    ...overrides,
  });

  it('accepts a token signed by the issuer key and returns its identity', async () => {
    const token = await issuer.sign(claims());
    expect(await verifier.verify(token, { clientPublicKey })).toEqual({
      ok: true,
      identity: { iss: issuer.issuer, ...claims() },
    });
    expect(issuer.fetches).toBeGreaterThanOrEqual(1);
  });

  it('accepts a one-element aud array and does not require a nonce on credential creation', async () => {
    const token = await issuer.sign(claims({ aud: ['client-app'], nonce: undefined }));
    expect(await verifier.verify(token)).toMatchObject({ ok: true, identity: { aud: 'client-app' } });
  });

  it('refuses a token signed by a key the issuer did not publish', async () => {
    const token = await issuer.sign(claims(), { key: await issuer.strangerKey() });
    expect(await verifier.verify(token, { clientPublicKey })).toEqual(refused(OIDC_REASONS.signature));
  });

  it('refuses a token whose claims were changed after signing', async () => {
    const [h, , s] = (await issuer.sign(claims())).split('.');
    const forged = [
      h,
      Buffer.from(JSON.stringify({ iss: issuer.issuer, ...claims({ sub: 'someone-else' }) })).toString('base64url'),
      s,
    ].join('.');
    expect(await verifier.verify(forged, { clientPublicKey })).toEqual(refused(OIDC_REASONS.signature));
  });

  it('refuses a token with an unsupported iss', async () => {
    const token = await issuer.sign(claims({ iss: 'https://evil.example.com' }));
    expect(await verifier.verify(token, { clientPublicKey })).toEqual(refused(OIDC_REASONS.issuer));
  });

  it('reports an unreachable key set separately from a bad token', async () => {
    const token = await issuer.sign(claims({ iss: 'https://accounts.example.com' }));
    expect(await verifier.verify(token, { clientPublicKey })).toEqual(
      refused(OIDC_REASONS.keysUnavailable, 'ISSUER_KEYS_UNAVAILABLE'),
    );
  });

  it.each([
    ['an empty aud', { aud: '' }, OIDC_REASONS.audience],
    ['a two-element aud', { aud: ['a', 'b'] }, OIDC_REASONS.audience],
    ['no aud', { aud: undefined }, OIDC_REASONS.audience],
    ['an empty sub', { sub: '' }, OIDC_REASONS.subject],
    ['no iat', { iat: undefined }, OIDC_REASONS.iatMissing],
    ['an iat 61 seconds old', { iat: now - 61 }, OIDC_REASONS.iatTooOld],
    ['no exp', { exp: undefined }, OIDC_REASONS.expMissing],
    ['an exp equal to now', { exp: now }, OIDC_REASONS.expired],
    ['a nonce for another key', { nonce: oidcNonceFor('04' + 'cd'.repeat(64)) }, OIDC_REASONS.nonce],
    ['no nonce', { nonce: undefined }, OIDC_REASONS.nonce],
  ])('refuses a validly signed token with %s', async (_name, overrides, reason) => {
    const token = await issuer.sign(claims(overrides));
    expect(await verifier.verify(token, { clientPublicKey })).toEqual(refused(reason));
  });

  it('accepts an iat exactly 60 seconds old in production (no sandbox skew)', async () => {
    expect(await verifier.verify(await issuer.sign(claims({ iat: now - 60 })), { clientPublicKey })).toMatchObject({
      ok: true,
    });
    expect(await verifier.verify(await issuer.sign(claims({ iat: now - 62 })), { clientPublicKey })).toMatchObject({
      ok: false,
      reason: OIDC_REASONS.iatTooOld,
    });
  });

  it('follows the injected clock for expiry', async () => {
    const token = await issuer.sign(claims({ iat: now, exp: now + 30 }));
    const later = new ManualClock(clock.now());
    const laterVerifier = createOidcVerifier({
      mode: 'production',
      issuers: { [issuer.issuer]: issuer.jwksUri },
      clock: later,
      maxTokenAgeSeconds: 3600,
    });
    expect(await laterVerifier.verify(token)).toMatchObject({ ok: true });
    later.advance(30_000);
    expect(await laterVerifier.verify(token)).toEqual(refused(OIDC_REASONS.expired));
  });

  it('treats a non-JWT as INVALID_INPUT', async () => {
    expect(await verifier.verify('not-a-jwt', { clientPublicKey })).toEqual(
      refused(OIDC_REASONS.malformed, 'INVALID_INPUT'),
    );
  });
});
