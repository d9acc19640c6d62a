import { watch } from 'node:fs';
import type Database from 'better-sqlite3';

/** `PRAGMA data_version` of a connection, prepared once: what a CommitWatch reads. */
export function dataVersionOf(db: Database.Database): () => number {
  const statement = db.prepare<[], number>('PRAGMA data_version').pluck();
  return () => statement.get()!;
}

/**
 * Learns that another connection committed to a SQLite file (another process, or one of this process's commit
 * threads) by reading `PRAGMA data_version` of one connection every `intervalMs` while someone waits: the value
 * changes whenever a connection other than this one has committed since the last read, and reading it costs a look at
 * the write-ahead log's shared index (a few µs), not a query. What follows a commit (a subscription's next page, a
 * checkpoint read, a job claim) then runs within a few milliseconds of it, instead of at a poll of its own that reads
 * whether anything changed or not.
 *
 * A waiter passes the version it read before it looked at the file (`current()`, then its read); it is woken at the
 * first tick that reads another one, or at once if `current()` already differs, so a commit after its read is never
 * slept through. It may be woken for a commit it has already seen (its read came after the commit); never late by more
 * than a tick. With `quieting`, a watch that has found nothing new for a while stops ticking often and listens to
 * the file instead (see QuietOptions): an idle service then wakes a few dozen times a second instead of hundreds.
 */
export class CommitWatch {
  /** Each waiter and the version it waits past. */
  private readonly waiters = new Map<() => void, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The version as first read in this turn of the event loop (see `current`). */
  private turn: number | undefined;
  private forgetting: NodeJS.Immediate | undefined;
  /** The version the last tick read, and how many ticks in a row have read it. */
  private lastTick: number | undefined;
  private unchangedTicks = 0;
  /** Set while the watch is quiet (listening to the file instead of ticking often): how to stop listening. */
  private quiet: (() => void) | undefined;
  private cannotListen = false;

  constructor(
    /** `PRAGMA data_version` of the watching connection. */
    private readonly read: () => number,
    private readonly intervalMs: number,
    private readonly quieting?: QuietOptions,
  ) {}

  /**
   * The version, read once per turn of the event loop: the many subscriptions a commit wakes in one turn share one
   * look. A commit later in the turn shows at the next tick (or the next turn's look).
   */
  current(): number {
    if (this.turn === undefined) {
      this.turn = this.read();
      this.forgetting = setImmediate(() => {
        this.turn = undefined;
        this.forgetting = undefined;
      });
    }
    return this.turn;
  }

  /**
   * Calls `wake` once the version differs from `since`: in a microtask if it already does, else at the first tick that
   * reads another one; never before `next` has returned its cancel. Returns how to cancel the wait (a waiter woken
   * otherwise, such as by a commit of this process).
   */
  next(since: number, wake: () => void): () => void {
    if (this.current() !== since) {
      let cancelled = false;
      void Promise.resolve().then(() => cancelled || wake());
      return () => (cancelled = true);
    }
    this.waiters.set(wake, since);
    this.timer ??= setTimeout(() => this.tick(), this.tickMs());
    return () => {
      this.waiters.delete(wake);
      if (this.waiters.size === 0) this.stop();
    };
  }

  /** Wakes no one again; the waiters' own stops (or their owners' close) settle them. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearImmediate(this.forgetting);
    this.forgetting = undefined;
    this.turn = undefined;
    this.endQuiet();
    this.lastTick = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    let now: number;
    try {
      now = this.read();
    } catch {
      // A closed connection: its owner ends the waits.
      this.endQuiet();
      return;
    }
    if (now === this.lastTick) this.unchangedTicks++;
    else {
      // Another connection committed: ticking often again (which also starts the count of quiet ticks anew).
      this.lastTick = now;
      this.endQuiet();
    }
    const woken: (() => void)[] = [];
    for (const [wake, since] of this.waiters) if (since !== now) woken.push(wake);
    for (const wake of woken) this.waiters.delete(wake);
    for (const wake of woken) wake();
    if (this.waiters.size === 0) return;
    if (!this.quiet && this.quieting && this.unchangedTicks * this.intervalMs >= this.quieting.afterMs) {
      this.quiet = this.listen(this.quieting);
      // A commit between the read above and the listening would go unnoticed until the safety net: look once more.
      if (this.quiet && this.readOr(now) !== now) this.endQuiet();
    }
    this.timer ??= setTimeout(() => this.tick(), this.tickMs());
  }

  /** How long until the next tick: the safety net's interval while quiet. */
  private tickMs(): number {
    return this.quiet && this.quieting ? this.quieting.intervalMs : this.intervalMs;
  }

  private readOr(fallback: number): number {
    try {
      return this.read();
    } catch {
      return fallback;
    }
  }

  /**
   * Quiet from now on: the file's next notification brings the ticks back at once. Undefined if it cannot listen (and
   * then it is not tried again).
   */
  private listen(quieting: QuietOptions): (() => void) | undefined {
    if (this.cannotListen) return undefined;
    try {
      return quieting.listen(() => {
        if (!this.quiet) return;
        this.endQuiet();
        if (this.timer === undefined) return;
        clearTimeout(this.timer);
        this.timer = undefined;
        this.tick();
      });
    } catch {
      this.cannotListen = true;
      return undefined;
    }
  }

  /** Back to ticking every `intervalMs` (no longer quiet). */
  private endQuiet(): void {
    const stopListening = this.quiet;
    this.quiet = undefined;
    this.unchangedTicks = 0;
    stopListening?.();
  }
}

/**
 * How a watch goes quiet: after `afterMs` of ticks that found no other connection's commit, it ticks only every
 * `intervalMs` (a safety net) and waits for the file to say it changed (`listen`, which returns how to stop
 * listening, or throws if it cannot listen: the watch then keeps ticking as before). The first notification brings
 * the ticks back, so an idle process hardly wakes and a busy one never handles a notification per commit.
 */
export interface QuietOptions {
  afterMs: number;
  intervalMs: number;
  listen(changed: () => void): () => void;
}

/**
 * Notifications of writes to a SQLite file's write-ahead log (`fs.watch`, inotify on Linux): every commit in WAL mode
 * writes its frames there. The listener does not keep the process alive.
 */
export function walWrites(path: string): QuietOptions['listen'] {
  return (changed) => {
    const watcher = watch(`${path}-wal`, { persistent: false }, () => changed());
    // A watcher that fails (the file went away) counts as a change: the watch ticks again and stops listening.
    watcher.on('error', () => changed());
    return () => watcher.close();
  };
}

/** The quiet settings of the embedded stores' watches: quiet after a second without another connection's commit. */
export const quietOnWalWrites = (path: string): QuietOptions => ({
  afterMs: 1_000,
  intervalMs: 1_000,
  listen: walWrites(path),
});
