import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { Sqlite } from '#sqlite/driver.js';
import { ensurePrivateFile } from '#config/private-files.js';
import type { Clock } from '#domain/clock.js';
import { CommitWatch, dataVersionOf, quietOnWalWrites } from '#event-store/sqlite/commit-watch.js';
import { attemptBudget, backoffDelayMs, deferredBy, delayOf, errorMessage, isUnrecoverable } from '../backoff.js';
import {
  DEPTH_CAP,
  type BackoffPolicy,
  type Job,
  type JobInfo,
  type JobOptions,
  type JobQueue,
  type JobState,
  type QueueDepth,
  type Worker,
} from '../job-queue.js';
import { LogSync } from './log-sync.js';
import { SqliteWorker, type Finished } from './job-worker.js';
import { OLDEST_DUE_SQL, createSchema, prepareStatements, run, type JobRow, type Statements } from './job-store.js';
import { GroupPlaces } from './group-places.js';

interface PendingInsert {
  row: {
    queue: string;
    id: string;
    name: string;
    data: string;
    state: 'delayed' | 'waiting';
    maxAttempts: number;
    backoff: string | null;
    dueAt: number;
    now: number;
    group: string | null;
  };
  resolve(id: string): void;
  reject(error: unknown): void;
}

export interface SqliteJobQueueOptions {
  /** Queue clock: delays and backoff are measured on it. */
  clock: Clock;
  /**
   * How long a claim stays valid without renewal, in real milliseconds. A job whose lease
   * expired (its process died) is claimable again.
   */
  leaseMs?: number;
  /**
   * Real-time polling interval for jobs becoming due (delayed, backed off, or held by a process that died). A job
   * another process enqueues wakes this one's workers within a few milliseconds of its commit (`CommitWatch`).
   */
  pollMs?: number;
  /** Storage errors inside workers (the job is retried once its lease expires). */
  onError?: (error: unknown) => void;
}

/**
 * Embedded job queue: one SQLite table. Claims are single UPDATE statements, so two workers or
 * two processes never hold one job at once; a claim is a lease in real time, renewed while the
 * handler runs, so a job held by a dead process becomes claimable again (at-least-once).
 * `due_at` is on the queue clock; `lease_until` on real time (it detects dead processes).
 *
 * Durability: every write is committed with `synchronous=NORMAL`, which writes the write-ahead log without syncing
 * it. What must survive a power loss (enqueued jobs, a dead job retried, promotions and a group's clock moved)
 * resolves only once the log has been synced after it (LogSync, on libuv's thread pool: the event loop goes on
 * meanwhile, where an fsync inside the commit held it for a millisecond or more at each enqueue). A job's lease
 * bookkeeping (claim, renewal, completion, a failed attempt) waits for no sync: a process that dies loses none of it
 * (the operating system has the writes), and a power loss can only take back the last of it, which makes a job run
 * again, as a lease that expired does (at-least-once). The next sync of the log makes it durable as well.
 */
export class SqliteJobQueue implements JobQueue {
  private readonly db: Database.Database;
  private readonly clock: Clock;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  readonly onError: (error: unknown) => void;
  private readonly workers = new Set<SqliteWorker>();
  private closing: Promise<void> | undefined;
  private readonly stmt: Statements;
  /** The places of jobs in the claim order, fair between groups. */
  readonly places: GroupPlaces;
  private oldestDueStatement?: Database.Statement;
  private inserts: PendingInsert[] = [];
  private insertHandle: NodeJS.Immediate | undefined;
  private readonly insertAll: Database.Transaction<(batch: PendingInsert[], woken: Set<string>) => void>;
  private finished: Finished[] = [];
  private finishHandle: NodeJS.Immediate | undefined;
  /** Records a turn's outcomes; answers the queues with a job to run again at once. */
  private readonly recordAll: Database.Transaction<(batch: Finished[]) => Set<string>>;
  /** Syncs the write-ahead log off the event loop's thread (none for an in-memory file). */
  private readonly logSync: LogSync | undefined;
  /** Other processes' commits to the file (none for an in-memory file), and how to stop following them. */
  private readonly watch: CommitWatch | undefined;
  private stopWatching: (() => void) | undefined;

  constructor(path: string, options: SqliteJobQueueOptions) {
    this.clock = options.clock;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 100;
    this.onError = options.onError ?? ((error) => console.error('job queue worker error', error));
    ensurePrivateFile(path);
    this.db = new Sqlite(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.logSync = path === ':memory:' ? undefined : new LogSync(`${path}-wal`);
    // Other processes share the file: wait for their write locks instead of failing.
    this.db.pragma('busy_timeout = 5000');
    createSchema(this.db);
    this.stmt = prepareStatements(this.db);
    this.places = new GroupPlaces(this.db);
    if (path !== ':memory:') this.watch = new CommitWatch(dataVersionOf(this.db), 5, quietOnWalWrites(path));
    // Run as `BEGIN IMMEDIATE`: they read places, then write, and another process's commit in between would fail them.
    this.insertAll = this.db.transaction((batch: PendingInsert[], woken: Set<string>) => {
      for (const { row } of batch) {
        const inserted = this.places.assign(row.queue, row.group, (place) => run(this.stmt.insert, { ...row, place }));
        if (inserted && row.state === 'waiting') woken.add(row.queue);
      }
    });
    this.recordAll = this.db.transaction((batch: Finished[]) => {
      const retried = new Set<string>();
      for (const { row, token, failure } of batch) {
        if (!failure) this.complete(row.queue, row.id, token);
        else if (this.fail(row, token, failure.error)) retried.add(row.queue);
      }
      return retried;
    });
  }

  /**
   * Enqueues made in the same turn of the event loop are inserted together in one transaction on the next one (one
   * fsync for all); each resolves once that transaction has committed.
   */
  enqueue<T>(queue: string, name: string, data: T, options: JobOptions = {}): Promise<string> {
    if (this.closing) return Promise.reject(new Error('job queue is closed'));
    let row: PendingInsert['row'];
    try {
      const id = options.id ?? randomUUID();
      const delayMs = delayOf(options.delayMs);
      const now = this.clock.now().getTime();
      row = {
        queue,
        id,
        name,
        data: JSON.stringify(data ?? null),
        state: delayMs > 0 ? 'delayed' : 'waiting',
        maxAttempts: attemptBudget(options.attempts),
        backoff: options.backoff ? JSON.stringify(options.backoff) : null,
        dueAt: now + delayMs,
        now,
        group: options.group ?? null,
      };
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<string>((resolve, reject) => {
      this.inserts.push({ row, resolve, reject });
      this.insertHandle ??= setImmediate(() => void this.insertPending());
    });
  }

  private async insertPending(): Promise<void> {
    this.insertHandle = undefined;
    const batch = this.inserts;
    this.inserts = [];
    if (batch.length === 0) return;
    const woken = new Set<string>();
    try {
      await this.durably(() => this.insertAll.immediate(batch, woken));
    } catch (error) {
      // Rolled back, or not known to be on disk.
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const pending of batch) pending.resolve(pending.row.id);
    for (const queue of woken) this.wake(queue);
  }

  process<T>(queue: string, handler: (job: Job<T>) => Promise<void>, options: { concurrency?: number } = {}): Worker {
    if (this.closing) throw new Error('job queue is closed');
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    const worker = new SqliteWorker(
      this,
      queue,
      handler as (job: Job<unknown>) => Promise<void>,
      concurrency,
      this.pollMs,
    );
    this.workers.add(worker);
    worker.onClosed = () => {
      this.workers.delete(worker);
      if (this.workers.size > 0) return;
      this.stopWatching?.();
      this.stopWatching = undefined;
    };
    worker.start();
    if (!this.stopWatching) this.followOthers(this.watch?.current());
    return worker;
  }

  /**
   * Wakes this process's workers whenever another connection has committed to the file (another process enqueued,
   * retried a dead job, moved a group's clock, or finished a job of its own), as a local enqueue does, instead of at
   * their next poll. This connection's own commits do not count, so the claims the wake leads to wake nothing.
   */
  private followOthers(since: number | undefined): void {
    const watch = this.watch;
    if (!watch || since === undefined || this.closing || this.workers.size === 0) {
      this.stopWatching = undefined;
      return;
    }
    this.stopWatching = watch.next(since, () => {
      const seen = watch.current();
      for (const worker of this.workers) worker.pump();
      this.followOthers(seen);
    });
  }

  async getJob<T = unknown>(queue: string, id: string): Promise<JobInfo<T> | undefined> {
    const row = this.stmt.get.get(queue, id) as JobRow | undefined;
    return row ? toInfo<T>(row) : undefined;
  }

  async deadLetters<T = unknown>(queue: string, options: { limit?: number } = {}): Promise<JobInfo<T>[]> {
    const rows = this.stmt.dead.all(queue, options.limit ?? 100) as JobRow[];
    return rows.map((row) => toInfo<T>(row));
  }

  async depth(queue: string, group?: string): Promise<QueueDepth> {
    const depth: QueueDepth = { waiting: 0, delayed: 0, active: 0, dead: 0 };
    const rows = this.stmt.depth.all({ queue, group: group ?? null, cap: DEPTH_CAP * 4 }) as {
      state: keyof QueueDepth;
      n: number;
    }[];
    for (const row of rows) depth[row.state] = Math.min(row.n, DEPTH_CAP);
    return depth;
  }

  async oldestDue(queue: string): Promise<Date | undefined> {
    this.oldestDueStatement ??= this.db.prepare(OLDEST_DUE_SQL);
    const row = this.oldestDueStatement.get({ queue, now: this.clock.now().getTime() }) as { due: number | null };
    return row.due === null ? undefined : new Date(row.due);
  }

  async retryDead(queue: string, id: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const revive = this.db.transaction(() => {
      const job = this.stmt.get.get(queue, id) as JobRow | undefined;
      if (job?.state !== 'dead') return false;
      return this.places.assign(queue, job.grp, (place) => run(this.stmt.retryDead, { queue, id, now, place }));
    });
    if (!(await this.durably(() => revive.immediate()))) return false;
    this.wake(queue);
    return true;
  }

  async promoteDue(): Promise<number> {
    const { changes: promoted } = await this.durably(() => this.stmt.promote.run({ now: this.clock.now().getTime() }));
    // Workers claim due jobs on their own; waking them just skips the polling interval.
    for (const worker of this.workers) worker.pump();
    return promoted;
  }

  async advanceGroup(group: string, byMs: number): Promise<number> {
    if (!Number.isFinite(byMs) || byMs <= 0) return 0;
    const now = this.clock.now().getTime();
    const rows = (await this.durably(() => this.stmt.advanceGroup.all({ group, byMs, now }))) as { state: string }[];
    for (const worker of this.workers) worker.pump();
    return rows.filter((row) => row.state === 'waiting').length;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // Enqueues already accepted are inserted before the file is closed.
      if (this.insertHandle) clearImmediate(this.insertHandle);
      await this.insertPending();
      this.stopWatching?.();
      await Promise.all([...this.workers].map((worker) => worker.close()));
      if (this.finishHandle) clearImmediate(this.finishHandle);
      this.recordFinished();
      this.db.close();
      await this.logSync?.close();
    })();
    return this.closing;
  }

  /**
   * Runs `write` (committed with `synchronous=NORMAL`, as everything here) and resolves once the write-ahead log has
   * been synced after it, which makes it durable with whatever was committed before it.
   */
  private async durably<T>(write: () => T): Promise<T> {
    const result = write();
    await this.logSync?.sync();
    return result;
  }

  /**
   * Records a run's outcome. The runs that end in the same turn of the event loop are recorded together in one
   * transaction on the next turn, and their workers then claim the jobs for the slots they freed: a completion and
   * a claim each committed on their own before (about 100 and 160 µs of the event loop's time per webhook delivery).
   * An outcome that cannot be recorded leaves the job's lease to expire, and the job runs again (at-least-once).
   */
  finish(outcome: Finished): void {
    this.finished.push(outcome);
    this.finishHandle ??= setImmediate(() => this.recordFinished());
  }

  private recordFinished(): void {
    this.finishHandle = undefined;
    const batch = this.finished;
    this.finished = [];
    if (batch.length === 0) return;
    // The workers whose slots freed, and those of a queue with a job to run again at once.
    const workers = new Set(batch.map((f) => f.worker));
    try {
      for (const q of this.recordAll.immediate(batch)) for (const w of this.workers) if (w.queue === q) workers.add(w);
    } catch (error) {
      this.onError(error);
    }
    for (const worker of workers) worker.pump();
  }

  /** Claims up to `limit` runnable jobs of one queue for this process. */
  claim(queue: string, limit: number): { rows: JobRow[]; token: string } {
    const token = randomUUID();
    const realNow = Date.now();
    const rows = this.stmt.claim.all({
      queue,
      limit,
      token,
      now: this.clock.now().getTime(),
      realNow,
      leaseUntil: realNow + this.leaseMs,
    }) as JobRow[];
    return { rows, token };
  }

  renew(queue: string, id: string, token: string): void {
    this.stmt.renew.run({ queue, id, token, leaseUntil: Date.now() + this.leaseMs });
  }

  get renewEveryMs(): number {
    return Math.max(10, Math.floor(this.leaseMs / 3));
  }

  private complete(queue: string, id: string, token: string): void {
    this.stmt.complete.run({ queue, id, token, now: this.clock.now().getTime() });
  }

  /** Records a failed attempt (or a deferred run, which is none); true when the job is to run again at once. */
  private fail(row: JobRow, token: string, error: unknown): boolean {
    const now = this.clock.now().getTime();
    const deferral = deferredBy(error);
    if (deferral !== undefined) {
      const { queue, id, grp } = row;
      const holdUntil = Date.now() + deferral;
      this.places.assign(queue, grp, (place) => run(this.stmt.defer, { queue, id, token, holdUntil, now, place }));
      return deferral === 0;
    }
    const attemptsMade = row.attempts_made + 1;
    const dead = isUnrecoverable(error) || attemptsMade >= row.max_attempts;
    const delay = dead
      ? 0
      : backoffDelayMs(row.backoff ? (JSON.parse(row.backoff) as BackoffPolicy) : undefined, attemptsMade);
    this.stmt.fail.run({
      queue: row.queue,
      id: row.id,
      token,
      state: dead ? 'dead' : delay > 0 ? 'delayed' : 'waiting',
      dueAt: now + delay,
      error: errorMessage(error),
      now,
      finishedAt: dead ? now : null,
    });
    return !dead && delay === 0;
  }

  private wake(queue: string): void {
    for (const worker of this.workers) if (worker.queue === queue) worker.pump();
  }
}

function toInfo<T>(row: JobRow): JobInfo<T> {
  const info: JobInfo<T> = {
    id: row.id,
    queue: row.queue,
    name: row.name,
    data: JSON.parse(row.data) as T,
    attemptsMade: row.attempts_made,
    maxAttempts: row.max_attempts,
    // A deferred run's job holds a lease nobody has until it may run again.
    state: row.state === 'active' && row.lease_token === null ? 'delayed' : (row.state satisfies JobState),
  };
  if (row.last_error !== null) info.lastError = row.last_error;
  return info;
}
