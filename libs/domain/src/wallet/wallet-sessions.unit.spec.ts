import { describe, expect, it } from '@jest/globals';
import type { WalletAuthCommand } from './wallet-auth.js';
import {
  ACCOUNT,
  addPasskey,
  at,
  challenge,
  type ChallengeSpec,
  CLIENT_KEY,
  consumed,
  EMAIL_METHOD,
  fold,
  given,
  GOOGLE,
  history,
  issueSession,
  OAUTH_METHOD,
  PASSKEY_METHOD,
  passkeySession,
  proof,
  provision,
  requestId,
  scope,
  sessionId,
  sessionKey,
  withSession,
} from './wallet-auth.fixtures.js';
import { IssueSession, refreshSpec, revokeSpec, session } from './wallet-sessions.fixtures.js';
import { listAuthSessions } from './wallet-views.js';
import type { WalletAuthEvent } from './wallet-auth-state.js';

/** A provisioned wallet with its EMAIL_OTP credential, and nothing else yet. */
const provisioned = history(provision());

describe('issuing sessions', () => {
  it('issues a session for a verified EMAIL_OTP credential with the normalized public key', () => {
    given(provisioned)
      .when(session({ publicKey: sessionKey(1).toUpperCase() }))
      .then([
        {
          type: 'SessionIssued',
          data: {
            ...scope,
            sessionId: sessionId(1),
            authMethodId: EMAIL_METHOD,
            publicKey: sessionKey(1),
            createdAt: at(10),
            expiresAt: at(910),
          },
        },
      ]);
  });

  it('refuses a proof of another credential type, an unknown credential, a past expiry or a non-compressed key', () => {
    given(provisioned)
      .when(session({ proof: { type: 'OAUTH', oauth: GOOGLE } }))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    given(provisioned)
      .when(session({ authMethodId: OAUTH_METHOD }))
      .thenFails({ kind: 'not_found', code: 'AUTH_METHOD_NOT_FOUND' });
    given(provisioned)
      .when(session({ expiresAt: at(10) }))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    given(provisioned)
      .when(session({ publicKey: CLIENT_KEY }))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    given(withSession()).when(session()).thenFails({ kind: 'conflict', code: 'CONFLICT' });
  });

  it('refuses a wallet that was never provisioned', () => {
    given([]).when(session()).thenFails({ kind: 'not_found', code: 'INTERNAL_ACCOUNT_NOT_FOUND' });
  });

  describe('OAUTH', () => {
    const withOauth = () =>
      history(
        provision(),
        issueSession(1),
        challenge({
          n: 1,
          intent: 'ADD_AUTH_METHOD',
          method: 'POST',
          path: '/auth/credentials',
          targetId: ACCOUNT,
          authMethodType: 'OAUTH',
        }),
        {
          type: 'AddAuthMethod',
          ...scope,
          authMethodId: OAUTH_METHOD,
          authMethod: { type: 'OAUTH', nickname: 'ann@gmail.com', oauth: GOOGLE },
          signedRetry: proof(
            { n: 1, intent: 'ADD_AUTH_METHOD', method: 'POST', path: '/auth/credentials', targetId: ACCOUNT },
            1,
          ),
          now: at(20),
        },
      );

    it('issues a session when iss, aud and sub equal the credential', () => {
      const events = given(withOauth())
        .when(
          session({
            sessionId: sessionId(2),
            publicKey: sessionKey(2),
            authMethodId: OAUTH_METHOD,
            proof: { type: 'OAUTH', oauth: GOOGLE },
          }),
        )
        .thenEmits();
      expect(events).toEqual([
        expect.objectContaining({
          type: 'SessionIssued',
          data: expect.objectContaining({ authMethodId: OAUTH_METHOD }),
        }),
      ]);
    });

    it.each(['iss', 'aud', 'sub'] as const)('refuses a token whose %s differs (401 naming the claim)', (claim) => {
      given(withOauth())
        .when(
          session({
            sessionId: sessionId(2),
            authMethodId: OAUTH_METHOD,
            proof: { type: 'OAUTH', oauth: { ...GOOGLE, [claim]: 'other' } },
          }),
        )
        .thenFails({
          kind: 'unauthorized',
          code: 'UNAUTHORIZED',
          reason: `OIDC token ${claim} does not match the credential`,
        });
    });
  });

  describe('PASSKEY', () => {
    const base = () => history(addPasskey());
    const passkey = (
      overrides: Partial<Extract<IssueSession['proof'], { type: 'PASSKEY' }>> = {},
      now = at(40),
      id = sessionId(1),
    ) =>
      session({
        sessionId: id,
        authMethodId: PASSKEY_METHOD,
        proof: { type: 'PASSKEY', requestId: requestId(901), credentialId: 'cred-1', newCounter: 1, ...overrides },
        now,
        expiresAt: at(2000),
      });

    it('consumes the passkey challenge, stores the new counter and issues the session in one decision', () => {
      const [challengeIssued] = passkeySession(1, at(30));
      given(history(addPasskey(), challengeIssued))
        .when(passkey())
        .then([
          {
            type: 'PasskeyChallengeConsumed',
            data: { ...scope, authMethodId: PASSKEY_METHOD, requestId: requestId(901), counter: 1, consumedAt: at(40) },
          },
          {
            type: 'SessionIssued',
            data: {
              ...scope,
              sessionId: sessionId(1),
              authMethodId: PASSKEY_METHOD,
              publicKey: sessionKey(1),
              createdAt: at(40),
              expiresAt: at(2000),
            },
          },
        ]);
    });

    it('refuses a reused challenge: the second verify of one requestId fails', () => {
      const used = history(addPasskey(), ...passkeySession(1, at(30)));
      given(used)
        .when(passkey({ newCounter: 5 }, at(41), sessionId(5)))
        .thenFails({ kind: 'unauthorized', code: 'UNAUTHORIZED', reason: 'the passkey challenge was already used' });
    });

    it(
      'refuses an expired challenge, one of another credential, another credentialId and a counter ' +
        'that did not grow',
      () => {
        const [issued] = passkeySession(1, at(30));
        const h = history(addPasskey(), issued);
        given(h)
          .when(passkey({}, at(330)))
          .thenFails({ kind: 'unauthorized', reason: 'the passkey challenge has expired' });
        given(h)
          .when(passkey({ requestId: requestId(999) }))
          .thenFails({ kind: 'unauthorized', reason: 'requestId is not a passkey challenge of this credential' });
        given(h)
          .when(passkey({ credentialId: 'cred-other' }))
          .thenFails({ kind: 'unauthorized', reason: 'the assertion is for another passkey' });
        const counted = history(addPasskey(), ...passkeySession(3, at(30)), passkeySession(4, at(31))[0]);
        given(counted)
          .when(passkey({ requestId: requestId(904), newCounter: 3 }, at(40), sessionId(5)))
          .thenFails({ kind: 'unauthorized', reason: 'the authenticator counter did not increase' });
      },
    );

    it('accepts authenticators whose counter stays 0', () => {
      const [issued] = passkeySession(1, at(30));
      expect(
        given(history(addPasskey(), issued))
          .when(passkey({ newCounter: 0 }))
          .thenEmits()
          .map((e) => e.type),
      ).toEqual(['PasskeyChallengeConsumed', 'SessionIssued']);
    });

    it('issues passkey challenges only for active PASSKEY credentials with an uncompressed client key', () => {
      const [issue] = passkeySession(1, at(30)) as [Extract<WalletAuthCommand, { type: 'IssuePasskeyChallenge' }>];
      given(base())
        .when(issue)
        .then([
          {
            type: 'PasskeyChallengeIssued',
            data: {
              ...scope,
              authMethodId: PASSKEY_METHOD,
              requestId: requestId(901),
              challenge: 'challenge-1',
              clientPublicKey: CLIENT_KEY,
              issuedAt: at(30),
              expiresAt: at(330),
            },
          },
        ]);
      given(provisioned)
        .when({ ...issue, authMethodId: EMAIL_METHOD })
        .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
      given(base())
        .when({ ...issue, clientPublicKey: sessionKey(1) })
        .thenFails({ kind: 'invalid', code: 'INVALID_INPUT', details: { errors: [{ field: 'clientPublicKey' }] } });
    });
  });
});

/** Session 1's signed retry of the challenge `spec`: it consumes the challenge, and `event` follows. */
const signedRetryApplies = (spec: ChallengeSpec, command: WalletAuthCommand, event: WalletAuthEvent) =>
  given(withSession(challenge(spec)))
    .when(command)
    .then([consumed(1, 1, at(40)), event]);

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
    signedRetryApplies(refreshSpec(1), refresh(), {
      type: 'SessionRefreshed',
      data: { ...scope, sessionId: sessionId(1), publicKey: sessionKey(50), refreshedAt: at(40), expiresAt: at(1840) },
    });
  });

  it('answers step 1 with the type of the issuing credential', () => {
    expect(
      given(withSession())
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
    const h = withSession(issueSession(2, EMAIL_METHOD, at(600)));
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
    const h = withSession(challenge(refreshSpec(1)));
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

  /** Sessions 1 and 2, and session 2 has revoked session 1. */
  const revokedByTwo = () => [
    provision(),
    issueSession(1),
    issueSession(2, EMAIL_METHOD, at(11)),
    challenge(revokeSpec(1)),
    revoke(1, 2),
  ];

  it('revokes an active session on a signed retry (a session may revoke itself)', () => {
    signedRetryApplies(revokeSpec(1), revoke(), {
      type: 'SessionRevoked',
      data: { ...scope, sessionId: sessionId(1), revokedAt: at(40), cause: 'REQUESTED' },
    });
  });

  it('refuses to revoke a session twice (409) and answers 404 for an unknown one', () => {
    const h = history(...revokedByTwo(), challenge({ ...revokeSpec(2, sessionId(2)), now: at(41) }));
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
    const h = history(...revokedByTwo());
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
