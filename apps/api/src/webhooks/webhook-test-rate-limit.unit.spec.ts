import { describe, expect, it } from '@jest/globals';
import { SlidingWindowLimiter } from './webhook-test-rate-limit.js';

describe('sliding-window limiter', () => {
  it('allows `limit` calls per key in any window and says when the next one is allowed', () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(3, 60_000, () => now);
    const calls = [0, 10_000, 20_000].map((at) => {
      now = 1_000_000 + at;
      return limiter.take('A').allowed;
    });
    expect(calls).toEqual([true, true, true]);
    expect(limiter.take('A')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    expect(limiter.take('B').allowed).toBe(true); // keys are independent
    now = 1_000_000 + 59_500;
    expect(limiter.take('A')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 1_000_000 + 60_000; // the first call left the window, the second has 10 s to go
    expect(limiter.take('A').allowed).toBe(true);
    expect(limiter.take('A')).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('does not count refused calls', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(1, 1000, () => now);
    expect(limiter.take('A').allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect(limiter.take('A').allowed).toBe(false);
    now = 1000;
    expect(limiter.take('A').allowed).toBe(true);
  });
});
