import { describe, it, expect } from '@jest/globals';
import { listAuthMethods } from './wallet-views.js';
import {
  ACCOUNT,
  EMAIL_METHOD,
  GOOGLE,
  OAUTH_METHOD,
  PASSKEY_METHOD,
  addPasskey,
  at,
  challenge,
  consumed,
  fold,
  given,
  history,
  issueSession,
  passkeySession,
  proof,
  provision,
  scope,
  sessionId,
  type ChallengeSpec,
  withSession,
} from './wallet-auth.fixtures.js';
import type { WalletAuthCommand } from './wallet-auth.js';
import type { WalletAuthEvent } from './wallet-auth-state.js';

const addSpec = (
  n: number,
  body: Record<string, unknown> = { type: 'PASSKEY', accountId: ACCOUNT, nickname: 'Laptop' },
): ChallengeSpec => ({
  n,
  intent: 'ADD_AUTH_METHOD',
  method: 'POST',
  path: '/auth/credentials',
  targetId: ACCOUNT,
  body,
  authMethodType: 'PASSKEY',
});
const revokeSpec = (n: number, target: string): ChallengeSpec => ({
  n,
  intent: 'REVOKE_AUTH_METHOD',
  method: 'DELETE',
  path: `/auth/credentials/${target}`,
  targetId: target,
});

const addOauth = (
  signedRetry = proof(addSpec(2), 1),
  oauth = GOOGLE,
  authMethodId = OAUTH_METHOD,
): WalletAuthCommand => ({
  type: 'AddAuthMethod',
  ...scope,
  authMethodId,
  authMethod: { type: 'OAUTH', nickname: 'ann@gmail.com', oauth },
  signedRetry,
  now: at(40),
});

describe('provisioning', () => {
  it('opens the wallet with an EMAIL_OTP credential whose nickname is the email', () => {
    given([])
      .when(provision())
      .then([
        { type: 'WalletProvisioned', data: { ...scope, provisionedAt: at(0) } },
        {
          type: 'AuthMethodAdded',
          data: {
            ...scope,
            authMethodId: EMAIL_METHOD,
            authMethodType: 'EMAIL_OTP',
            nickname: 'ann@example.com',
            createdAt: at(0),
          },
        },
      ]);
  });

  it('can open a wallet without a credential, and only once', () => {
    given([])
      .when({ type: 'ProvisionWallet', ...scope, now: at(0) })
      .then([{ type: 'WalletProvisioned', data: { ...scope, provisionedAt: at(0) } }]);
    given(history(provision())).when(provision()).thenFails({ kind: 'conflict', code: 'WALLET_ALREADY_PROVISIONED' });
  });
});

describe('adding credentials', () => {
  const passkeyAdded: WalletAuthEvent = {
    type: 'AuthMethodAdded',
    data: {
      ...scope,
      authMethodId: PASSKEY_METHOD,
      authMethodType: 'PASSKEY',
      nickname: 'Laptop',
      createdAt: at(20),
      passkey: { credentialId: 'cred-1', publicKey: 'pQECAyYgASFYIA', counter: 0 },
    },
  };

  it('adds the first credential without a signature, provisioning the wallet if needed', () => {
    given([])
      .when(addPasskey())
      .then([{ type: 'WalletProvisioned', data: { ...scope, provisionedAt: at(20) } }, passkeyAdded]);
  });

  it('requires a signed retry once the account has a credential', () => {
    given(withSession())
      .when(addPasskey())
      .thenFails({ kind: 'unauthorized', code: 'WALLET_SIGNATURE_MISSING', reason: /signed retry/ });
  });

  it('adds a credential on a signed retry from a session of an existing credential, consuming the requestId', () => {
    given(withSession(challenge(addSpec(1))))
      .when(addPasskey(proof(addSpec(1), 1)))
      .then([consumed(1, 1, at(20)), passkeyAdded]);
  });

  it('allows at most one EMAIL_OTP, and another only after the first was removed', () => {
    const spec = addSpec(2, { type: 'EMAIL_OTP', accountId: ACCOUNT });
    const addEmail = (authMethodId: string, signer: number, s = spec): WalletAuthCommand => ({
      type: 'AddAuthMethod',
      ...scope,
      authMethodId,
      authMethod: { type: 'EMAIL_OTP', email: 'new@example.com' },
      signedRetry: proof(s, signer),
      now: at(50),
    });
    given(history(...[provision(), issueSession(1), challenge(spec)]))
      .when(addEmail('AuthMethod:00000000-0000-4000-8000-0000000000aa', 1))
      .thenFails({ kind: 'invalid', code: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS' });

    // Revoke the EMAIL_OTP with a passkey session, then add a new one.
    const removed = history(...emailRevokedCommands(3), challenge({ ...spec, n: 4 }));
    const events = given(removed)
      .when(addEmail('AuthMethod:00000000-0000-4000-8000-0000000000aa', 2, { ...spec, n: 4 }))
      .thenEmits();
    expect(events.map((e) => e.type)).toEqual(['SignedRetryConsumed', 'AuthMethodAdded']);
  });

  it(
    'refuses a PASSKEY credentialId that is already registered (400 ' +
      'PASSKEY_CREDENTIAL_ALREADY_EXISTS), at step 1 and step 2',
    () => {
      const state = history(...withPasskeyCommands(), challenge(addSpec(2)));
      given(state)
        .when(addPasskey(proof(addSpec(2), 1), 'cred-1', at(40), 'AuthMethod:00000000-0000-4000-8000-0000000000bb'))
        .thenFails({ kind: 'invalid', code: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS' });
      const step1 = {
        ...(challenge(addSpec(3)) as Extract<WalletAuthCommand, { type: 'IssueSignedRetryChallenge' }>),
        authMethod: {
          type: 'PASSKEY' as const,
          nickname: 'x',
          passkey: { credentialId: 'cred-1', publicKey: 'k', counter: 0 },
        },
      };
      given(history(...withPasskeyCommands()))
        .when(step1)
        .thenFails({ kind: 'invalid', code: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS' });
      const other = given(state)
        .when(addPasskey(proof(addSpec(2), 1), 'cred-2', at(40), 'AuthMethod:00000000-0000-4000-8000-0000000000bb'))
        .thenEmits();
      expect(other.at(-1)).toMatchObject({ type: 'AuthMethodAdded', data: { passkey: { credentialId: 'cred-2' } } });
    },
  );

  it('adds OAUTH once per provider identity (iss + sub)', () => {
    const once = withSession(challenge(addSpec(2)), addOauth(), challenge(addSpec(3)));
    given(once)
      .when(addOauth(proof(addSpec(3), 1), GOOGLE, 'AuthMethod:00000000-0000-4000-8000-0000000000cc'))
      .thenFails({ kind: 'invalid', code: 'OAUTH_CREDENTIAL_ALREADY_EXISTS' });
    const otherUser = given(once)
      .when(
        addOauth(proof(addSpec(3), 1), { ...GOOGLE, sub: 'g-456' }, 'AuthMethod:00000000-0000-4000-8000-0000000000cc'),
      )
      .thenEmits();
    expect(otherUser.at(-1)).toMatchObject({ type: 'AuthMethodAdded', data: { oauth: { ...GOOGLE, sub: 'g-456' } } });
  });

  it('refuses an id that is already used', () => {
    given(history(provision()))
      .when({ ...(addPasskey() as Extract<WalletAuthCommand, { type: 'AddAuthMethod' }>), authMethodId: EMAIL_METHOD })
      .thenFails({ kind: 'conflict', code: 'CONFLICT' });
  });
});

function revoke(
  authMethodId: string,
  signedRetry = proof(revokeSpec(9, authMethodId), 1),
  now = at(60),
): WalletAuthCommand {
  return { type: 'RevokeAuthMethod', authMethodId, signedRetry, now };
}
function withPasskeyCommands(): WalletAuthCommand[] {
  return [provision(), issueSession(1), challenge(addSpec(1)), addPasskey(proof(addSpec(1), 1), 'cred-1', at(35))];
}
/** A passkey added and signed in with (session 2), which revokes the EMAIL_OTP credential with signed retry `n`. */
function emailRevokedCommands(n: number): WalletAuthCommand[] {
  return [
    ...withPasskeyCommands(),
    ...passkeySession(2, at(36)),
    challenge(revokeSpec(n, EMAIL_METHOD)),
    revoke(EMAIL_METHOD, proof(revokeSpec(n, EMAIL_METHOD), 2)),
  ];
}

describe('revoking credentials', () => {
  const state = () =>
    history(...withPasskeyCommands(), ...passkeySession(2, at(36)), challenge(revokeSpec(9, EMAIL_METHOD)));

  it('step 1 answers with the type of the credential being revoked', () => {
    const [event] = given(history(...withPasskeyCommands()))
      .when(challenge(revokeSpec(9, EMAIL_METHOD)))
      .thenEmits();
    expect(event).toMatchObject({
      type: 'SignedRetryChallengeIssued',
      data: { authMethodType: 'EMAIL_OTP', intent: 'REVOKE_AUTH_METHOD', targetId: EMAIL_METHOD },
    });
  });

  it('revokes a credential on a stamp by a session of a different credential and ends its sessions', () => {
    given(state())
      .when(revoke(EMAIL_METHOD, proof(revokeSpec(9, EMAIL_METHOD), 2)))
      .then([
        consumed(9, 2, at(60)),
        { type: 'AuthMethodRevoked', data: { ...scope, authMethodId: EMAIL_METHOD, revokedAt: at(60) } },
        {
          type: 'SessionRevoked',
          data: { ...scope, sessionId: sessionId(1), revokedAt: at(60), cause: 'CREDENTIAL_REVOKED' },
        },
      ]);
  });

  it('refuses a stamp by a session of the credential being revoked (401 naming the check)', () => {
    given(state())
      .when(revoke(EMAIL_METHOD, proof(revokeSpec(9, EMAIL_METHOD), 1)))
      .thenFails({
        kind: 'unauthorized',
        code: 'UNAUTHORIZED',
        reason: 'the stamp must come from a session of a different credential',
      });
  });

  it('refuses to revoke the only credential (400), at step 1 and on the retry', () => {
    given(withSession())
      .when(challenge(revokeSpec(9, EMAIL_METHOD)))
      .thenFails({ kind: 'invalid', code: 'LAST_CREDENTIAL' });
    // Step 1 for the passkey was taken while the EMAIL_OTP still existed; the EMAIL_OTP went first.
    const lastLeft = history(
      ...withPasskeyCommands(),
      ...passkeySession(2, at(36)),
      challenge(revokeSpec(10, PASSKEY_METHOD)),
      challenge(revokeSpec(9, EMAIL_METHOD)),
      revoke(EMAIL_METHOD, proof(revokeSpec(9, EMAIL_METHOD), 2)),
    );
    given(lastLeft)
      .when(revoke(PASSKEY_METHOD, proof(revokeSpec(10, PASSKEY_METHOD), 2), at(62)))
      .thenFails({ kind: 'invalid', code: 'LAST_CREDENTIAL' });
  });

  it('answers 404 for an unknown or already revoked credential', () => {
    given(state())
      .when(revoke('AuthMethod:00000000-0000-4000-8000-0000000000ff'))
      .thenFails({ kind: 'not_found', code: 'AUTH_METHOD_NOT_FOUND' });
    const revoked = history(...emailRevokedCommands(9));
    given(revoked)
      .when(challenge({ ...revokeSpec(11, EMAIL_METHOD), now: at(61) }))
      .thenFails({ kind: 'not_found', code: 'AUTH_METHOD_NOT_FOUND' });
    expect(listAuthMethods(fold(revoked)).map((m) => m.id)).toEqual([PASSKEY_METHOD]);
  });

  it('leaves sessions of the revoked credential unable to sign', () => {
    const revoked = history(...emailRevokedCommands(9), challenge({ ...addSpec(12), now: at(61) }));
    given(revoked)
      .when(addPasskey(proof(addSpec(12), 1), 'cred-9', at(62), 'AuthMethod:00000000-0000-4000-8000-0000000000dd'))
      .thenFails({ code: 'WALLET_SIGNATURE_INVALID', reason: 'the signing session was revoked' });
  });
});

describe('email sync and secrets', () => {
  it('renames the EMAIL_OTP credential when the customer email changes, and does nothing otherwise', () => {
    given(history(provision()))
      .when({ type: 'UpdateEmailOtpAddress', email: 'ann@new.example', now: at(5) })
      .then([
        {
          type: 'AuthMethodUpdated',
          data: { ...scope, authMethodId: EMAIL_METHOD, nickname: 'ann@new.example', updatedAt: at(5) },
        },
      ]);
    given(history(provision()))
      .when({ type: 'UpdateEmailOtpAddress', email: 'ann@example.com', now: at(5) })
      .then([]);
    given(history(addPasskey()))
      .when({ type: 'UpdateEmailOtpAddress', email: 'x@example.com', now: at(5) })
      .then([]);
  });

  it('stores no OTP, private key or secret in any event', () => {
    const events = history(
      ...withPasskeyCommands(),
      { type: 'RecordOtpChallenge', authMethodId: EMAIL_METHOD, now: at(40) },
      ...passkeySession(2, at(41)),
    );
    const keys = JSON.stringify(events).match(/"[A-Za-z]+":/g) ?? [];
    expect(keys.filter((k) => /otp"|code|private|secret|password/i.test(k))).toEqual([]);
  });
});
