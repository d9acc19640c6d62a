import { describe, it, expect } from '@jest/globals';
import type { WalletAuthCommand } from './wallet-auth.js';
import {
  ACCOUNT,
  CLIENT_KEY,
  EMAIL_METHOD,
  GOOGLE,
  OAUTH_METHOD,
  PASSKEY_METHOD,
  addPasskey,
  at,
  challenge,
  given,
  history,
  issueSession,
  passkeySession,
  proof,
  provision,
  requestId,
  scope,
  sessionId,
  sessionKey,
} from './wallet-auth.fixtures.js';
import { IssueSession, session } from './wallet-sessions.fixtures.js';

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
    given(history(provision(), issueSession(1)))
      .when(session())
      .thenFails({ kind: 'conflict', code: 'CONFLICT' });
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
