import { describe, expect, it } from '@jest/globals';
import { RateLimitedError, type WalletAuthCommand } from './wallet-auth.js';
import {
  EMAIL_METHOD,
  PASSKEY_METHOD,
  addPasskey,
  at,
  given,
  history,
  issueSession,
  provision,
  scope,
} from './wallet-auth.fixtures.js';
import { OTP_VERIFY_LIMIT, type WalletAuthEvent } from './wallet-auth-state.js';

const wrong = (seconds: number): WalletAuthCommand => ({
  type: 'RecordOtpFailure',
  authMethodId: EMAIL_METHOD,
  now: at(seconds),
});
const fiveWrong = (from = 100) => [0, 1, 2, 3, 4].map((i) => wrong(from + i * 10));

/** Retry-After in seconds of a refused session issue, or 0 when the session is issued. */
function lockedFor(events: WalletAuthEvent[], seconds: number): number {
  try {
    given(events)
      .when(issueSession(9, EMAIL_METHOD, at(seconds)))
      .thenEmits();
    return 0;
  } catch (e) {
    if (e instanceof RateLimitedError) return e.retryAfterSeconds;
    throw e;
  }
}

describe('EMAIL_OTP wrong-code lockout', () => {
  it('records a wrong code against the credential, never the code', () => {
    given(history(provision()))
      .when(wrong(5))
      .then([{ type: 'OtpVerificationFailed', data: { ...scope, authMethodId: EMAIL_METHOD, failedAt: at(5) } }]);
  });

  it(
    `locks verification after ${OTP_VERIFY_LIMIT.maxFailures} wrong codes, even for the right ` +
      `code, until the window passes`,
    () => {
      const four = history(provision(), ...fiveWrong().slice(0, 4));
      expect(lockedFor(four, 150)).toBe(0);
      const five = history(provision(), ...fiveWrong());
      // The oldest counted failure (at 100 s) leaves the window at 100 + 900 s.
      expect(lockedFor(five, 150)).toBe(850);
      expect(lockedFor(five, 999)).toBe(1);
      expect(lockedFor(five, 1000)).toBe(0);
      const error = given(five)
        .when(wrong(160))
        .thenFails({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 840 } });
      expect(error).toBeInstanceOf(RateLimitedError);
    },
  );

  it('starts the count afresh after a successful verification', () => {
    const afterSession = history(
      provision(),
      ...fiveWrong().slice(0, 4),
      issueSession(1, EMAIL_METHOD, at(200)),
      wrong(210),
    );
    expect(lockedFor(afterSession, 220)).toBe(0);
  });

  it('counts per credential and only for EMAIL_OTP credentials', () => {
    const events = history(addPasskey(undefined));
    given(events)
      .when({ type: 'RecordOtpFailure', authMethodId: PASSKEY_METHOD, now: at(30) })
      .thenFails({ code: 'INVALID_INPUT' });
    given(history(provision()))
      .when({ type: 'RecordOtpFailure', authMethodId: 'AuthMethod:00000000-0000-4000-8000-0000000000ee', now: at(0) })
      .thenFails({ code: 'AUTH_METHOD_NOT_FOUND' });
  });
});
