import type { FaultPlan } from './process.js';
import type { Random } from './scheduler.js';

/** How often each fault strikes: per step (restart, replay) or per operation (appends, read-model writes). */
export interface FaultRates {
  /** The process stops at a step and starts again from what is durable. */
  restart: number;
  /** A projection is reset and replays the log. */
  replay: number;
  /** An append fails before it is written. */
  appendBefore: number;
  /** An append is written (durable) but its caller hears a failure. */
  appendAfter: number;
  /** A read-model batch fails to commit. */
  commit: number;
  /** A job is delivered a second time. */
  twice: number;
  /** A webhook receiver starts behaving otherwise (slow, failing, down, answering twice; per step). */
  receiver: number;
}

export const DEFAULT_RATES: FaultRates = {
  restart: 0.002,
  replay: 0.002,
  appendBefore: 0.01,
  appendAfter: 0.01,
  commit: 0.02,
  twice: 0.1,
  receiver: 0.01,
};

export const NO_FAULTS: FaultRates = {
  restart: 0,
  replay: 0,
  appendBefore: 0,
  appendAfter: 0,
  commit: 0,
  twice: 0,
  receiver: 0,
};

/** The faults of a run, drawn from its seed; `off` ends them (a run's last phase completes what is pending). */
export class SeededFaults implements FaultPlan {
  rates: FaultRates;

  constructor(
    private readonly random: Random,
    rates: Partial<FaultRates> = {},
  ) {
    this.rates = { ...DEFAULT_RATES, ...rates };
  }

  off(): void {
    this.rates = { ...NO_FAULTS };
  }

  failBeforeAppend(): boolean {
    return this.rates.appendBefore > 0 && this.random.chance(this.rates.appendBefore);
  }

  failAfterAppend(): boolean {
    return this.rates.appendAfter > 0 && this.random.chance(this.rates.appendAfter);
  }

  deliverTwice(): boolean {
    return this.rates.twice > 0 && this.random.chance(this.rates.twice);
  }

  failCommit(): boolean {
    return this.rates.commit > 0 && this.random.chance(this.rates.commit);
  }
}
