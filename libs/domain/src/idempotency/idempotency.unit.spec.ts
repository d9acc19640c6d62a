import { describe, expect, it } from '@jest/globals';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  claimOutcome,
  idempotencyDecider,
  idempotencyStream,
  requestHash,
  stableJson,
  type IdempotencyCommand,
  type IdempotencyState,
} from './idempotency.js';

const P = 'Platform:11111111-2222-4333-8444-555555555555';
const T0 = Date.UTC(2026, 0, 1);
const at = (ms: number) => new Date(T0 + ms);

function run(state: IdempotencyState, cmd: IdempotencyCommand): IdempotencyState {
  return idempotencyDecider.decide(cmd, state).reduce(idempotencyDecider.evolve, state);
}
const claim = (state: IdempotencyState, claimId: string, hash: string, ms = 0) =>
  run(state, { type: 'ClaimKey', platformId: P, claimId, requestHash: hash, now: at(ms) });

describe('idempotency keys', () => {
  it('hashes requests independently of key order, and per platform, method, path and body', () => {
    const base = {
      platformId: P,
      method: 'post',
      path: '/2025-10-13/quotes',
      body: { a: 1, b: { c: [1, 2], d: 'x' } },
    };
    expect(requestHash(base)).toBe(requestHash({ ...base, method: 'POST', body: { b: { d: 'x', c: [1, 2] }, a: 1 } }));
    for (const change of [
      { platformId: 'Platform:other' },
      { path: '/2025-10-13/quotes/x/execute' },
      { body: { a: 2, b: { c: [1, 2], d: 'x' } } },
      { body: { a: 1, b: { c: [2, 1], d: 'x' } } },
    ]) {
      expect(requestHash({ ...base, ...change })).not.toBe(requestHash(base));
    }
    expect(stableJson({ b: 1, a: undefined, c: null })).toBe('{"b":1,"c":null}');
    expect(idempotencyStream(P, 'k')).toMatch(/^idempotency-[0-9a-f-]{36}$/);
    expect(idempotencyStream(P, 'k')).not.toBe(idempotencyStream('Platform:other', 'k'));
  });

  it('lets the first claim run, replays its response, refuses another request', () => {
    let state = claim({}, 'c1', 'h1');
    expect(claimOutcome(state, 'c1', 'h1')).toEqual({ kind: 'owner', effectsId: 'c1' });
    state = claim(state, 'c2', 'h1');
    expect(claimOutcome(state, 'c2', 'h1')).toEqual({ kind: 'in_progress' });
    expect(claimOutcome(claim(state, 'c3', 'h2'), 'c3', 'h2')).toEqual({ kind: 'mismatch' });
    state = run(state, {
      type: 'RecordResponse',
      platformId: P,
      claimId: 'c1',
      response: { status: 201, body: { id: 'Quote:1' } },
      now: at(10),
    });
    expect(claimOutcome(claim(state, 'c4', 'h1', 20), 'c4', 'h1')).toEqual({
      kind: 'replay',
      response: { status: 201, body: { id: 'Quote:1' } },
    });
    expect(() =>
      run(state, {
        type: 'RecordResponse',
        platformId: P,
        claimId: 'c2',
        response: { status: 500, body: {} },
        now: at(10),
      }),
    ).toThrow();
  });

  it('keeps a response for the retention period, then frees the key', () => {
    let state = claim({}, 'c1', 'h1');
    state = run(state, {
      type: 'RecordResponse',
      platformId: P,
      claimId: 'c1',
      response: { status: 200, body: 1 },
      now: at(0),
    });
    expect(claimOutcome(claim(state, 'c2', 'h2', IDEMPOTENCY_RETENTION_MS - 1), 'c2', 'h2').kind).toBe('mismatch');
    expect(claimOutcome(claim(state, 'c2', 'h2', IDEMPOTENCY_RETENTION_MS), 'c2', 'h2').kind).toBe('owner');
  });

  it('hands an abandoned claim over after its lease, and a released one at once', () => {
    const state = claim({}, 'c1', 'h1');
    expect(claimOutcome(claim(state, 'c2', 'h1', IDEMPOTENCY_LEASE_MS - 1), 'c2', 'h1').kind).toBe('in_progress');
    expect(claimOutcome(claim(state, 'c2', 'h1', IDEMPOTENCY_LEASE_MS), 'c2', 'h1').kind).toBe('owner');
    const released = run(state, { type: 'ReleaseKey', platformId: P, claimId: 'c1', now: at(5) });
    expect(claimOutcome(claim(released, 'c3', 'h1', 6), 'c3', 'h1').kind).toBe('owner');
  });

  it('names the effects of a request that takes over an abandoned claim as the first run named them', () => {
    const first = claim({}, 'c1', 'h1');
    // Taken over after the lease, and again: the effects keep the first claim's name.
    const second = claim(first, 'c2', 'h1', IDEMPOTENCY_LEASE_MS);
    expect(claimOutcome(second, 'c2', 'h1')).toEqual({ kind: 'owner', effectsId: 'c1' });
    const third = claim(second, 'c3', 'h1', 2 * IDEMPOTENCY_LEASE_MS);
    expect(claimOutcome(third, 'c3', 'h1')).toEqual({ kind: 'owner', effectsId: 'c1' });
    // A released claim ran to a refusal or a challenge: the next request is a new one, with effects of its own.
    const released = run(first, { type: 'ReleaseKey', platformId: P, claimId: 'c1', now: at(5) });
    expect(claimOutcome(claim(released, 'c4', 'h1', 6), 'c4', 'h1')).toEqual({ kind: 'owner', effectsId: 'c4' });
    // So is the key used afresh once its answer's retention has passed.
    const answered = run(first, {
      type: 'RecordResponse',
      platformId: P,
      claimId: 'c1',
      response: { status: 200, body: 1 },
      now: at(0),
    });
    const afresh = claim(answered, 'c5', 'h1', IDEMPOTENCY_RETENTION_MS);
    expect(claimOutcome(afresh, 'c5', 'h1')).toEqual({ kind: 'owner', effectsId: 'c5' });
  });

  it('reads claims recorded before effects were named: their own claim id names them', () => {
    const state = idempotencyDecider.evolve(
      {},
      {
        type: 'IdempotencyKeyClaimed',
        data: {
          platformId: P,
          claimId: 'old',
          requestHash: 'h1',
          claimedAt: at(0).toISOString(),
          leaseUntil: at(IDEMPOTENCY_LEASE_MS).toISOString(),
          expiresAt: at(IDEMPOTENCY_RETENTION_MS).toISOString(),
        },
      },
    );
    expect(claimOutcome(claim(state, 'c2', 'h1', IDEMPOTENCY_LEASE_MS), 'c2', 'h1')).toEqual({
      kind: 'owner',
      effectsId: 'old',
    });
  });
});
