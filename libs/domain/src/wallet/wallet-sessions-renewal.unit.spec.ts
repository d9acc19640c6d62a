import { describe, it, expect } from '@jest/globals';
import { listAuthSessions } from './wallet-views.js';
import type { WalletAuthCommand } from './wallet-auth.js';
import {
  ACCOUNT,
  EMAIL_METHOD,
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
  sessionKey,
} from './wallet-auth.fixtures.js';
import { refreshSpec, revokeSpec } from './wallet-sessions.fixtures.js';

describe('refreshing sessions', () => {
  const refresh = (signer = 1, now = at(40), spec = refreshSpec(1)): WalletAuthCommand => ({
    type: 'RefreshSession',
    sessionId: sessionId(1),
    publicKey: sessionKey(50),
    expiresAt: at(1840),
    signedRetry: proof(spec, signer),
    now,
  });

  it('replaces the key and expiry of an active session on a signed retry', () => {
    given(history(provision(), issueSession(1), challenge(refreshSpec(1))))
      .when(refresh())
      .then([
        consumed(1, 1, at(40)),
        {
          type: 'SessionRefreshed',
          data: {
            ...scope,
            sessionId: sessionId(1),
            publicKey: sessionKey(50),
            refreshedAt: at(40),
            expiresAt: at(1840),
          },
        },
      ]);
  });

  it('answers step 1 with the type of the issuing credential', () => {
    expect(
      given(history(provision(), issueSession(1)))
        .when(challenge(refreshSpec(1)))
        .thenEmits()[0],
    ).toMatchObject({ data: { authMethodType: 'EMAIL_OTP' } });
  });

  it('lets only the new key sign afterwards', () => {
    const refreshed = history(
      provision(),
      issueSession(1),
      challenge(refreshSpec(1)),
      refresh(),
      challenge(revokeSpec(2, sessionId(1), at(41))),
    );
    const revoke = (signer: string): WalletAuthCommand => ({
      type: 'RevokeSession',
      sessionId: sessionId(1),
      signedRetry: { ...proof(revokeSpec(2), 1), stampPublicKey: signer },
      now: at(42),
    });
    given(refreshed)
      .when(revoke(sessionKey(1)))
      .thenFails({ code: 'WALLET_SIGNATURE_INVALID', reason: 'the signing key is not a session of this account' });
    expect(
      given(refreshed)
        .when(revoke(sessionKey(50)))
        .thenEmits()
        .map((e) => e.type),
    ).toEqual(['SignedRetryConsumed', 'SessionRevoked']);
  });

  it('refuses an expired session in both steps (re-authenticate instead)', () => {
    const h = history(provision(), issueSession(1), issueSession(2, EMAIL_METHOD, at(600)));
    given(h)
      .when(challenge(refreshSpec(1, sessionId(1), at(910))))
      .thenFails({ kind: 'unauthorized', reason: 'the session has expired; verify the credential again' });
    const issuedInTime = history(
      provision(),
      issueSession(1),
      issueSession(2, EMAIL_METHOD, at(600)),
      challenge(refreshSpec(1, sessionId(1), at(900))),
    );
    given(issuedInTime)
      .when(refresh(2, at(911), refreshSpec(1, sessionId(1), at(900))))
      .thenFails({ kind: 'unauthorized', reason: 'the session has expired; verify the credential again' });
  });

  it('refuses a retry whose clientPublicKey differs from the one bound at step 1', () => {
    const h = history(provision(), issueSession(1), challenge(refreshSpec(1)));
    given(h)
      .when({
        ...(refresh() as Extract<WalletAuthCommand, { type: 'RefreshSession' }>),
        signedRetry: proof(refreshSpec(1), 1, { body: { clientPublicKey: `04${'cd'.repeat(64)}` } }),
      })
      .thenFails({
        code: 'WALLET_SIGNATURE_BODY_MISMATCH',
        reason: 'body field clientPublicKey differs from the signed payload',
      });
  });
});

describe('revoking sessions', () => {
  const revoke = (n = 1, signer = 1, now = at(40)): WalletAuthCommand => ({
    type: 'RevokeSession',
    sessionId: sessionId(1),
    signedRetry: proof(revokeSpec(n), signer),
    now,
  });

  it('revokes an active session on a signed retry (a session may revoke itself)', () => {
    given(history(provision(), issueSession(1), challenge(revokeSpec(1))))
      .when(revoke())
      .then([
        consumed(1, 1, at(40)),
        { type: 'SessionRevoked', data: { ...scope, sessionId: sessionId(1), revokedAt: at(40), cause: 'REQUESTED' } },
      ]);
  });

  it('refuses to revoke a session twice (409) and answers 404 for an unknown one', () => {
    const h = history(
      provision(),
      issueSession(1),
      issueSession(2, EMAIL_METHOD, at(11)),
      challenge(revokeSpec(1)),
      revoke(1, 2),
      challenge({ ...revokeSpec(2, sessionId(2)), now: at(41) }),
    );
    given(h)
      .when(challenge({ ...revokeSpec(3), now: at(42) }))
      .thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
    given(h)
      .when({
        type: 'RevokeSession',
        sessionId: sessionId(7),
        signedRetry: proof(revokeSpec(2, sessionId(7)), 2),
        now: at(42),
      })
      .thenFails({ kind: 'not_found', code: 'SESSION_NOT_FOUND' });
  });

  it('lists only active sessions, with the fields of their credential', () => {
    const h = history(
      provision(),
      issueSession(1),
      issueSession(2, EMAIL_METHOD, at(11)),
      challenge(revokeSpec(1)),
      revoke(1, 2),
    );
    expect(listAuthSessions(fold(h), at(50))).toEqual([
      {
        id: sessionId(2),
        accountId: ACCOUNT,
        type: 'EMAIL_OTP',
        nickname: 'ann@example.com',
        createdAt: at(11),
        updatedAt: at(11),
        expiresAt: at(911),
      },
    ]);
    expect(listAuthSessions(fold(h), at(911))).toEqual([]);
  });
});
