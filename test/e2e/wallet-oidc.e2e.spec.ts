import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateP256KeyPair } from '@turnkey/crypto';
import { ManualClock } from '#domain/clock.js';
import { startJwksServer, type JwksServer } from '../support/jwks-server.js';
import { startTestService, type Client, type Reply, type TestService } from '../support/service.js';
import {
  createWallet,
  emailOtpSession,
  openSession,
  signedCall,
  walletEventCount,
  type Wallet,
  type WalletSession,
} from '../support/wallet-session.js';
import { googleClaims, oidcNonce, sandboxToken } from './wallet-support.js';
import { useTestService } from '../support/fixture.js';

const START = Date.UTC(2026, 0, 5, 12);

describe('OAUTH in production mode: tokens verified against a real remote JWKS', () => {
  let t: TestService;
  let api: Client;
  let jwks: JwksServer;
  const clock = new ManualClock(START);
  let wallet: Wallet;
  let emailSession: WalletSession;

  beforeAll(async () => {
    jwks = await startJwksServer();
    t = await startTestService({
      clock,
      env: { OIDC_MODE: 'production', OIDC_ISSUERS: JSON.stringify({ [jwks.issuer]: jwks.jwksUri }) },
    });
    api = t.api;
    wallet = await createWallet(api);
    emailSession = await emailOtpSession(api, wallet.emailOtpId);
  });
  afterAll(async () => {
    await t?.close();
    await jwks?.close();
  });

  const claims = (extra: Record<string, unknown> = {}) => {
    const iat = Math.floor(clock.now().getTime() / 1000);
    return { aud: 'wallet-app', sub: 'user-1', email: 'user1@idp.example', iat, exp: iat + 600, ...extra };
  };

  /** The wallet's OAUTH credential, added by the first test that needs it (the token's subject is claimed once). */
  let adding: Promise<Reply> | undefined;
  const addOauth = () =>
    (adding ??= (async () =>
      signedCall(api, emailSession, 'POST', '/auth/credentials', {
        type: 'OAUTH',
        accountId: wallet.accountId,
        oidcToken: await jwks.sign(claims()),
      }))());
  const oauthCredential = async () => (await addOauth()).body.id as string;

  it('adds an OAUTH credential from a token signed by the issuer', async () => {
    const added = await addOauth();
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ type: 'OAUTH', nickname: 'user1@idp.example' });
    expect(jwks.fetches).toBeGreaterThan(0);
  });

  it('verifies with a fresh token bound to clientPublicKey by its nonce; @turnkey/crypto opens the key', async () => {
    const oauthId = await oauthCredential();
    const client = generateP256KeyPair();
    const token = await jwks.sign(claims({ nonce: oidcNonce(client.publicKeyUncompressed) }));
    const verified = await api.post(`/auth/credentials/${oauthId}/verify`, {
      type: 'OAUTH',
      oidcToken: token,
      clientPublicKey: client.publicKeyUncompressed,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ type: 'OAUTH', nickname: 'user1@idp.example' });
    openSession(verified.body, client.privateKey, oauthId);
  });

  it('refuses dummy-signed, foreign-signed, stale and mismatched tokens, changing nothing', async () => {
    const oauthId = await oauthCredential();
    const client = generateP256KeyPair();
    const nonce = oidcNonce(client.publicKeyUncompressed);
    const before = await walletEventCount(t.service.infra.eventStore, wallet.accountId);
    const verify = (oidcToken: string) =>
      api.post(`/auth/credentials/${oauthId}/verify`, {
        type: 'OAUTH',
        oidcToken,
        clientPublicKey: client.publicKeyUncompressed,
      });

    const dummy = await verify(sandboxToken({ iss: jwks.issuer, ...claims({ nonce }) }));
    expect(dummy.status).toBe(401);
    expect(dummy.body.reason).toBe('OIDC token signature is invalid');
    const foreign = await verify(await jwks.sign(claims({ nonce }), { key: await jwks.strangerKey() }));
    expect(foreign.status).toBe(401);
    expect(foreign.body.reason).toBe('OIDC token signature is invalid');
    const otherSubject = await verify(await jwks.sign(claims({ nonce, sub: 'user-2' })));
    expect(otherSubject.status).toBe(401);
    expect(otherSubject.body.reason).toBe('OIDC token sub does not match the credential');
    const stale = await jwks.sign(claims({ nonce }));
    clock.advance(61_000);
    const old = await verify(stale);
    expect(old.status).toBe(401);
    expect(old.body.reason).toBe('OIDC token iat is too old');
    expect(await walletEventCount(t.service.infra.eventStore, wallet.accountId)).toBe(before);
  });
});

describe('OAUTH on a sandbox platform: dummy signatures, real claim checks', () => {
  const clock = new ManualClock(START);
  let wallet: Wallet;
  let oauthId: string;
  const now = () => clock.now().getTime();
  const seconds = () => Math.floor(now() / 1000);

  const t = useTestService({ clock });
  const api = t.api;
  beforeAll(async () => {
    wallet = await createWallet(api);
    const session = await emailOtpSession(api, wallet.emailOtpId);
    const added = await signedCall(api, session, 'POST', '/auth/credentials', {
      type: 'OAUTH',
      accountId: wallet.accountId,
      oidcToken: sandboxToken(googleClaims(now())),
    });
    expect(added.status).toBe(201);
    oauthId = added.body.id;
  });

  const add = (oidcToken: string) =>
    api.post('/auth/credentials', { type: 'OAUTH', accountId: wallet.accountId, oidcToken });

  it('answers a malformed token with 400 INVALID_INPUT', async () => {
    for (const token of ['not-a-jwt', 'a.b', `${Buffer.from('{}').toString('base64url')}.bm90LWpzb24.sig`]) {
      const res = await add(token);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
  });

  it.each<[string, (base: Record<string, unknown>) => Record<string, unknown>, string]>([
    [
      'an unsupported issuer',
      (c) => ({ ...c, iss: 'https://idp.example' }),
      'OIDC token iss is not a supported issuer',
    ],
    [
      'aud with two entries',
      (c) => ({ ...c, aud: ['a', 'b'] }),
      'OIDC token aud must be a non-empty string or a one-element string array',
    ],
    [
      'an empty aud',
      (c) => ({ ...c, aud: '' }),
      'OIDC token aud must be a non-empty string or a one-element string array',
    ],
    ['no sub', ({ sub: _s, ...c }) => c, 'OIDC token sub is missing'],
    ['no iat', ({ iat: _i, ...c }) => c, 'OIDC token iat is missing or not numeric'],
    ['a textual iat', (c) => ({ ...c, iat: String(c.iat) }), 'OIDC token iat is missing or not numeric'],
    ['an iat 66 s old (60 s + 5 s skew)', (c) => ({ ...c, iat: (c.iat as number) - 66 }), 'OIDC token iat is too old'],
    ['no exp', ({ exp: _e, ...c }) => c, 'OIDC token exp is missing or not numeric'],
    ['a past exp', (c) => ({ ...c, exp: (c.iat as number) - 1 }), 'OIDC token has expired'],
  ])('refuses a token with %s, naming the check', async (_name, change, reason) => {
    const res = await add(sandboxToken(change(googleClaims(now(), { sub: 'someone-else' }))));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', reason });
  });

  it('accepts an iat 64 s old and a one-element aud array (the sandbox skew)', async () => {
    const res = await add(
      sandboxToken(googleClaims(now(), { sub: 'skewed', iat: seconds() - 64, aud: ['wallet-app'] })),
    );
    expect(res.status).toBe(202);
  });

  it('on verify also requires nonce = sha256(clientPublicKey) and the credential’s iss, aud and sub', async () => {
    const client = generateP256KeyPair();
    const nonce = oidcNonce(client.publicKeyUncompressed);
    const verify = (claims: Record<string, unknown>) =>
      api.post(`/auth/credentials/${oauthId}/verify`, {
        type: 'OAUTH',
        oidcToken: sandboxToken(claims),
        clientPublicKey: client.publicKeyUncompressed,
      });
    expect((await verify(googleClaims(now()))).body.reason).toBe(
      'OIDC token nonce is not the sha256 of clientPublicKey',
    );
    expect(
      (await verify(googleClaims(now(), { nonce: oidcNonce(client.publicKeyUncompressed.toUpperCase()) }))).body.reason,
    ).toBe('OIDC token nonce is not the sha256 of clientPublicKey');
    expect((await verify(googleClaims(now(), { nonce, aud: 'other-app' }))).body.reason).toBe(
      'OIDC token aud does not match the credential',
    );
    expect((await verify(googleClaims(now(), { nonce, sub: 'google-user-9' }))).body.reason).toBe(
      'OIDC token sub does not match the credential',
    );
    expect((await verify({ ...googleClaims(now(), { nonce }), iss: 'https://appleid.apple.com' })).body.reason).toBe(
      'OIDC token iss does not match the credential',
    );
    const ok = await verify(googleClaims(now(), { nonce }));
    expect(ok.status).toBe(200);
    openSession(ok.body, client.privateKey, oauthId);
  });

  it('sends no challenge for OAUTH credentials', async () => {
    const res = await api.post(`/auth/credentials/${oauthId}/challenge`, {});
    expect(res.status).toBe(400);
  });
});
