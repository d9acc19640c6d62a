import { beforeEach, describe, expect, it } from '@jest/globals';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import type { Reply } from '../support/service.js';
import {
  challengeFor,
  createWallet,
  emailOtpSession,
  signedCall,
  walletEventCount,
  type WalletSession,
  retryHeaders,
} from '../support/wallet-session.js';
import { useWalletService } from '../support/wallet-fixture.js';

/**
 * The negative matrix of the signed-retry pattern, on PATCH /internal-accounts/{id}: every
 * broken retry is a 401 naming the failed check, and leaves the wallet and the account as they were.
 */
describe('signed retry: the negative matrix over HTTP', () => {
  let spare: WalletSession;
  let stranger: WalletSession;
  let path: string;

  // Every test gets wallets and sessions of its own: some revoke or outlive a session.
  const w = useWalletService({ each: true });
  const { t } = w;
  const { api, clock } = t;
  beforeEach(async () => {
    path = `/internal-accounts/${w.wallet.accountId}`;
    spare = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    const other = await createWallet(api);
    stranger = await emailOtpSession(api, other.emailOtpId);
  });

  const privateEnabled = async () => (await api.get(path)).body.privateEnabled as boolean;

  /** Runs `attempt` and checks it was refused with 401 `code`/`reason`, changing neither the wallet nor the account. */
  async function refusedUnchanged(attempt: () => Promise<Reply>, code: string, reason: string | RegExp) {
    const events = await walletEventCount(t.service.infra.eventStore, w.wallet.accountId);
    const head = await t.service.infra.eventStore.headPosition();
    const enabled = await privateEnabled();
    const res = await attempt();
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 401, code });
    if (typeof reason === 'string') expect(res.body.reason).toBe(reason);
    else expect(res.body.reason).toMatch(reason);
    expect(await walletEventCount(t.service.infra.eventStore, w.wallet.accountId)).toBe(events);
    expect(await t.service.infra.eventStore.headPosition()).toBe(head);
    expect(await privateEnabled()).toBe(enabled);
  }

  const retry = (body: unknown, headers: Record<string, string>) => api.patch(path, body, headers);

  it('accepts a correct retry stamped with @turnkey/api-key-stamper (the baseline)', async () => {
    const res = await signedCall(api, w.session, 'PATCH', path, { privateEnabled: true });
    expect(res.status).toBe(200);
    expect(res.body.privateEnabled).toBe(true);
  });

  it('refuses a retry without Request-Id', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    await refusedUnchanged(
      async () =>
        retry({ privateEnabled: false }, { 'Service-Wallet-Signature': await w.session.stamp(c.payloadToSign) }),
      'REQUEST_ID_MISSING',
      'Service-Wallet-Signature was sent without Request-Id',
    );
  });

  it('refuses a retry without the stamp', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    await refusedUnchanged(
      () => retry({ privateEnabled: false }, { 'Request-Id': c.requestId }),
      'WALLET_SIGNATURE_MISSING',
      'Request-Id was sent without Service-Wallet-Signature',
    );
  });

  it('refuses malformed stamps', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    const good = JSON.parse(Buffer.from(await w.session.stamp(c.payloadToSign), 'base64url').toString('utf8'));
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const [header, reason] of [
      ['not a stamp!', 'the stamp is not base64url without padding'],
      [Buffer.from('plain text').toString('base64url'), 'the stamp does not decode to JSON'],
      [
        encode({ ...good, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' }),
        'the stamp scheme must be SIGNATURE_SCHEME_TK_API_P256',
      ],
      [
        encode({ ...good, publicKey: `04${good.publicKey.slice(2)}` }),
        'the stamp publicKey is not a compressed P-256 public key in hex',
      ],
      [encode({ ...good, extra: 1 }), 'the stamp must have exactly the fields publicKey, scheme and signature'],
    ] as const) {
      await refusedUnchanged(
        () => retry({ privateEnabled: false }, { 'Service-Wallet-Signature': header, 'Request-Id': c.requestId }),
        'WALLET_SIGNATURE_MALFORMED',
        reason,
      );
    }
  });

  it('refuses a stamp over a modified payload', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    const modified = c.payloadToSign.replace('"privateEnabled":false', '"privateEnabled":true');
    expect(modified).not.toBe(c.payloadToSign);
    await refusedUnchanged(
      async () => retry({ privateEnabled: false }, await retryHeaders(w.session, modified, c.requestId)),
      'WALLET_SIGNATURE_INVALID',
      'the stamp signature does not verify over payloadToSign',
    );
    // Re-serializing the payload (here: with spaces) is a modification too.
    const reserialized = JSON.stringify(JSON.parse(c.payloadToSign), null, 1);
    await refusedUnchanged(
      async () => retry({ privateEnabled: false }, await retryHeaders(w.session, reserialized, c.requestId)),
      'WALLET_SIGNATURE_INVALID',
      /does not verify/,
    );
  });

  it('refuses a body that does not echo the challenged fields', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    const headers = await retryHeaders(w.session, c.payloadToSign, c.requestId);
    await refusedUnchanged(
      () => retry({ privateEnabled: true }, headers),
      'WALLET_SIGNATURE_BODY_MISMATCH',
      'body field privateEnabled differs from the signed payload',
    );
  });

  it('refuses a refresh whose retried clientPublicKey is not the signed one', async () => {
    const refreshPath = `/auth/sessions/${spare.id}/refresh`;
    const first = generateP256KeyPair().publicKeyUncompressed;
    const c = await challengeFor(api, 'POST', refreshPath, { clientPublicKey: first });
    await refusedUnchanged(
      async () =>
        api.post(
          refreshPath,
          { clientPublicKey: generateP256KeyPair().publicKeyUncompressed },
          await retryHeaders(w.session, c.payloadToSign, c.requestId),
        ),
      'WALLET_SIGNATURE_BODY_MISMATCH',
      'body field clientPublicKey differs from the signed payload',
    );
  });

  it('refuses a payload signed by a session of another account', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    await refusedUnchanged(
      async () => retry({ privateEnabled: false }, await retryHeaders(stranger, c.payloadToSign, c.requestId)),
      'WALLET_SIGNATURE_INVALID',
      'the signing key is not a session of this account',
    );
    // A valid stamp from a key that never was a session is refused the same way.
    const random = generateP256KeyPair();
    const outsider = new ApiKeyStamper({ apiPublicKey: random.publicKey, apiPrivateKey: random.privateKey });
    await refusedUnchanged(
      async () =>
        retry(
          { privateEnabled: false },
          {
            'Service-Wallet-Signature': (await outsider.stamp(c.payloadToSign)).stampHeaderValue,
            'Request-Id': c.requestId,
          },
        ),
      'WALLET_SIGNATURE_INVALID',
      'the signing key is not a session of this account',
    );
  });

  it('refuses unknown requestIds and requestIds issued for another operation or account', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    await refusedUnchanged(
      async () =>
        retry(
          { privateEnabled: false },
          await retryHeaders(w.session, c.payloadToSign, 'Request:00000000-0000-4000-8000-000000000000'),
        ),
      'UNAUTHORIZED',
      'requestId is unknown or has expired',
    );
    const exportBody = { clientPublicKey: generateP256KeyPair().publicKeyUncompressed };
    const other = await challengeFor(api, 'POST', `${path}/export`, exportBody);
    await refusedUnchanged(
      async () => retry({ privateEnabled: false }, await retryHeaders(w.session, other.payloadToSign, other.requestId)),
      'UNAUTHORIZED',
      'requestId was issued for another operation',
    );
    const foreignWallet = await createWallet(api);
    const foreignSession = await emailOtpSession(api, foreignWallet.emailOtpId);
    const foreign = await challengeFor(api, 'PATCH', `/internal-accounts/${foreignWallet.accountId}`, {
      privateEnabled: false,
    });
    await refusedUnchanged(
      async () =>
        retry({ privateEnabled: false }, await retryHeaders(foreignSession, foreign.payloadToSign, foreign.requestId)),
      'UNAUTHORIZED',
      'requestId is unknown or has expired',
    );
  });

  it('refuses a reused requestId', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: false });
    const headers = await retryHeaders(w.session, c.payloadToSign, c.requestId);
    expect((await retry({ privateEnabled: false }, headers)).status).toBe(200);
    await refusedUnchanged(
      () => retry({ privateEnabled: false }, headers),
      'UNAUTHORIZED',
      'requestId was already used',
    );
  });

  it('lets exactly one of two concurrent retries with one requestId succeed', async () => {
    for (let round = 0; round < 5; round++) {
      const body = { privateEnabled: round % 2 === 0 };
      const c = await challengeFor(api, 'PATCH', path, body);
      const headers = await retryHeaders(w.session, c.payloadToSign, c.requestId);
      const events = await walletEventCount(t.service.infra.eventStore, w.wallet.accountId);
      const replies = await Promise.all([retry(body, headers), retry(body, headers), retry(body, headers)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401]);
      for (const r of replies.filter((x) => x.status === 401)) expect(r.body.reason).toBe('requestId was already used');
      // One consumption and at most one privacy change.
      expect(await walletEventCount(t.service.infra.eventStore, w.wallet.accountId)).toBeLessThanOrEqual(events + 2);
      expect(await privateEnabled()).toBe(body.privateEnabled);
    }
  });

  it('refuses an expired challenge', async () => {
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: true });
    const headers = await retryHeaders(w.session, c.payloadToSign, c.requestId);
    clock.advance(300_000);
    await refusedUnchanged(
      () => retry({ privateEnabled: true }, headers),
      'CHALLENGE_EXPIRED',
      'the signed-retry challenge has expired',
    );
  });

  it('refuses a revoked session', async () => {
    expect((await signedCall(api, w.session, 'DELETE', `/auth/sessions/${spare.id}`)).status).toBe(204);
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: true });
    await refusedUnchanged(
      async () => retry({ privateEnabled: true }, await retryHeaders(spare, c.payloadToSign, c.requestId)),
      'WALLET_SIGNATURE_INVALID',
      'the signing session was revoked',
    );
  });

  it('refuses an expired session', async () => {
    const fresh = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });
    clock.advance(900_000);
    const c = await challengeFor(api, 'PATCH', path, { privateEnabled: true });
    await refusedUnchanged(
      async () => retry({ privateEnabled: true }, await retryHeaders(fresh, c.payloadToSign, c.requestId)),
      'SESSION_EXPIRED',
      'the signing session has expired',
    );
  });
});
