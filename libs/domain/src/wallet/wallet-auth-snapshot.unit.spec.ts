import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { expectSnapshotFoldsAlike } from '../testing/snapshot-property.js';
import { walletAuthDecider, type WalletAuthCommand } from './wallet-auth.js';
import type { AuthMethodType, WalletAuthEvent } from './wallet-auth-state.js';
import { walletAuthSnapshot } from './wallet-auth-snapshot.js';

const T0 = Date.UTC(2025, 9, 13, 12);
const scope = { accountId: 'InternalAccount:w', platformId: 'Platform:p' };
const TYPES: AuthMethodType[] = ['EMAIL_OTP', 'PASSKEY', 'OAUTH'];

/** One generated event: its kind, the records it names (indices into small pools) and how far the clock moves. */
const step = fc.record({
  kind: fc.integer({ min: 0, max: 13 }),
  a: fc.nat(6),
  b: fc.nat(6),
  seconds: fc.constantFrom(0, 1, 30, 600, 3_600, 90_000),
  flag: fc.boolean(),
});
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/**
 * A wallet's history written event by event (records named from small pools, so events hit, miss and repeat them)
 * while its clock moves from minutes to days, so that evolve's pruning of old sessions and challenges takes part.
 */
function history(steps: Step[], customerId: boolean): { events: WalletAuthEvent[]; probes: WalletAuthCommand[] } {
  let now = T0;
  const iso = (offset = 0) => new Date(now + offset * 1000).toISOString();
  const method = (n: number) => `AuthMethod:${n}`;
  const session = (n: number) => `Session:${n}`;
  const request = (n: number) => `Request:${n}`;
  const events: WalletAuthEvent[] = [
    {
      type: 'WalletProvisioned',
      data: { ...scope, ...(customerId ? { customerId: 'Customer:c' } : {}), provisionedAt: iso() },
    },
  ];
  for (const s of steps) {
    now += s.seconds * 1000;
    const t = iso();
    const e = ((): WalletAuthEvent => {
      switch (s.kind) {
        case 0: {
          const authMethodType = TYPES[s.b % 3];
          const extra =
            authMethodType === 'PASSKEY'
              ? { passkey: { credentialId: `cred-${s.a}`, publicKey: 'pk', counter: 0, transports: ['usb'] } }
              : authMethodType === 'OAUTH'
                ? { oauth: { iss: 'https://issuer', sub: `sub-${s.a}`, aud: 'app' } }
                : {};
          const base = { ...scope, authMethodId: method(s.a), authMethodType, nickname: `n${s.b}`, createdAt: t };
          return { type: 'AuthMethodAdded', data: { ...base, ...extra } };
        }
        case 1:
          return {
            type: 'AuthMethodUpdated',
            data: { ...scope, authMethodId: method(s.a), nickname: 'x', updatedAt: t },
          };
        case 2:
          return { type: 'AuthMethodRevoked', data: { ...scope, authMethodId: method(s.a), revokedAt: t } };
        case 3: {
          const data = { ...scope, requestId: request(s.a), intent: 'EXTERNAL' as const, operation: 'PATCH /x' };
          const rest = { targetId: 'x', payloadToSign: `{"r":${s.a}}`, issuedAt: t, expiresAt: iso(300) };
          return { type: 'SignedRetryChallengeIssued', data: { ...data, ...rest, authMethodType: TYPES[s.b % 3] } };
        }
        case 4: {
          const authorizes = s.flag ? { authorizes: { stream: 'card-1', change: { state: 'FROZEN' } } } : {};
          const base = { ...scope, requestId: request(s.a), sessionId: session(s.b), consumedAt: t };
          return { type: 'SignedRetryConsumed', data: { ...base, ...authorizes } };
        }
        case 5: {
          const base = { ...scope, sessionId: session(s.a), authMethodId: method(s.b), publicKey: `02${s.a}` };
          return { type: 'SessionIssued', data: { ...base, createdAt: t, expiresAt: iso(900) } };
        }
        case 6: {
          const base = { ...scope, sessionId: session(s.a), publicKey: `03${s.b}` };
          return { type: 'SessionRefreshed', data: { ...base, refreshedAt: t, expiresAt: iso(900) } };
        }
        case 7: {
          const cause = s.flag ? ('REQUESTED' as const) : ('CREDENTIAL_REVOKED' as const);
          return { type: 'SessionRevoked', data: { ...scope, sessionId: session(s.a), revokedAt: t, cause } };
        }
        case 8:
          return { type: 'OtpChallengeIssued', data: { ...scope, authMethodId: method(s.a), issuedAt: t } };
        case 9:
          return { type: 'OtpVerificationFailed', data: { ...scope, authMethodId: method(s.a), failedAt: t } };
        case 10: {
          const base = { ...scope, authMethodId: method(s.a), requestId: request(10 + s.b), challenge: `c${s.b}` };
          return {
            type: 'PasskeyChallengeIssued',
            data: { ...base, clientPublicKey: '04', issuedAt: t, expiresAt: iso(300) },
          };
        }
        case 11: {
          const base = { ...scope, authMethodId: method(s.a), requestId: request(10 + s.b) };
          return { type: 'PasskeyChallengeConsumed', data: { ...base, counter: s.b + 1, consumedAt: t } };
        }
        case 12:
          return { type: 'WalletPrivacyChanged', data: { ...scope, privateEnabled: s.flag, updatedAt: t } };
        default:
          return {
            type: 'WalletExported',
            data: { ...scope, exportId: `e${s.a}`, sessionId: session(s.b), exportedAt: t },
          };
      }
    })();
    events.push(e);
  }
  const t = iso();
  const probes: WalletAuthCommand[] = [0, 1, 2, 3].flatMap((n): WalletAuthCommand[] => [
    { type: 'RecordOtpChallenge', authMethodId: method(n), now: t },
    { type: 'RecordOtpFailure', authMethodId: method(n), now: t },
    {
      type: 'IssueSession',
      sessionId: session(50 + n),
      authMethodId: method(n),
      publicKey: `02${'ab'.repeat(32)}`,
      expiresAt: iso(900),
      proof: { type: 'EMAIL_OTP' },
      now: t,
    },
    { type: 'RevokeSession', sessionId: session(n), now: t },
  ]);
  return { events, probes };
}

describe('wallet auth snapshots', () => {
  it('folding a snapshot plus the events after it equals folding the whole stream, and decides alike', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 150 }), fc.nat(), fc.boolean(), (steps, at, customerId) => {
        const { events, probes } = history(steps, customerId);
        expectSnapshotFoldsAlike(walletAuthDecider, events, at % (events.length + 1), probes);
      }),
      { numRuns: 200 },
    );
  });

  it('restores every map and keeps no reference to the state it was taken from', () => {
    const steps: Step[] = [0, 3, 4, 5, 8, 9, 10].map((kind) => ({ kind, a: 1, b: 0, seconds: 1, flag: true }));
    const { events } = history(steps, true);
    const state = events.reduce(walletAuthDecider.evolve, walletAuthDecider.initialState());
    const encoded = walletAuthSnapshot.encode(state);
    const restored = walletAuthSnapshot.decode(JSON.parse(JSON.stringify(encoded)));
    expect(restored).toEqual(state);
    expect(restored.sessions.get('Session:1')).toMatchObject({ authMethodId: 'AuthMethod:0' });
    expect(restored.otpFailedAt.get('AuthMethod:1')).toHaveLength(1);
    expect(restored.signedRetries.get('Request:1')).toMatchObject({ consumedBy: 'Session:0' });
  });
});
