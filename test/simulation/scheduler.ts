import { ManualClock } from '#domain/clock.js';
import { outsideWorkPending, quiesceOutsideWork } from './wallet-crypto.js';

/** A small seeded generator (mulberry32): the only source of chance in a simulation. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** A uuid (version 4 layout) drawn from the seed. */
  uuid(): string {
    const word = () =>
      Math.floor(this.next() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, '0');
    const h = word() + word() + word() + word();
    const variant = '89ab'[this.int(4)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}

/** An operation held until the scheduler lets it complete. */
interface Pending {
  label: string;
  complete(): void;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * Decides, from the seed, the order in which pending operations complete: every store operation of the simulated
 * process waits in `pending` until a step picks it. Time is virtual: `setTimeout` (while installed) schedules on the
 * simulated clock, which only moves when nothing else can run or a workload step advances it.
 */
export class Scheduler {
  readonly clock: ManualClock;
  private pending: Pending[] = [];
  private timers: Timer[] = [];
  private seq = 0;
  /** Operations completed so far (a measure of work, printed with the trace). */
  completed = 0;

  constructor(
    readonly random: Random,
    start = Date.UTC(2026, 0, 1),
  ) {
    this.clock = new ManualClock(start);
  }

  /** A promise the scheduler resolves when it picks this operation. */
  hold(label: string): Promise<void> {
    return new Promise<void>((resolve) => this.pending.push({ label, complete: resolve }));
  }

  get busy(): boolean {
    return this.pending.length > 0 || this.timers.length > 0;
  }

  /** Completes one pending operation the seed picks (else fires the next timer), then lets what it woke run. */
  async step(): Promise<boolean> {
    // Real work in flight (WebCrypto) completes before the pick, so that what it wakes is held at the same point.
    if (outsideWorkPending()) await quiesceOutsideWork();
    if (this.pending.length > 0) {
      const index = this.random.int(this.pending.length);
      const [op] = this.pending.splice(index, 1);
      this.completed++;
      op.complete();
    } else if (this.timers.length > 0) {
      this.fireNextTimer();
    } else {
      return false;
    }
    await settle();
    return true;
  }

  /** Steps until nothing is pending (bounded: a livelock is a failure of its own). */
  async drain(limit = 100_000): Promise<void> {
    for (let i = 0; i < limit; i++) if (!(await this.step())) return;
    throw new Error(`the simulation did not become idle within ${limit} completions`);
  }

  private fireNextTimer(): void {
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const timer = this.timers.shift()!;
    const now = this.clock.now().getTime();
    if (timer.at > now) this.clock.advance(timer.at - now);
    timer.fn();
  }

  /** Installs virtual `setTimeout`, `clearTimeout`, `Math.random` and `Date.now` until the returned undo is called. */
  install(): () => void {
    const saved = { setTimeout, clearTimeout, random: Math.random, now: Date.now, monotonic: performance.now };
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = (fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
      const timer: Timer = {
        at: this.clock.now().getTime() + Math.max(0, ms),
        seq: this.seq++,
        fn: () => fn(...args),
      };
      this.timers.push(timer);
      return virtualHandle(timer);
    };
    g.clearTimeout = (handle: unknown) => {
      const timer = (handle as { timer?: Timer } | undefined)?.timer;
      if (timer) this.timers = this.timers.filter((t) => t !== timer);
      else saved.clearTimeout(handle as NodeJS.Timeout);
    };
    Math.random = () => this.random.next();
    Date.now = () => this.clock.now().getTime();
    const origin = this.clock.now().getTime();
    performance.now = () => this.clock.now().getTime() - origin;
    return () => {
      performance.now = saved.monotonic;
      g.setTimeout = saved.setTimeout;
      g.clearTimeout = saved.clearTimeout;
      Math.random = saved.random;
      Date.now = saved.now;
    };
  }
}

function virtualHandle(timer: Timer) {
  const handle = {
    timer,
    unref: () => handle,
    ref: () => handle,
    hasRef: () => false,
    refresh: () => handle,
    [Symbol.toPrimitive]: () => timer.seq,
  };
  return handle;
}

/** Lets every promise reaction queued so far (and those they queue) run: one turn of the event loop. */
export async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (outsideWorkPending()) await quiesceOutsideWork();
}
