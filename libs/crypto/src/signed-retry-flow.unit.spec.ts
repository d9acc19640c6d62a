import { describe, it, expect } from '@jest/globals';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { walletAuthDecider, type WalletAuthCommand } from '#domain/wallet/wallet-auth.js';
import type { WalletAuthEvent } from '#domain/wallet/wallet-auth-state.js';
import { isWalletPublicId, walletPublicId, walletStream } from '#domain/wallet/wallet-ids.js';
import { issueSessionKey } from './session-keys.js';
import { verifyStamp } from './stamp.js';

/**
 * The whole signed-retry exchange with real keys, as the HTTP layer performs it: a session key
 * sealed to the client, a challenge whose payloadToSign the client stamps with Turnkey's
 * stamper, stamp verification over the stored payload, then the wallet's decision.
 */
const ACCOUNT = 'InternalAccount:00000000-0000-4000-8000-000000000001';
const CARD = 'Card:00000000-0000-4000-8000-000000000002';
const REQUEST = walletPublicId('Request', '00000000-0000-4000-8000-000000000003');
const at = (s: number) => new Date(Date.UTC(2025, 9, 13, 12) + s * 1000).toISOString();

function run(events: WalletAuthEvent[], cmd: WalletAuthCommand): WalletAuthEvent[] {
  const state = events.reduce(walletAuthDecider.evolve, walletAuthDecider.initialState());
  return [...events, ...walletAuthDecider.decide(cmd, state)];
}

describe('signed retry with real keys', () => {
  it('authorizes a retry stamped with the decrypted session key, once', async () => {
    const client = generateP256KeyPair();
    const issued = await issueSessionKey(client.publicKeyUncompressed);
    let events = run([], {
      type: 'ProvisionWallet',
      accountId: ACCOUNT,
      platformId: 'Platform:00000000-0000-4000-8000-000000000009',
      emailOtp: { authMethodId: 'AuthMethod:00000000-0000-4000-8000-000000000004', email: 'a@example.com' },
      now: at(0),
    });
    events = run(events, {
      type: 'IssueSession',
      sessionId: 'Session:00000000-0000-4000-8000-000000000005',
      authMethodId: 'AuthMethod:00000000-0000-4000-8000-000000000004',
      publicKey: issued.publicKey,
      expiresAt: at(900),
      proof: { type: 'EMAIL_OTP' },
      now: at(1),
    });
    events = run(events, {
      type: 'IssueSignedRetryChallenge',
      requestId: REQUEST,
      intent: 'EXTERNAL',
      method: 'PATCH',
      path: `/cards/${CARD}`,
      targetId: CARD,
      body: { state: 'FROZEN' },
      expiresAt: at(300),
      now: at(2),
    });
    const issuedChallenge = events.at(-1) as Extract<WalletAuthEvent, { type: 'SignedRetryChallengeIssued' }>;

    // Client side: open the bundle, stamp the payload byte for byte.
    const sessionPrivateKey = decryptCredentialBundle(issued.encryptedSessionSigningKey, client.privateKey);
    const stamper = new ApiKeyStamper({ apiPublicKey: issued.publicKey, apiPrivateKey: sessionPrivateKey });
    const { stampHeaderValue } = await stamper.stamp(issuedChallenge.data.payloadToSign);

    // Server side: verify over the stored payload, then let the wallet decide.
    const verified = verifyStamp(stampHeaderValue, issuedChallenge.data.payloadToSign);
    if (!verified.ok) throw new Error(verified.reason);
    const retryStampedBy = (stampPublicKey: string): WalletAuthCommand => ({
      type: 'ConsumeSignedRetry',
      targetId: CARD,
      signedRetry: {
        requestId: REQUEST,
        stampPublicKey,
        method: 'PATCH',
        path: `/cards/${CARD}`,
        body: { state: 'FROZEN' },
      },
      now: at(3),
    });
    const consumed = run(events, retryStampedBy(verified.publicKey));
    expect(consumed.at(-1)).toMatchObject({
      type: 'SignedRetryConsumed',
      data: { requestId: REQUEST, sessionId: 'Session:00000000-0000-4000-8000-000000000005' },
    });
    expect(() => run(consumed, retryStampedBy(verified.publicKey))).toThrow(
      expect.objectContaining({ code: 'UNAUTHORIZED' }) as never,
    );

    // A stranger's valid stamp verifies as a signature but is not a session of the account.
    const stranger = generateP256KeyPair();
    const strangerStamp = await new ApiKeyStamper({
      apiPublicKey: stranger.publicKey,
      apiPrivateKey: stranger.privateKey,
    }).stamp(issuedChallenge.data.payloadToSign);
    const strangerKey = verifyStamp(strangerStamp.stampHeaderValue, issuedChallenge.data.payloadToSign);
    if (!strangerKey.ok) throw new Error(strangerKey.reason);
    expect(() => run(events, retryStampedBy(strangerKey.publicKey))).toThrow(
      expect.objectContaining({ code: 'WALLET_SIGNATURE_INVALID' }) as never,
    );
  });

  it('names wallet resources and streams as the spec shows them', () => {
    expect(isWalletPublicId('Request', REQUEST)).toBe(true);
    expect(isWalletPublicId('Session', REQUEST)).toBe(false);
    expect(isWalletPublicId('AuthMethod', 'AuthMethod:not-a-uuid')).toBe(false);
    expect(walletStream(ACCOUNT)).toBe('wallet-00000000-0000-4000-8000-000000000001');
  });
});
