import { describe, it, expect } from '@jest/globals';
import type { WalletAuthCommand } from './wallet-auth.js';
import {
  ACCOUNT,
  at,
  challenge,
  consumed,
  fold,
  given,
  history,
  issueSession,
  proof,
  provision,
  scope,
  sessionId,
  type ChallengeSpec,
  withSession,
} from './wallet-auth.fixtures.js';

const privacy = (n: number, privateEnabled: boolean, now = at(30)): ChallengeSpec => ({
  n,
  intent: 'EXTERNAL',
  method: 'PATCH',
  path: `/internal-accounts/${ACCOUNT}`,
  targetId: ACCOUNT,
  body: { privateEnabled },
  now,
});
const exporting = (n: number): ChallengeSpec => ({
  n,
  intent: 'EXTERNAL',
  method: 'POST',
  path: `/internal-accounts/${ACCOUNT}/export`,
  targetId: ACCOUNT,
  body: { clientPublicKey: '04ab' },
});
const setPrivate = (spec: ChallengeSpec, privateEnabled: boolean, now = at(40)): WalletAuthCommand => ({
  type: 'SetPrivateEnabled',
  privateEnabled,
  signedRetry: proof(spec, 1),
  now,
});
const withSeed: WalletAuthCommand = {
  ...(provision() as Extract<WalletAuthCommand, { type: 'ProvisionWallet' }>),
  encryptedSeed: 'v1.iv.ciphertext',
};

describe('embedded wallet account settings', () => {
  it('keeps the sealed seed given at provisioning', () => {
    const [event] = given([]).when(withSeed).thenEmits();
    expect(event).toMatchObject({ type: 'WalletProvisioned', data: { ...scope, encryptedSeed: 'v1.iv.ciphertext' } });
    expect(fold(history(withSeed)).encryptedSeed).toBe('v1.iv.ciphertext');
  });

  it('changes privateEnabled in the append that consumes the signed retry', () => {
    given(withSession(challenge(privacy(1, true))))
      .when(setPrivate(privacy(1, true), true))
      .then([
        consumed(1, 1, at(40)),
        { type: 'WalletPrivacyChanged', data: { ...scope, privateEnabled: true, updatedAt: at(40) } },
      ]);
    expect(fold(withSession(challenge(privacy(1, true)), setPrivate(privacy(1, true), true))).privateEnabled).toBe(
      true,
    );
  });

  it('consumes the retry without a change event when the value is already set', () => {
    const events = given(withSession(challenge(privacy(1, false))))
      .when(setPrivate(privacy(1, false), false))
      .thenEmits();
    expect(events.map((e) => e.type)).toEqual(['SignedRetryConsumed']);
  });

  it('refuses an unsigned change, a changed body and a challenge of another operation', () => {
    const ready = withSession(challenge(privacy(1, true)), challenge(exporting(2)));
    given(ready)
      .when({ type: 'SetPrivateEnabled', privateEnabled: true, now: at(40) })
      .thenFails({ code: 'WALLET_SIGNATURE_MISSING' });
    given(ready)
      .when({
        type: 'SetPrivateEnabled',
        privateEnabled: false,
        signedRetry: proof(privacy(1, true), 1, { body: { privateEnabled: false } }),
        now: at(40),
      })
      .thenFails({ code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
    given(ready)
      .when({
        type: 'SetPrivateEnabled',
        privateEnabled: true,
        signedRetry: proof(exporting(2), 1, { method: 'PATCH', path: `/internal-accounts/${ACCOUNT}` }),
        now: at(40),
      })
      .thenFails({ reason: 'requestId was issued for another operation' });
  });

  it('records an export with the signing session, only for a wallet with a seed', () => {
    const cmd: WalletAuthCommand = {
      type: 'ExportWallet',
      exportId: 'Export:00000000-0000-4000-8000-0000000000e1',
      signedRetry: proof(exporting(2), 1),
      now: at(40),
    };
    given(history(withSeed, issueSession(1), challenge(exporting(2))))
      .when(cmd)
      .then([
        consumed(2, 1, at(40)),
        {
          type: 'WalletExported',
          data: {
            ...scope,
            exportId: 'Export:00000000-0000-4000-8000-0000000000e1',
            sessionId: sessionId(1),
            exportedAt: at(40),
          },
        },
      ]);
    given(withSession(challenge(exporting(2))))
      .when(cmd)
      .thenFails({ kind: 'conflict', code: 'WALLET_SEED_MISSING' });
  });
});
