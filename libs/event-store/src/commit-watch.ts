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
 * than a tick.
 */
export class CommitWatch {
  /** Each waiter and the version it waits past. */
  private readonly waiters = new Map<() => void, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The version as first read in this turn of the event loop (see `current`). */
  private turn: number | undefined;
  private forgetting: NodeJS.Immediate | undefined;

  constructor(
    /** `PRAGMA data_version` of the watching connection. */
    private readonly read: () => number,
    private readonly intervalMs: number,
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
    this.timer ??= setTimeout(() => this.tick(), this.intervalMs);
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
  }

  private tick(): void {
    this.timer = undefined;
    let now: number;
    try {
      now = this.read();
    } catch {
      // A closed connection: its owner ends the waits.
      return;
    }
    const woken: (() => void)[] = [];
    for (const [wake, since] of this.waiters) if (since !== now) woken.push(wake);
    for (const wake of woken) this.waiters.delete(wake);
    for (const wake of woken) wake();
    if (this.waiters.size > 0) this.timer ??= setTimeout(() => this.tick(), this.intervalMs);
  }
}
