import type { Clock } from '#domain/clock.js';

/** Consecutive attempts of a platform that got no answer within the receiver timeout before its circuit opens. */
export const CIRCUIT_AFTER_TIMEOUTS = 3;
/** The shortest deferral of a run whose platform has no free slot. */
export const MIN_DEFER_MS = 50;
/** A platform's attempt time assumed until its attempts were measured. */
const FIRST_LATENCY_MS = 1_000;

export interface DeliverySlotsOptions {
  /** Attempts of one platform a worker makes at once (`WEBHOOK_PLATFORM_CONCURRENCY`). */
  perPlatform: number;
  /** The receiver timeout: the longest an attempt holds its slot. */
  timeoutMs: number;
  /**
   * How long a circuit first stays open, on the platform's clock as its retries are; doubled after each probe that gets
   * no answer, up to `maxOpenMs`.
   */
  openMs: number;
  maxOpenMs: number;
  /** Real time, which deferred runs wait in (slots free in real time, whatever a platform's clock says). */
  realClock: Clock;
}

/** What an attempt reports when it ends: whether it waited out the receiver timeout, how long it took, and when. */
export interface SlotOutcome {
  timedOut: boolean;
  latencyMs: number;
  /** The platform's time at the end of the attempt. */
  at: Date;
}

export interface Slot {
  /**
   * Frees the slot; without an outcome (the run failed before or during the attempt) nothing is learnt from it.
   * Answers until when the platform's circuit is open when this outcome opened it.
   */
  release(outcome?: SlotOutcome): Date | undefined;
}

export type Admission =
  | { kind: 'run'; slot: Slot }
  /** The platform's slots are all taken (or its probe is out): run again later, this was no attempt. */
  | { kind: 'defer'; delayMs: number }
  /** The platform's circuit is open (until then, on its clock): the attempt fails at once without being sent. */
  | { kind: 'refuse'; until: Date };

interface PlatformSlots {
  running: number;
  /** Moving average of the platform's attempt times: spaces its deferred runs. */
  latencyMs: number;
  /** Real time the last deferred run was spaced to. */
  nextTurnAt: number;
  /** Attempts in a row that got no answer within the timeout. */
  timeouts: number;
  circuit: 'closed' | 'open' | 'probing';
  /** On the platform's clock. */
  openUntil: number;
  openMs: number;
}

/**
 * Fair webhook delivery across platforms, in one worker process. A platform makes at most `perPlatform` attempts at
 * once: a run beyond that is deferred (back to the queue without using an attempt), spaced by the platform's attempt
 * times so that its backlog comes back about when slots free, and never later than one receiver timeout; the other
 * platforms' jobs take the worker's slots meanwhile. After CIRCUIT_AFTER_TIMEOUTS attempts in a row that got no
 * answer, the platform's circuit opens: its attempts fail at once without being sent (and are retried on the webhook
 * schedule), so a receiver that never answers holds no slot. Once the open period has passed on the platform's clock
 * (as its retries' delays do), one attempt goes out as a probe, the platform's other runs deferred meanwhile: an
 * answer closes the circuit, no answer opens it again for twice as long.
 */
export class DeliverySlots {
  private readonly platforms = new Map<string, PlatformSlots>();

  constructor(private readonly options: DeliverySlotsOptions) {
    if (!Number.isInteger(options.perPlatform) || options.perPlatform < 1)
      throw new RangeError(`perPlatform must be a positive integer, got ${options.perPlatform}`);
  }

  /** Admits a run of the platform's job, whose clock reads `platformNow`. */
  admit(platformId: string, platformNow: Date): Admission {
    const p = this.state(platformId);
    if (p.circuit === 'open') {
      if (platformNow.getTime() < p.openUntil) return { kind: 'refuse', until: new Date(p.openUntil) };
      p.circuit = 'probing';
      return this.run(platformId, p, true);
    }
    // The probe's answer is known within the timeout.
    if (p.circuit === 'probing') return { kind: 'defer', delayMs: Math.max(MIN_DEFER_MS, this.options.timeoutMs) };
    if (p.running < this.options.perPlatform) return this.run(platformId, p, false);
    return { kind: 'defer', delayMs: this.nextTurn(p, this.options.realClock.now().getTime()) };
  }

  /** Attempts of the platform running now (0 for one this worker knows nothing of). */
  running(platformId: string): number {
    return this.platforms.get(platformId)?.running ?? 0;
  }

  private state(platformId: string): PlatformSlots {
    let p = this.platforms.get(platformId);
    if (!p) {
      p = {
        running: 0,
        latencyMs: FIRST_LATENCY_MS,
        nextTurnAt: 0,
        timeouts: 0,
        circuit: 'closed',
        openUntil: 0,
        openMs: this.options.openMs,
      };
      this.platforms.set(platformId, p);
    }
    return p;
  }

  /**
   * The delay of a deferred run: each one a slot's share of an attempt time after the one before, so the backlog
   * comes back at about the rate the platform's slots free; wrapped into one receiver timeout (a slot frees by then
   * at the latest), so a long backlog comes back spread over it rather than all at once.
   */
  private nextTurn(p: PlatformSlots, now: number): number {
    p.nextTurnAt = Math.max(p.nextTurnAt, now) + p.latencyMs / this.options.perPlatform;
    const horizon = Math.max(MIN_DEFER_MS, this.options.timeoutMs);
    return Math.max(MIN_DEFER_MS, Math.round((p.nextTurnAt - now) % horizon));
  }

  private run(platformId: string, p: PlatformSlots, probe: boolean): Admission {
    p.running += 1;
    let released = false;
    const release = (outcome?: SlotOutcome) => {
      if (released) return undefined;
      released = true;
      p.running -= 1;
      let opened: Date | undefined;
      if (outcome) opened = this.learn(p, outcome, probe);
      // The probe ended without an attempt: the next run probes (the open period has passed).
      else if (probe && p.circuit === 'probing') p.circuit = 'open';
      if (p.running === 0 && p.circuit === 'closed' && p.timeouts === 0) this.platforms.delete(platformId);
      return opened;
    };
    return { kind: 'run', slot: { release } };
  }

  /** Answers until when the circuit is open when this outcome opened it. */
  private learn(p: PlatformSlots, outcome: SlotOutcome, probe: boolean): Date | undefined {
    p.latencyMs = 0.8 * p.latencyMs + 0.2 * Math.max(0, outcome.latencyMs);
    if (!outcome.timedOut) {
      // Answered: the receiver is there.
      p.timeouts = 0;
      p.circuit = 'closed';
      p.openMs = this.options.openMs;
      return undefined;
    }
    p.timeouts += 1;
    const now = outcome.at.getTime();
    if (probe) p.openMs = Math.min(p.openMs * 2, this.options.maxOpenMs);
    else if (p.circuit !== 'closed' || p.timeouts < CIRCUIT_AFTER_TIMEOUTS) return undefined;
    p.circuit = 'open';
    p.openUntil = now + p.openMs;
    return new Date(p.openUntil);
  }
}
