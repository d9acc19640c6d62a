import type { Decider } from '../decider.js';
import { invalid } from '../errors.js';

/**
 * A sandbox platform's clock: real time plus an offset that only grows. The offset is an event in
 * the platform's own stream (`streams.sandboxClock(platformId)`), so every process (API instances,
 * workers) reads the same offset and agrees on the platform's "now", and no platform moves
 * another's time.
 */
export const MAX_CLOCK_ADVANCE_MS = 366 * 24 * 60 * 60_000;

export interface SandboxClockState {
  offsetMs: number;
}

export type SandboxClockEvent = {
  type: 'SandboxClockAdvanced';
  data: { platformId: string; byMs: number; offsetMs: number; advancedAt: string };
};

export type SandboxClockCommand = { type: 'AdvanceSandboxClock'; platformId: string; byMs: number; now: string };

export const sandboxClockDecider: Decider<SandboxClockState, SandboxClockCommand, SandboxClockEvent> = {
  initialState: () => ({ offsetMs: 0 }),
  decide(cmd, state) {
    if (!Number.isSafeInteger(cmd.byMs) || cmd.byMs <= 0 || cmd.byMs > MAX_CLOCK_ADVANCE_MS) {
      throw invalid(
        'INVALID_INPUT',
        `the clock advances by 1 ms to ${MAX_CLOCK_ADVANCE_MS} ms at a time`,
        'milliseconds',
      );
    }
    return [
      {
        type: 'SandboxClockAdvanced',
        data: { platformId: cmd.platformId, byMs: cmd.byMs, offsetMs: state.offsetMs + cmd.byMs, advancedAt: cmd.now },
      },
    ];
  },
  evolve: (_state, event) => ({ offsetMs: event.data.offsetMs }),
};
