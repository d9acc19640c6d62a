import { describe, it, expect, jest } from '@jest/globals';
import { walletAuthDecider } from './wallet-auth.js';
import { walletAuthSnapshot } from './wallet-auth-snapshot.js';
import {
  at,
  cardSpec,
  challenge,
  consumeCard as consume,
  given,
  history,
  issueSession,
  provision,
  requestId,
} from './wallet-auth.fixtures.js';
import { CHALLENGE_SWEEP_EVERY, type WalletAuthEvent } from './wallet-auth-state.js';

describe('pruning challenges', () => {
  const DAY = 86_400;
  const fold = (events: WalletAuthEvent[], state = walletAuthDecider.initialState()) =>
    events.reduce((s, e) => walletAuthDecider.evolve(s, e), state);
  const events = history(
    provision(),
    issueSession(1),
    challenge(cardSpec(1, at(30))),
    challenge(cardSpec(2, at(60))),
    consume(cardSpec(2, at(60)), 1, at(70)),
    challenge(cardSpec(3, at(90))),
    // A day after the second challenge expired (issued at 60 s, for 300 s): the first two are forgotten.
    challenge(cardSpec(4, at(360 + DAY))),
    challenge(cardSpec(5, at(400 + DAY))),
  );

  it('forgets challenges a day after they expired, oldest first, used or not; keeps the rest in issue order', () => {
    expect([...fold(events.slice(0, -1)).signedRetries.keys()]).toEqual([requestId(3), requestId(4)]);
    expect([...fold(events).signedRetries.keys()]).toEqual([requestId(4), requestId(5)]);
  });

  it('looks only at the challenges it forgets and the next one, however many the wallet holds', () => {
    const many = history(
      provision(),
      issueSession(1),
      ...Array.from({ length: 300 }, (_, i) => challenge(cardSpec(i + 1, at(30 + i)))),
    );
    const state = fold(many);
    const [issued] = given(many)
      .when(challenge(cardSpec(301, at(2_000))))
      .thenEmits();
    const parse = jest.spyOn(Date, 'parse');
    try {
      walletAuthDecider.evolve(state, issued);
      // Each held challenge's expiry was parsed on every new challenge before: 300 parses here.
      expect(parse.mock.calls.length).toBeLessThan(10);
    } finally {
      parse.mockRestore();
    }
    expect(state.signedRetries.size).toBe(301);
  });

  describe('a history whose challenges do not expire in issue order', () => {
    // The first challenge is dated ten days on (a host whose clock ran ahead); the next ones every five minutes from
    // the start, so each is expired a day later while the first one is not.
    const count = CHALLENGE_SWEEP_EVERY + 600;
    const disordered = history(
      provision(),
      issueSession(1),
      challenge(cardSpec(0, at(10 * DAY))),
      ...Array.from({ length: count }, (_, i) => challenge(cardSpec(i + 1, at(300 * (i + 1))))),
    );

    it('keeps expired challenges only until the next sweep', () => {
      const state = fold(disordered);
      // The sweep is the CHALLENGE_SWEEP_EVERY-th prune: the session's, the early challenge's, then challenge n's.
      const sweptAt = Date.parse(at(300 * (CHALLENGE_SWEEP_EVERY - 2)));
      const issued = disordered.filter((e) => e.type === 'SignedRetryChallengeIssued');
      const kept = issued
        .filter((e, i) => i === 0 || Date.parse(e.data.expiresAt) + DAY * 1000 > sweptAt)
        .map((e) => e.data.requestId);
      expect([...state.signedRetries.keys()]).toEqual(kept);
      // Oldest first alone stops at the early challenge and keeps every one.
      expect(kept.length).toBeLessThan(count - 600);
    });

    it('sweeps a state restored from a snapshot when the state folded whole does', () => {
      const cut = CHALLENGE_SWEEP_EVERY - 10;
      const restored = walletAuthSnapshot.decode(
        JSON.parse(JSON.stringify(walletAuthSnapshot.encode(fold(disordered.slice(0, cut))))),
      );
      const resumed = fold(disordered.slice(cut), restored);
      const whole = fold(disordered);
      expect([...resumed.signedRetries.keys()]).toEqual([...whole.signedRetries.keys()]);
      expect(resumed.prunesSinceSweep).toBe(whole.prunesSinceSweep);
    });
  });

  it('prunes a state restored from a snapshot as it prunes one folded whole', () => {
    const half = walletAuthSnapshot.decode(walletAuthSnapshot.encode(fold(events.slice(0, 5))));
    expect([...fold(events.slice(5), half).signedRetries.keys()]).toEqual([requestId(4), requestId(5)]);
  });
});
