import { describe, expect, it } from '@jest/globals';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { useWalletService } from '../support/wallet-fixture.js';
import {
  challengeFor,
  createWallet,
  emailOtpSession,
  signedCall,
  walletEventCount,
  type Wallet,
  retryHeaders,
} from '../support/wallet-session.js';

describe('embedded wallet accounts: privacy, export and the customer email', () => {
  const w = useWalletService({ email: 'first@example.com' });
  const { t } = w;
  const { api, clock } = t;

  describe('PATCH /internal-accounts/{id}', () => {
    it('toggles privateEnabled by signed retry and answers the InternalAccount', async () => {
      const path = `/internal-accounts/${w.wallet.accountId}`;
      const challenge = await challengeFor(api, 'PATCH', path, { privateEnabled: true });
      expect(challenge.type).toBeUndefined();
      expect((await api.get(path)).body.privateEnabled).toBe(false);
      clock.advance(1000);
      const done = await api.patch(
        path,
        { privateEnabled: true },
        await retryHeaders(w.session, challenge.payloadToSign, challenge.requestId),
      );
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        id: w.wallet.accountId,
        type: 'EMBEDDED_WALLET',
        privateEnabled: true,
        updatedAt: clock.now().toISOString(),
      });
      const listed = await api.get(
        `/customers/internal-accounts?customerId=${encodeURIComponent(w.wallet.customerId)}&type=EMBEDDED_WALLET`,
      );
      expect(listed.body.data[0].privateEnabled).toBe(true);
      expect((await signedCall(api, w.session, 'PATCH', path, { privateEnabled: false })).body.privateEnabled).toBe(
        false,
      );
    });

    it('validates the body and refuses non-wallet and foreign accounts', async () => {
      const path = `/internal-accounts/${w.wallet.accountId}`;
      expect((await api.patch(path, {})).status).toBe(400);
      expect((await api.patch(path, { privateEnabled: 'yes' })).status).toBe(400);
      expect((await api.patch(path, { privateEnabled: true, status: 'FROZEN' })).status).toBe(400);
      const fiat = (
        await api.get(
          `/customers/internal-accounts?customerId=${encodeURIComponent(w.wallet.customerId)}&type=INTERNAL_FIAT`,
        )
      ).body.data[0];
      const notWallet = await api.patch(`/internal-accounts/${fiat.id}`, { privateEnabled: true });
      expect(notWallet.status).toBe(400);
      expect(notWallet.body.code).toBe('NOT_AN_EMBEDDED_WALLET');
      const other = await t.otherPlatform();
      expect((await other.api.patch(path, { privateEnabled: true })).status).toBe(404);
      expect(
        (await other.api.post(`${path}/export`, { clientPublicKey: generateP256KeyPair().publicKeyUncompressed }))
          .status,
      ).toBe(404);
    });
  });

  describe('POST /internal-accounts/{id}/export', () => {
    it(
      'exports the wallet seed sealed to clientPublicKey: the same seed every time, another for ' + 'another wallet',
      async () => {
        const path = `/internal-accounts/${w.wallet.accountId}/export`;
        const client = generateP256KeyPair();
        const first = await signedCall(api, w.session, 'POST', path, { clientPublicKey: client.publicKeyUncompressed });
        expect(first.status).toBe(200);
        expect(first.body.id).toMatch(/^Export:[0-9a-f-]{36}$/);
        const seed = decryptCredentialBundle(first.body.encryptedWalletCredentials, client.privateKey);
        expect(seed).toMatch(/^[0-9a-f]{64}$/);

        const client2 = generateP256KeyPair();
        const second = await signedCall(api, w.session, 'POST', path, {
          clientPublicKey: client2.publicKeyUncompressed,
        });
        expect(second.body.id).not.toBe(first.body.id);
        expect(decryptCredentialBundle(second.body.encryptedWalletCredentials, client2.privateKey)).toBe(seed);
        expect(() => decryptCredentialBundle(second.body.encryptedWalletCredentials, client.privateKey)).toThrow();

        const otherWallet = await createWallet(api);
        const otherSession = await emailOtpSession(api, otherWallet.emailOtpId);
        const other = await signedCall(
          api,
          otherSession,
          'POST',
          `/internal-accounts/${otherWallet.accountId}/export`,
          {
            clientPublicKey: client.publicKeyUncompressed,
          },
        );
        expect(decryptCredentialBundle(other.body.encryptedWalletCredentials, client.privateKey)).not.toBe(seed);

        // The export is recorded with the signing session; the seed is nowhere in the log.
        const log = JSON.stringify(
          (await t.service.infra.eventStore.readAll()).map((e) => ({
            type: e.type,
            data: e.data,
            metadata: e.metadata,
          })),
        );
        expect(log).toContain(first.body.id);
        expect(log).not.toContain(seed);
      },
    );

    it('requires the clientPublicKey on both steps, and a signature', async () => {
      const path = `/internal-accounts/${w.wallet.accountId}/export`;
      expect((await api.post(path, {})).status).toBe(400);
      const body = { clientPublicKey: generateP256KeyPair().publicKeyUncompressed };
      const challenge = await challengeFor(api, 'POST', path, body);
      const res = await api.post(
        path,
        { clientPublicKey: generateP256KeyPair().publicKeyUncompressed },
        await retryHeaders(w.session, challenge.payloadToSign, challenge.requestId),
      );
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    });
  });

  describe('PATCH /customers/{id} and the EMAIL_OTP credential', () => {
    const emailCredential = async (w: Wallet) =>
      (await api.get(`/auth/credentials?accountId=${encodeURIComponent(w.accountId)}`)).body.data.find(
        (c: any) => c.type === 'EMAIL_OTP',
      );

    it('changes the email by signed retry (stamped by the wallet’s session) and syncs the credential', async () => {
      const path = `/customers/${w.wallet.customerId}`;
      const challenge = await challengeFor(api, 'PATCH', path, { email: 'second@example.com' });
      expect(JSON.parse(challenge.payloadToSign)).toMatchObject({
        accountId: w.wallet.accountId,
        targetId: w.wallet.customerId,
        body: { email: 'second@example.com' },
      });
      expect((await api.get(path)).body.email).toBe('first@example.com');

      const stranger = await emailOtpSession(api, (await createWallet(api)).emailOtpId);
      const refused = await api.patch(
        path,
        { email: 'second@example.com' },
        await retryHeaders(stranger, challenge.payloadToSign, challenge.requestId),
      );
      expect(refused.status).toBe(401);
      expect((await api.get(path)).body.email).toBe('first@example.com');

      const done = await api.patch(
        path,
        { email: 'second@example.com' },
        await retryHeaders(w.session, challenge.payloadToSign, challenge.requestId),
      );
      expect(done.status).toBe(200);
      expect(done.body.email).toBe('second@example.com');
      expect(await emailCredential(w.wallet)).toMatchObject({
        id: w.wallet.emailOtpId,
        nickname: 'second@example.com',
      });
      // Sessions show the credential's current nickname.
      const sessions = (await api.get(`/auth/sessions?accountId=${encodeURIComponent(w.wallet.accountId)}`)).body.data;
      expect(sessions.find((s: any) => s.id === w.session.id).nickname).toBe('second@example.com');
    });

    it('refuses a reused requestId and a changed email on the customer retry, changing nothing', async () => {
      const path = `/customers/${w.wallet.customerId}`;
      const challenge = await challengeFor(api, 'PATCH', path, { email: 'third@example.com' });
      const headers = await retryHeaders(w.session, challenge.payloadToSign, challenge.requestId);
      const changed = await api.patch(path, { email: 'elsewhere@example.com' }, headers);
      expect(changed.status).toBe(401);
      expect(changed.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
      const missing = await api.patch(
        path,
        { email: 'third@example.com' },
        { 'Service-Wallet-Signature': headers['Service-Wallet-Signature'] },
      );
      expect(missing.body.code).toBe('REQUEST_ID_MISSING');
      expect((await api.patch(path, { email: 'third@example.com' }, headers)).status).toBe(200);
      expect((await signedCall(api, w.session, 'PATCH', path, { email: 'second@example.com' })).status).toBe(200);
      // Replaying the first signed change would move the email back: the requestId is spent.
      const events = await walletEventCount(t.service.infra.eventStore, w.wallet.accountId);
      const reused = await api.patch(path, { email: 'third@example.com' }, headers);
      expect(reused.status).toBe(401);
      expect(reused.body.reason).toBe('requestId was already used');
      expect((await api.get(path)).body.email).toBe('second@example.com');
      expect(await walletEventCount(t.service.infra.eventStore, w.wallet.accountId)).toBe(events);
    });

    it('needs no signature for other fields or the same email', async () => {
      const path = `/customers/${w.wallet.customerId}`;
      const before = await walletEventCount(t.service.infra.eventStore, w.wallet.accountId);
      const name = await api.patch(path, { fullName: 'Renamed Holder' });
      expect(name.status).toBe(200);
      expect(name.body.fullName).toBe('Renamed Holder');
      expect((await api.patch(path, { email: 'second@example.com' })).status).toBe(200);
      expect(await walletEventCount(t.service.infra.eventStore, w.wallet.accountId)).toBe(before);
    });

    it('stays a plain update for customers without EMAIL_OTP wallet credentials', async () => {
      const customer = await api.post('/customers', {
        platformCustomerId: 'plain-1',
        customerType: 'INDIVIDUAL',
        email: 'plain@example.com',
      });
      const res = await api.patch(`/customers/${customer.body.id}`, { email: 'plain2@example.com' });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe('plain2@example.com');
    });
  });
});
