import { describe, expect, it } from '@jest/globals';
import { generateP256KeyPair } from '@turnkey/crypto';
import { useWalletService } from '../support/wallet-fixture.js';
import {
  challengeFor,
  emailOtpSession,
  openSession,
  retryHeaders,
  signedCall,
  signedRequest,
} from '../support/wallet-session.js';

describe('wallet sessions over HTTP', () => {
  const w = useWalletService({ session: false });
  const { t } = w;
  const { api, clock } = t;

  const sessions = async (accountId = w.wallet.accountId) =>
    (await api.get(`/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).body.data as any[];

  it('lists active sessions without any key material, only to the account’s platform', async () => {
    const a = await emailOtpSession(api, w.wallet.emailOtpId);
    const list = await api.get(`/auth/sessions?accountId=${encodeURIComponent(w.wallet.accountId)}`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: a.id,
        accountId: w.wallet.accountId,
        type: 'EMAIL_OTP',
        nickname: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        expiresAt: a.body.expiresAt,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain('encryptedSessionSigningKey');
    const other = await t.otherPlatform();
    expect((await other.api.get(`/auth/sessions?accountId=${encodeURIComponent(w.wallet.accountId)}`)).body).toEqual({
      data: [],
    });
    expect((await other.api.delete(`/auth/sessions/${a.id}`)).status).toBe(404);
    expect((await api.get('/auth/sessions')).status).toBe(400);
    expect((await api.delete('/auth/sessions/Session:00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('revokes a session by signed retry: 202 with the issuing credential’s type, then 204', async () => {
    const signer = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    const target = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    const revoke = await signedRequest(api, 'DELETE', `/auth/sessions/${target.id}`, undefined, signer);
    expect([revoke.challenge.status, revoke.challenge.body.type]).toEqual([202, 'EMAIL_OTP']);
    const revoked = revoke.result;
    expect(revoked.status).toBe(204);
    expect((await sessions()).map((s) => s.id)).not.toContain(target.id);
    const again = await api.delete(`/auth/sessions/${target.id}`);
    expect(again.status).toBe(409);
    // A session may also end itself.
    expect((await signedCall(api, signer, 'DELETE', `/auth/sessions/${signer.id}`)).status).toBe(204);
  });

  it(
    'refreshes an active session with a new key sealed to the new clientPublicKey; the old key ' + 'stops working',
    async () => {
      const session = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
      clock.advance(60_000);
      const client = generateP256KeyPair();
      const body = { clientPublicKey: client.publicKeyUncompressed };
      const refreshed = await signedCall(api, session, 'POST', `/auth/sessions/${session.id}/refresh`, body);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toMatchObject({ id: session.id, accountId: w.wallet.accountId, type: 'EMAIL_OTP' });
      expect(Date.parse(refreshed.body.expiresAt)).toBe(clock.now().getTime() + 900_000);
      const renewed = openSession(refreshed.body, client.privateKey, session.authMethodId);
      expect(renewed.publicKey).not.toBe(session.publicKey);

      const path = `/internal-accounts/${w.wallet.accountId}`;
      const old = await signedCall(api, session, 'PATCH', path, { privateEnabled: true });
      expect(old.status).toBe(401);
      expect(old.body.reason).toBe('the signing key is not a session of this account');
      expect((await signedCall(api, renewed, 'PATCH', path, { privateEnabled: true })).status).toBe(200);
    },
  );

  it('refreshes only an active session: expired or revoked ones answer 401 at step 1', async () => {
    const keeper = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    const revoked = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    expect((await signedCall(api, keeper, 'DELETE', `/auth/sessions/${revoked.id}`)).status).toBe(204);
    const body = { clientPublicKey: generateP256KeyPair().publicKeyUncompressed };
    const onRevoked = await api.post(`/auth/sessions/${revoked.id}/refresh`, body);
    expect(onRevoked.status).toBe(401);
    expect(onRevoked.body.reason).toBe('the session was revoked');

    // A challenge obtained while active cannot be used once the session expired.
    const challenge = await challengeFor(api, 'POST', `/auth/sessions/${keeper.id}/refresh`, body);
    const headers = await retryHeaders(keeper, challenge.payloadToSign, challenge.requestId);
    clock.advance(900_000);
    expect((await sessions()).map((s) => s.id)).not.toContain(keeper.id);
    const late = await api.post(`/auth/sessions/${keeper.id}/refresh`, body, headers);
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 401, code: 'SESSION_EXPIRED' });
    expect(late.body.reason).toBe('the session has expired; verify the credential again');
    const expired = await api.post(`/auth/sessions/${keeper.id}/refresh`, body);
    expect(expired.status).toBe(401);
    // Re-authentication is the way back.
    const again = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    expect((await sessions()).map((s) => s.id)).toContain(again.id);
  });
});
