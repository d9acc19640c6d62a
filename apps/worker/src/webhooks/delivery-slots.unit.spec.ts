import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { CIRCUIT_AFTER_TIMEOUTS, DeliverySlots, MIN_DEFER_MS, type Admission, type Slot } from './delivery-slots.js';

const A = 'Platform:a';
const B = 'Platform:b';
const TIMEOUT_MS = 10_000;

function setup(perPlatform = 2) {
  // Real time spaces deferred runs; the platform's clock times its circuit.
  const real = new ManualClock();
  const clock = new ManualClock(Date.UTC(2026, 2, 2));
  const slots = new DeliverySlots({
    perPlatform,
    timeoutMs: TIMEOUT_MS,
    openMs: 30_000,
    maxOpenMs: 100_000,
    realClock: real,
  });
  const admit = (platformId: string): Admission => slots.admit(platformId, clock.now());
  const run = (platformId: string): Slot => {
    const admission = admit(platformId);
    if (admission.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(admission)}`);
    return admission.slot;
  };
  const timeout = () => ({ timedOut: true, latencyMs: TIMEOUT_MS, at: clock.now() });
  const answer = (latencyMs = 20) => ({ timedOut: false, latencyMs, at: clock.now() });
  return { clock, slots, admit, run, timeout, answer };
}

const kind = (admission: Admission) => admission.kind;

describe('DeliverySlots: fair webhook attempts across platforms', () => {
  it("runs at most perPlatform attempts of a platform at once and defers the rest; other platforms' run", () => {
    const { slots, admit, run, answer } = setup(2);
    const first = run(A);
    run(A);
    expect(slots.running(A)).toBe(2);
    const deferred = admit(A);
    expect(deferred).toMatchObject({ kind: 'defer' });
    expect(slots.running(A)).toBe(2);
    run(B);
    run(B);
    expect(kind(admit(B))).toBe('defer');
    first.release(answer());
    // Released twice counts once.
    first.release(answer());
    expect(slots.running(A)).toBe(1);
    run(A);
    expect(kind(admit(A))).toBe('defer');
  });

  it("spaces a platform's deferred runs by a slot's share of its attempt time, within one receiver timeout", () => {
    const { admit, run, answer } = setup(2);
    let slot = run(A);
    run(A);
    // Measured attempts of 200 ms bring the average down from the first assumption.
    for (let i = 0; i < 40; i++) {
      slot.release(answer(200));
      slot = run(A);
    }
    const delayOf = (a: Admission) => (a.kind === 'defer' ? a.delayMs : -1);
    const delays = Array.from({ length: 5 }, () => delayOf(admit(A)));
    // About 100 ms apart (200 ms for two slots).
    for (let i = 1; i < delays.length; i++) expect(Math.abs(delays[i] - delays[i - 1] - 100)).toBeLessThan(5);
    // A long backlog wraps into one timeout rather than reaching minutes ahead.
    const many = Array.from({ length: 1_000 }, () => delayOf(admit(A)));
    expect(Math.min(...many)).toBeGreaterThanOrEqual(MIN_DEFER_MS);
    expect(Math.max(...many)).toBeLessThanOrEqual(TIMEOUT_MS);
  });

  it('opens the circuit after attempts in a row without an answer: refused without a slot, then one probe', () => {
    const { clock, slots, admit, run, timeout, answer } = setup(4);
    // An answer in between starts the count again.
    run(A).release(timeout());
    run(A).release(answer());
    for (let i = 1; i < CIRCUIT_AFTER_TIMEOUTS; i++) expect(run(A).release(timeout())).toBeUndefined();
    const opened = run(A).release(timeout());
    expect(opened).toEqual(new Date(clock.now().getTime() + 30_000));
    expect(admit(A)).toEqual({ kind: 'refuse', until: opened });
    expect(slots.running(A)).toBe(0);
    // Other platforms go on.
    run(B).release(answer());

    clock.advance(29_999);
    expect(kind(admit(A))).toBe('refuse');
    clock.advance(1);
    const probe = run(A);
    // The other runs wait for the probe's answer, without using an attempt.
    expect(admit(A)).toEqual({ kind: 'defer', delayMs: TIMEOUT_MS });
    // No answer: open again, twice as long.
    expect(probe.release(timeout())).toEqual(new Date(clock.now().getTime() + 60_000));
    clock.advance(60_000);
    run(A).release(timeout());
    clock.advance(100_000);
    // Capped at maxOpenMs.
    expect(run(A).release(timeout())).toEqual(new Date(clock.now().getTime() + 100_000));
    clock.advance(100_000);
    // An answered probe closes the circuit: the platform has all its slots again.
    run(A).release(answer());
    for (let i = 0; i < 4; i++) run(A);
    expect(kind(admit(A))).toBe('defer');
  });

  it('a probe that ends without an attempt leaves the next run to probe', () => {
    const { clock, admit, run, timeout } = setup(4);
    for (let i = 0; i < CIRCUIT_AFTER_TIMEOUTS; i++) run(A).release(timeout());
    expect(kind(admit(A))).toBe('refuse');
    clock.advance(30_000);
    run(A).release();
    expect(kind(admit(A))).toBe('run');
    expect(kind(admit(A))).toBe('defer');
  });
});
