import { describe, expect, it } from '@jest/globals';
import { generateP256KeyPair } from '@turnkey/crypto';
import { CommandRunner } from '#application/command-runner.js';
import { WalletAccounts } from '#application/wallet/wallet-accounts.js';
import { ManualClock } from '#domain/clock.js';
import { customerDecider } from '#domain/customers/customer.js';
import { streams } from '#domain/primitives.js';
import { useTestService } from '../support/fixture.js';
import {
  challengeFor,
  createWallet,
  emailOtpSession,
  openSession,
  signedCall,
  signedRequest,
  walletEventCount,
  retryHeaders,
} from '../support/wallet-session.js';
import { googleClaims, oidcNonce, sandboxToken } from './wallet-support.js';

const START = Date.UTC(2026, 0, 5, 12);

describe('wallet credentials over HTTP (sandbox platform)', () => {
  const clock = new ManualClock(START);

  const t = useTestService({ clock });
  const api = t.api;

  const credentials = async (accountId: string) =>
    (await api.get(`/auth/credentials?accountId=${encodeURIComponent(accountId)}`)).body.data as any[];

  describe('provisioning', () => {
    it('gives a new EMBEDDED_WALLET its EMAIL_OTP credential with the customer’s email', async () => {
      const w = await createWallet(api, { email: 'ann@example.com', currency: 'USD' });
      const list = await api.get(`/auth/credentials?accountId=${encodeURIComponent(w.accountId)}`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        data: [
          {
            id: w.emailOtpId,
            accountId: w.accountId,
            type: 'EMAIL_OTP',
            nickname: 'ann@example.com',
            createdAt: expect.any(String),
            updatedAt: expect.any(String),
          },
        ],
      });
      expect(w.emailOtpId).toMatch(/^AuthMethod:[0-9a-f-]{36}$/);
      const account = await api.get(`/internal-accounts/${w.accountId}`);
      expect(account.body).toMatchObject({ type: 'EMBEDDED_WALLET', privateEnabled: false });
    });

    it('refuses an EMBEDDED_WALLET for a customer without email (400) and opens nothing', async () => {
      const customer = await api.post('/customers', {
        platformCustomerId: 'no-email',
        customerType: 'INDIVIDUAL',
        fullName: 'No Mail',
      });
      const before = await t.service.infra.eventStore.headPosition();
      const res = await api.post('/customers/internal-accounts', {
        customerId: customer.body.id,
        type: 'EMBEDDED_WALLET',
        currency: 'USDC',
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('CUSTOMER_EMAIL_REQUIRED');
      expect(await t.service.infra.eventStore.headPosition()).toBe(before);
      const accounts = await api.get(
        `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&type=EMBEDDED_WALLET`,
      );
      expect(accounts.body.totalCount).toBe(0);
    });

    it('provisions idempotently, and heals an EMBEDDED_WALLET account whose wallet was never provisioned', async () => {
      const customer = await api.post('/customers', {
        platformCustomerId: 'heal-1',
        customerType: 'INDIVIDUAL',
        email: 'heal@example.com',
      });
      // The state a crash between opening the account and provisioning its wallet leaves behind.
      const accountId = 'InternalAccount:00000000-0000-4000-8000-00000000beef';
      const runner = t.service.app.get(CommandRunner);
      const actor = { platformId: t.service.sandbox!.platformId, actor: 'test', correlationId: 'heal' };
      await runner.run(
        streams.customer(customer.body.id),
        customerDecider,
        {
          type: 'OpenInternalAccount',
          account: { accountId, type: 'EMBEDDED_WALLET', currency: 'USDC' },
          now: clock.now().toISOString(),
        },
        { metadata: actor },
      );
      expect(await credentials(accountId)).toEqual([]);
      // The first wallet operation provisions it (here: step 1 of a privacy change).
      expect((await api.patch(`/internal-accounts/${accountId}`, { privateEnabled: true })).status).toBe(202);
      const healed = await credentials(accountId);
      expect(healed).toMatchObject([{ type: 'EMAIL_OTP', nickname: 'heal@example.com' }]);
      const wallets = t.service.app.get(WalletAccounts);
      const again = await wallets.provision(
        { accountId, customerId: customer.body.id, email: 'other@example.com' },
        actor,
      );
      expect([...again.authMethods.keys()]).toEqual([healed[0].id]);
      expect(await credentials(accountId)).toEqual(healed);
    });

    it('does not give other account types credentials', async () => {
      const w = await createWallet(api);
      const fiat = (
        await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(w.customerId)}&type=INTERNAL_FIAT`)
      ).body.data[0];
      expect(await credentials(fiat.id)).toEqual([]);
      const add = await api.post('/auth/credentials', {
        type: 'OAUTH',
        accountId: fiat.id,
        oidcToken: sandboxToken(googleClaims(clock.now().getTime())),
      });
      expect(add.status).toBe(400);
      expect(add.body.code).toBe('NOT_AN_EMBEDDED_WALLET');
    });

    it('lists nothing for an unknown account or another platform’s account, and 404s their credentials', async () => {
      const w = await createWallet(api);
      expect(await credentials('InternalAccount:00000000-0000-4000-8000-000000000000')).toEqual([]);
      const other = await t.otherPlatform();
      const foreign = await other.api.get(`/auth/credentials?accountId=${encodeURIComponent(w.accountId)}`);
      expect(foreign.status).toBe(200);
      expect(foreign.body).toEqual({ data: [] });
      expect((await other.api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {})).status).toBe(404);
      expect(
        (
          await other.api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
            type: 'EMAIL_OTP',
            otp: '000000',
            clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
          })
        ).status,
      ).toBe(404);
      expect((await other.api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: w.accountId })).status).toBe(
        404,
      );
      expect((await api.get('/auth/credentials?accountId=nope')).status).toBe(400);
    });
  });

  describe('EMAIL_OTP', () => {
    it('issues a session whose key @turnkey/crypto decrypts, only with the sandbox code', async () => {
      const w = await createWallet(api);
      const challenged = await api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {});
      expect(challenged.status).toBe(200);
      expect(challenged.body).toMatchObject({ id: w.emailOtpId, type: 'EMAIL_OTP' });
      const client = generateP256KeyPair();
      const wrong = await api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp: '123456',
        clientPublicKey: client.publicKeyUncompressed,
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
      const ok = await api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp: '000000',
        clientPublicKey: client.publicKeyUncompressed,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        accountId: w.accountId,
        type: 'EMAIL_OTP',
        nickname: expect.stringContaining('@example.com'),
      });
      expect(ok.body.id).toMatch(/^Session:[0-9a-f-]{36}$/);
      expect(Date.parse(ok.body.expiresAt) - clock.now().getTime()).toBe(900_000);
      const session = openSession(ok.body, client.privateKey, w.emailOtpId);
      expect(session.privateKey).toMatch(/^[0-9a-f]{64}$/);
    });

    it('validates the verify body: clientPublicKey shape and type', async () => {
      const w = await createWallet(api);
      const badKey = await api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp: '000000',
        clientPublicKey: '04abc',
      });
      expect(badKey.status).toBe(400);
      expect(badKey.body.details.errors[0].field).toBe('clientPublicKey');
      const offCurve = await api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp: '000000',
        clientPublicKey: `04${'11'.repeat(64)}`,
      });
      expect(offCurve.status).toBe(400);
      const wrongType = await api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'OAUTH',
        oidcToken: 'x.y.z',
        clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
      });
      expect(wrongType.status).toBe(400);
      const missing = await api.post(`/auth/credentials/${w.emailOtpId}/verify`, { type: 'EMAIL_OTP', otp: '000000' });
      expect(missing.status).toBe(400);
    });

    it('rate-limits OTP re-issue with 429 and Retry-After, then allows it again', async () => {
      const w = await createWallet(api);
      expect((await api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {})).status).toBe(200);
      const before = await walletEventCount(t.service.infra.eventStore, w.accountId);
      const limited = await api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {});
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect(limited.headers.get('retry-after')).toBe('30');
      expect(await walletEventCount(t.service.infra.eventStore, w.accountId)).toBe(before);
      clock.advance(30_000);
      expect((await api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {})).status).toBe(200);
    });
  });

  describe('production platforms', () => {
    it('issue no EMAIL_OTP codes without an email transport, and accept no sandbox code', async () => {
      const other = await t.otherPlatform({ sandbox: false });
      const w = await createWallet(other.api);
      const challenge = await other.api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {});
      expect(challenge.status).toBe(422);
      expect(challenge.body.code).toBe('EMAIL_DELIVERY_UNAVAILABLE');
      const verify = await other.api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp: '000000',
        clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
      });
      expect(verify.status).toBe(401);
      expect(verify.body.reason).toBe('Invalid OTP code');
    });
  });

  describe('adding and revoking credentials', () => {
    const oauthBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
      type: 'OAUTH',
      accountId,
      oidcToken: sandboxToken(googleClaims(clock.now().getTime(), extra)),
    });

    it(
      'adds an OAUTH credential by signed retry (202 with type, then 201), nickname from the email ' + 'claim',
      async () => {
        const w = await createWallet(api);
        const session = await emailOtpSession(api, w.emailOtpId);
        const body = oauthBody(w.accountId);
        const challenge = await challengeFor(api, 'POST', '/auth/credentials', body);
        expect(challenge).toMatchObject({ type: 'OAUTH', requestId: expect.stringMatching(/^Request:[0-9a-f-]{36}$/) });
        expect(Date.parse(challenge.expiresAt) - clock.now().getTime()).toBe(300_000);
        const added = await api.post(
          '/auth/credentials',
          body,
          await retryHeaders(session, challenge.payloadToSign, challenge.requestId),
        );
        expect(added.status).toBe(201);
        expect(added.body).toMatchObject({ accountId: w.accountId, type: 'OAUTH', nickname: 'holder@gmail.com' });
        expect((await credentials(w.accountId)).map((c) => c.type).sort()).toEqual(['EMAIL_OTP', 'OAUTH']);
      },
    );

    it('adds OAUTH once per provider identity, and at most one EMAIL_OTP', async () => {
      const w = await createWallet(api);
      const session = await emailOtpSession(api, w.emailOtpId);
      expect((await signedCall(api, session, 'POST', '/auth/credentials', oauthBody(w.accountId))).status).toBe(201);
      const again = await api.post('/auth/credentials', oauthBody(w.accountId));
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('OAUTH_CREDENTIAL_ALREADY_EXISTS');
      expect(
        (await signedCall(api, session, 'POST', '/auth/credentials', oauthBody(w.accountId, { sub: 'google-user-2' })))
          .status,
      ).toBe(201);
      const emailOtp = await api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: w.accountId });
      expect(emailOtp.status).toBe(400);
      expect(emailOtp.body.code).toBe('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
      expect((await credentials(w.accountId)).length).toBe(3);
    });

    it('needs a signed retry to add once the account has a credential', async () => {
      const w = await createWallet(api);
      const stranger = await createWallet(api);
      const strangerSession = await emailOtpSession(api, stranger.emailOtpId);
      const res = await signedCall(api, strangerSession, 'POST', '/auth/credentials', oauthBody(w.accountId));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        code: 'WALLET_SIGNATURE_INVALID',
        reason: 'the signing key is not a session of this account',
      });
      expect((await credentials(w.accountId)).length).toBe(1);
    });

    it(
      'refuses to revoke the last credential (400) and revokes by a session of another credential ' + '(202, 204)',
      async () => {
        const w = await createWallet(api);
        const emailSession = await emailOtpSession(api, w.emailOtpId);
        const only = await api.delete(`/auth/credentials/${w.emailOtpId}`);
        expect(only.status).toBe(400);
        expect(only.body.code).toBe('LAST_CREDENTIAL');

        const oauth = (await signedCall(api, emailSession, 'POST', '/auth/credentials', oauthBody(w.accountId))).body;
        const oauthClient = generateP256KeyPair();
        const verified = await api.post(`/auth/credentials/${oauth.id}/verify`, {
          type: 'OAUTH',
          oidcToken: sandboxToken(
            googleClaims(clock.now().getTime(), { nonce: oidcNonce(oauthClient.publicKeyUncompressed) }),
          ),
          clientPublicKey: oauthClient.publicKeyUncompressed,
        });
        expect(verified.status).toBe(200);
        const oauthSession = openSession(verified.body, oauthClient.privateKey, oauth.id);

        // The credential's own session cannot revoke it.
        const own = await signedCall(api, emailSession, 'DELETE', `/auth/credentials/${w.emailOtpId}`);
        expect(own.status).toBe(401);
        expect(own.body.reason).toBe('the stamp must come from a session of a different credential');

        const revoke = await signedRequest(api, 'DELETE', `/auth/credentials/${w.emailOtpId}`, undefined, oauthSession);
        expect([revoke.challenge.status, revoke.challenge.body.type]).toEqual([202, 'EMAIL_OTP']);
        const revoked = revoke.result;
        expect(revoked.status).toBe(204);
        expect(revoked.body).toBeUndefined();
        expect((await credentials(w.accountId)).map((c) => c.type)).toEqual(['OAUTH']);
        // Its sessions ended with it.
        const sessions = await api.get(`/auth/sessions?accountId=${encodeURIComponent(w.accountId)}`);
        expect(sessions.body.data.map((s: any) => s.id)).toEqual([oauthSession.id]);
        expect((await api.post(`/auth/credentials/${w.emailOtpId}/challenge`, {})).status).toBe(404);

        // A new EMAIL_OTP may be added once the old one is gone; it takes the customer's email.
        const readded = await signedCall(api, oauthSession, 'POST', '/auth/credentials', {
          type: 'EMAIL_OTP',
          accountId: w.accountId,
        });
        expect(readded.status).toBe(201);
        expect(readded.body).toMatchObject({ type: 'EMAIL_OTP', nickname: expect.stringContaining('@example.com') });
      },
    );
  });
});
