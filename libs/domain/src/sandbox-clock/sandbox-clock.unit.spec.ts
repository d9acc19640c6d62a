import { describe, expect, it } from '@jest/globals';
import { MAX_CLOCK_ADVANCE_MS, sandboxClockDecider } from './sandbox-clock.js';

describe('sandbox clock', () => {
  it('accumulates the offset and only moves forward', () => {
    let state = sandboxClockDecider.initialState();
    for (const byMs of [1_000, 60_000]) {
      const events = sandboxClockDecider.decide(
        { type: 'AdvanceSandboxClock', platformId: 'Platform:x', byMs, now: '2026-01-01T00:00:00Z' },
        state,
      );
      state = events.reduce(sandboxClockDecider.evolve, state);
    }
    expect(state.offsetMs).toBe(61_000);
    for (const byMs of [0, -1, 1.5, MAX_CLOCK_ADVANCE_MS + 1]) {
      expect(() =>
        sandboxClockDecider.decide(
          { type: 'AdvanceSandboxClock', platformId: 'Platform:x', byMs, now: '2026-01-01T00:00:00Z' },
          state,
        ),
      ).toThrow();
    }
  });
});
