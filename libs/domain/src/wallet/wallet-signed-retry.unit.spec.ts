import { describe, it, expect } from '@jest/globals';
import { RateLimitedError, type WalletAuthCommand } from './wallet-auth.js';
import { parsePayloadToSign } from './signed-retry.js';
import {
  EMAIL_METHOD,
  ACCOUNT,
  at,
  CARD,
  cardSpec,
  challenge,
  consumeCard as consume,
  consumed,
  given,
  history,
  issueSession,
  proof,
  provision,
  requestId,
  scope,
  sessionId,
  sessionKey,
  type ChallengeSpec,
  withSession,
} from './wallet-auth.fixtures.js';
import { OTP_RATE_LIMIT, type WalletAuthEvent } from './wallet-auth-state.js';

const ready = (...more: WalletAuthCommand[]) =>
  withSession(issueSession(2, EMAIL_METHOD, at(11), 60), challenge(cardSpec()), ...more);

describe('issuing a signed-retry challenge', () => {
  it('stores the canonical payloadToSign binding operation, target, account, requestId, expiry and body', () => {
    const [event] = given(history(provision())).when(challenge(cardSpec())).thenEmits() as [
      Extract<WalletAuthEvent, { type: 'SignedRetryChallengeIssued' }>,
    ];
    expect(event.data).toMatchObject({
      ...scope,
      requestId: requestId(1),
      intent: 'EXTERNAL',
      operation: `PATCH /cards/${CARD}`,
      targetId: CARD,
      issuedAt: at(30),
      expiresAt: at(330),
    });
    expect(event.data.payloadToSign).toBe(
      `{"accountId":"${ACCOUNT}","body":{"state":"FROZEN"},"expiresAt":"${at(330)}","operation":"PATCH ` +
        `/cards/${CARD}","requestId":"${requestId(1)}","targetId":"${CARD}"}`,
    );
    expect(parsePayloadToSign(event.data.payloadToSign).body).toEqual({ state: 'FROZEN' });
  });

  it('refuses a reused requestId, an expiry that is not in the future and an unprovisioned wallet', () => {
    given(ready()).when(challenge(cardSpec())).thenFails({ kind: 'conflict', code: 'CONFLICT' });
    given(history(provision()))
      .when(challenge({ ...cardSpec(), ttlSeconds: 0 }))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    given([]).when(challenge(cardSpec())).thenFails({ kind: 'not_found', code: 'INTERNAL_ACCOUNT_NOT_FOUND' });
  });

  it('needs the credential type to add a credential and the account itself as target', () => {
    const add: ChallengeSpec = {
      n: 2,
      intent: 'ADD_AUTH_METHOD',
      method: 'POST',
      path: '/auth/credentials',
      targetId: ACCOUNT,
    };
    given(history(provision())).when(challenge(add)).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    given(history(provision()))
      .when(challenge({ ...add, targetId: CARD, authMethodType: 'PASSKEY' }))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    expect(
      given(history(provision()))
        .when(challenge({ ...add, authMethodType: 'PASSKEY' }))
        .thenEmits()[0],
    ).toMatchObject({ data: { authMethodType: 'PASSKEY' } });
  });
});

describe('consuming a signed retry', () => {
  it('consumes the requestId when an active session of the account signed it', () => {
    given(ready())
      .when(consume())
      .then([consumed(1, 1, at(40))]);
  });

  it('refuses a second use of the same requestId (401)', () => {
    given(ready(consume()))
      .when(consume(cardSpec(), 2, at(41)))
      .thenFails({ kind: 'unauthorized', code: 'UNAUTHORIZED', reason: 'requestId was already used' });
  });

  it.each<[string, WalletAuthCommand, string, string]>([
    [
      'no proof',
      { type: 'ConsumeSignedRetry', targetId: CARD, now: at(40) },
      'WALLET_SIGNATURE_MISSING',
      'this operation needs a signed retry: send Service-Wallet-Signature and Request-Id',
    ],
    [
      'an unknown requestId',
      consume(cardSpec(), 1, at(40), { requestId: requestId(77) }),
      'UNAUTHORIZED',
      'requestId is unknown or has expired',
    ],
    [
      'an expired challenge',
      consume(cardSpec(), 1, at(330)),
      'CHALLENGE_EXPIRED',
      'the signed-retry challenge has expired',
    ],
    [
      'another method',
      consume(cardSpec(), 1, at(40), { method: 'DELETE' }),
      'UNAUTHORIZED',
      'requestId was issued for another operation',
    ],
    [
      'another path',
      consume(cardSpec(), 1, at(40), { path: '/cards/Card:00000000-0000-4000-8000-000000000bad' }),
      'UNAUTHORIZED',
      'requestId was issued for another operation',
    ],
    [
      'another target',
      {
        ...(consume() as Extract<WalletAuthCommand, { type: 'ConsumeSignedRetry' }>),
        targetId: 'Card:00000000-0000-4000-8000-000000000bad',
      },
      'UNAUTHORIZED',
      'requestId was issued for another resource',
    ],
    [
      'a changed body',
      consume(cardSpec(), 1, at(40), { body: { state: 'CLOSED' } }),
      'WALLET_SIGNATURE_BODY_MISMATCH',
      'body field state differs from the signed payload',
    ],
    [
      'a key that is no session here',
      consume(cardSpec(), 1, at(40), { stampPublicKey: sessionKey(99) }),
      'WALLET_SIGNATURE_INVALID',
      'the signing key is not a session of this account',
    ],
    ['an expired session', consume(cardSpec(), 2, at(71)), 'SESSION_EXPIRED', 'the signing session has expired'],
  ])('refuses %s with 401 naming the check', (_name, cmd, code, reason) => {
    given(ready()).when(cmd).thenFails({ kind: 'unauthorized', code, reason });
  });

  it('refuses a challenge issued for another kind of command', () => {
    const sessionTarget: ChallengeSpec = {
      n: 5,
      intent: 'EXTERNAL',
      method: 'DELETE',
      path: `/auth/sessions/${sessionId(2)}`,
      targetId: sessionId(2),
    };
    given(ready(challenge(sessionTarget)))
      .when({ type: 'RevokeSession', sessionId: sessionId(2), signedRetry: proof(sessionTarget, 1), now: at(40) })
      .thenFails({ reason: 'requestId was issued for another operation' });
  });

  it(
    'refuses a spent or unknown requestId before looking at the target (401, not the 409 of a ' + 'revoked session)',
    () => {
      const path = `/auth/sessions/${sessionId(2)}`;
      const revoke: ChallengeSpec = { n: 6, intent: 'REVOKE_SESSION', method: 'DELETE', path, targetId: sessionId(2) };
      const revokeWith = (p: ReturnType<typeof proof>, now: string): WalletAuthCommand => ({
        type: 'RevokeSession',
        sessionId: sessionId(2),
        signedRetry: p,
        now,
      });
      const revoked = ready(challenge(revoke), revokeWith(proof(revoke, 1), at(40)));
      given(revoked)
        .when(revokeWith(proof(revoke, 1), at(41)))
        .thenFails({ kind: 'unauthorized', code: 'UNAUTHORIZED', reason: 'requestId was already used' });
      given(revoked)
        .when(revokeWith(proof(revoke, 1, { requestId: requestId(77) }), at(41)))
        .thenFails({ kind: 'unauthorized', reason: 'requestId is unknown or has expired' });
    },
  );

  it('compares stamp keys case-insensitively', () => {
    expect(
      given(ready())
        .when(consume(cardSpec(), 1, at(40), { stampPublicKey: sessionKey(1).toUpperCase() }))
        .thenEmits(),
    ).toHaveLength(1);
  });

  it(
    'says an expired challenge expired for a day, then forgets it once a newer one is issued; ' + 'refused either way',
    () => {
      const later = ready(challenge(cardSpec(9, at(400))));
      given(later)
        .when(consume(cardSpec(), 1, at(401)))
        .thenFails({
          kind: 'unauthorized',
          code: 'CHALLENGE_EXPIRED',
          reason: 'the signed-retry challenge has expired',
        });
      const dayLater = ready(challenge(cardSpec(9, at(330 + 86_400))));
      given(dayLater)
        .when(consume(cardSpec(), 1, at(330 + 86_401)))
        .thenFails({ kind: 'unauthorized', code: 'UNAUTHORIZED', reason: 'requestId is unknown or has expired' });
    },
  );
});

describe('an identical retry of a request consumed for a change in another stream', () => {
  const USED = 'requestId was already used';
  const freeze = { stream: 'card-00000000-0000-4000-8000-00000000c0de', change: { state: 'FROZEN' } };
  type Overrides = Parameters<typeof proof>[2];
  const consumeFor = (
    authorizes: typeof freeze | undefined,
    signer = 1,
    now = at(40),
    overrides: Overrides = {},
  ): WalletAuthCommand => ({
    ...(consume(cardSpec(), signer, now, overrides) as Extract<WalletAuthCommand, { type: 'ConsumeSignedRetry' }>),
    ...(authorizes ? { authorizes } : {}),
  });

  it('records what the consumption authorized', () => {
    const data = { ...scope, requestId: requestId(1), sessionId: sessionId(1), consumedAt: at(40), authorizes: freeze };
    given(ready())
      .when(consumeFor(freeze))
      .then([{ type: 'SignedRetryConsumed', data }]);
  });

  it('passes again, emitting nothing, so the caller can append a change a crash cut off', () => {
    given(ready(consumeFor(freeze)))
      .when(consumeFor(freeze, 1, at(45)))
      .then([]);
  });

  it.each<[string, WalletAuthCommand, string, string | RegExp]>([
    ['another change', consumeFor({ ...freeze, change: { state: 'CLOSED' } }, 1, at(45)), 'UNAUTHORIZED', USED],
    [
      'another target stream',
      consumeFor({ ...freeze, stream: 'customer-00000000-0000-4000-8000-00000000c0de' }, 1, at(45)),
      'UNAUTHORIZED',
      USED,
    ],
    ['no recorded change (a one-stream operation)', consumeFor(undefined, 1, at(45)), 'UNAUTHORIZED', USED],
    ['another session of the account', consumeFor(freeze, 2, at(45)), 'UNAUTHORIZED', USED],
    [
      'a changed body',
      consumeFor(freeze, 1, at(45), { body: { state: 'CLOSED' } }),
      'WALLET_SIGNATURE_BODY_MISMATCH',
      /differs/,
    ],
    [
      'an expired challenge',
      consumeFor(freeze, 1, at(330)),
      'CHALLENGE_EXPIRED',
      'the signed-retry challenge has expired',
    ],
  ])('refuses a retry with %s', (_name, cmd, code, reason) => {
    given(ready(consumeFor(freeze)))
      .when(cmd)
      .thenFails({ kind: 'unauthorized', code, reason });
  });

  it('is refused when the first use recorded no change', () => {
    given(ready(consume()))
      .when(consumeFor(freeze, 1, at(45)))
      .thenFails({ code: 'UNAUTHORIZED', reason: USED });
  });
});

describe('OTP challenge rate limit', () => {
  const otp = (seconds: number): WalletAuthCommand => ({
    type: 'RecordOtpChallenge',
    authMethodId: EMAIL_METHOD,
    now: at(seconds),
  });
  const retryAfter = (events: WalletAuthEvent[], seconds: number) => {
    try {
      given(events).when(otp(seconds)).thenEmits();
    } catch (e) {
      if (e instanceof RateLimitedError) return e.retryAfterSeconds;
      throw e;
    }
    return 0;
  };

  it('records when an OTP was sent, never the code', () => {
    given(history(provision()))
      .when(otp(0))
      .then([{ type: 'OtpChallengeIssued', data: { ...scope, authMethodId: EMAIL_METHOD, issuedAt: at(0) } }]);
  });

  it(`allows one per ${OTP_RATE_LIMIT.minIntervalSeconds} s and tells how long to wait`, () => {
    const once = history(provision(), otp(0));
    const error = given(once)
      .when(otp(10))
      .thenFails({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 20 } });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(retryAfter(once, 29.5)).toBe(1);
    expect(retryAfter(once, 30)).toBe(0);
  });

  it(`allows ${OTP_RATE_LIMIT.maxPerWindow} per ${OTP_RATE_LIMIT.windowSeconds} s`, () => {
    const five = history(provision(), otp(0), otp(30), otp(60), otp(90), otp(120));
    expect(retryAfter(five, 150)).toBe(450);
    expect(retryAfter(five, 599)).toBe(1);
    expect(retryAfter(five, 600)).toBe(0);
    const six = history(provision(), otp(0), otp(30), otp(60), otp(90), otp(120), otp(600));
    expect(retryAfter(six, 629)).toBe(1);
    expect(retryAfter(six, 630)).toBe(0);
  });

  it('applies only to active EMAIL_OTP credentials', () => {
    given(history(provision()))
      .when({ type: 'RecordOtpChallenge', authMethodId: 'AuthMethod:00000000-0000-4000-8000-0000000000ee', now: at(0) })
      .thenFails({ kind: 'not_found', code: 'AUTH_METHOD_NOT_FOUND' });
  });
});
