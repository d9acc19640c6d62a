import { randomUUID } from 'node:crypto';
import type { Clock } from '#domain/clock.js';
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

interface StoredJob {
  id: string;
  queue: string;
  name: string;
  data: unknown;
  attemptsMade: number;
  maxAttempts: number;
  backoff?: BackoffPolicy;
  group?: string;
  state: Exclude<JobState, 'failed'>;
  /** When it is (or became) due, on the queue clock (ms). */
  dueAt: number;
  /** Held in real time after a DeferredJobError: no promotion brings it forward. */
  deferred: boolean;
  lastError?: string;
  /** Order of enqueueing and of becoming due again: runnable jobs run oldest first. */
  seq: number;
}

/**
 * What an in-memory job queue keeps "durably": every queue's jobs. Queues opened on one store share them, as
 * processes share a database; a process that stops leaves its running jobs `active` until `recoverActive` (a new
 * process's start) puts them back to waiting, so they run again (at least once).
 */
export class MemoryJobStore {
  readonly queues = new Map<string, Map<string, StoredJob>>();
  /** Wakes the workers when jobs become runnable. */
  readonly listeners = new Set<() => void>();
  seq = 0;

  jobsOf(queue: string): Map<string, StoredJob> {
    let jobs = this.queues.get(queue);
    if (!jobs) this.queues.set(queue, (jobs = new Map()));
    return jobs;
  }

  wake(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Jobs left active by a process that stopped run again. */
  recoverActive(): number {
    let recovered = 0;
    for (const jobs of this.queues.values()) {
      for (const job of jobs.values()) {
        if (job.state !== 'active') continue;
        job.state = 'waiting';
        job.seq = this.seq++;
        recovered++;
      }
    }
    if (recovered > 0) this.wake();
    return recovered;
  }
}

/**
 * The JobQueue port over memory, held to the job-queue contract suite like the SQLite and BullMQ adapters: for
 * tests and the simulator. Delays and retries are on the given clock; a deferred job waits in real time
 * (`setTimeout`, which a simulation replaces with its own).
 */
export class MemoryJobQueue implements JobQueue {
  readonly store: MemoryJobStore;
  private readonly workers = new Set<MemoryWorker>();

  constructor(
    private readonly clock: Clock,
    store?: MemoryJobStore,
    /** Ids of jobs enqueued without one (default: random uuids). */
    private readonly ids: () => string = randomUUID,
  ) {
    this.store = store ?? new MemoryJobStore();
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  async enqueue<T>(queue: string, name: string, data: T, options: JobOptions = {}): Promise<string> {
    const jobs = this.store.jobsOf(queue);
    const id = options.id ?? this.ids();
    if (jobs.has(id)) return id;
    const delay = delayOf(options.delayMs);
    const job: StoredJob = {
      id,
      queue,
      name,
      data: structuredClone(data),
      attemptsMade: 0,
      maxAttempts: attemptBudget(options.attempts),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.group !== undefined ? { group: options.group } : {}),
      state: delay > 0 ? 'delayed' : 'waiting',
      dueAt: this.now() + delay,
      deferred: false,
      seq: this.store.seq++,
    };
    jobs.set(id, job);
    if (job.state === 'waiting') this.store.wake();
    return id;
  }

  process<T>(queue: string, handler: (job: Job<T>) => Promise<void>, options: { concurrency?: number } = {}): Worker {
    const worker = new MemoryWorker(this, queue, handler as (job: Job<unknown>) => Promise<void>, options.concurrency);
    this.workers.add(worker);
    return { close: () => worker.close() };
  }

  /** The oldest runnable job of `queue`, now active (undefined when none waits). */
  take(queue: string): StoredJob | undefined {
    let next: StoredJob | undefined;
    for (const job of this.store.jobsOf(queue).values())
      if (job.state === 'waiting' && (!next || job.seq < next.seq)) next = job;
    if (next) next.state = 'active';
    return next;
  }

  /** Records how a run of `job` ended. */
  settle(job: StoredJob, error?: unknown): void {
    if (error === undefined) {
      job.attemptsMade++;
      job.state = 'completed';
      delete job.lastError;
      return;
    }
    const deferred = deferredBy(error);
    if (deferred !== undefined) {
      job.state = 'delayed';
      job.deferred = true;
      this.holdInRealTime(job, Date.now() + deferred);
      return;
    }
    job.attemptsMade++;
    job.lastError = errorMessage(error);
    if (isUnrecoverable(error) || job.attemptsMade >= job.maxAttempts) {
      job.state = 'dead';
      return;
    }
    const delay = backoffDelayMs(job.backoff, job.attemptsMade);
    job.dueAt = this.now() + delay;
    job.state = delay > 0 ? 'delayed' : 'waiting';
    job.seq = this.store.seq++;
    if (job.state === 'waiting') this.store.wake();
  }

  /** A timer may fire a millisecond before the wall clock reaches its time; the hold re-arms until it has. */
  private holdInRealTime(job: StoredJob, releaseAt: number): void {
    setTimeout(
      () => (Date.now() < releaseAt ? this.holdInRealTime(job, releaseAt) : this.release(job)),
      Math.max(0, releaseAt - Date.now()),
    );
  }

  private release(job: StoredJob): void {
    if (job.state !== 'delayed' || !job.deferred) return;
    job.deferred = false;
    job.state = 'waiting';
    job.seq = this.store.seq++;
    this.store.wake();
  }

  async getJob<T = unknown>(queue: string, id: string): Promise<JobInfo<T> | undefined> {
    const job = this.store.queues.get(queue)?.get(id);
    return job ? info<T>(job) : undefined;
  }

  async deadLetters<T = unknown>(queue: string, options: { limit?: number } = {}): Promise<JobInfo<T>[]> {
    const dead = [...this.store.jobsOf(queue).values()].filter((job) => job.state === 'dead');
    return dead.slice(0, options.limit ?? DEPTH_CAP).map((job) => info<T>(job));
  }

  async depth(queue: string, group?: string): Promise<QueueDepth> {
    const depth: QueueDepth = { waiting: 0, delayed: 0, active: 0, dead: 0 };
    for (const job of this.store.jobsOf(queue).values()) {
      if (group !== undefined && job.group !== group) continue;
      if (job.state !== 'completed' && depth[job.state] < DEPTH_CAP) depth[job.state]++;
    }
    return depth;
  }

  async oldestDue(queue: string): Promise<Date | undefined> {
    let oldest: number | undefined;
    for (const job of this.store.jobsOf(queue).values())
      if (job.state === 'waiting' && (oldest === undefined || job.dueAt < oldest)) oldest = job.dueAt;
    return oldest === undefined ? undefined : new Date(oldest);
  }

  async retryDead(queue: string, id: string): Promise<boolean> {
    const job = this.store.queues.get(queue)?.get(id);
    if (!job || job.state !== 'dead') return false;
    Object.assign(job, { state: 'waiting', attemptsMade: 0, dueAt: this.now(), seq: this.store.seq++ });
    delete job.lastError;
    this.store.wake();
    return true;
  }

  async promoteDue(): Promise<number> {
    return this.promote(() => true, 0);
  }

  async advanceGroup(group: string, byMs: number): Promise<number> {
    return this.promote((job) => job.group === group, byMs);
  }

  /** Brings the matching delayed jobs `byMs` earlier; those now due become runnable. Answers how many did. */
  private promote(matches: (job: StoredJob) => boolean, byMs: number): number {
    const now = this.now();
    let promoted = 0;
    for (const jobs of this.store.queues.values()) {
      for (const job of jobs.values()) {
        if (job.state !== 'delayed' || job.deferred || !matches(job)) continue;
        job.dueAt -= byMs;
        if (job.dueAt > now) continue;
        job.state = 'waiting';
        job.seq = this.store.seq++;
        promoted++;
      }
    }
    if (promoted > 0) this.store.wake();
    return promoted;
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.close()));
  }
}

/** Runs one queue's jobs with at most `concurrency` handlers at once, woken when jobs become runnable. */
class MemoryWorker {
  private running = 0;
  private closed = false;
  private readonly runs = new Set<Promise<void>>();
  private readonly listener = () => this.pump();

  constructor(
    private readonly queue: MemoryJobQueue,
    private readonly name: string,
    private readonly handler: (job: Job<unknown>) => Promise<void>,
    private readonly concurrency = 1,
  ) {
    queue.store.listeners.add(this.listener);
    queueMicrotask(this.listener);
  }

  private pump(): void {
    while (!this.closed && this.running < this.concurrency) {
      const job = this.queue.take(this.name);
      if (!job) return;
      this.running++;
      const run = this.run(job).finally(() => {
        this.running--;
        this.runs.delete(run);
        this.pump();
      });
      this.runs.add(run);
    }
  }

  private async run(job: StoredJob): Promise<void> {
    const { id, queue, name, attemptsMade, maxAttempts } = job;
    try {
      await this.handler({ id, queue, name, data: structuredClone(job.data), attemptsMade, maxAttempts });
    } catch (error) {
      this.queue.settle(job, error ?? new Error('the handler failed'));
      return;
    }
    this.queue.settle(job);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.store.listeners.delete(this.listener);
    await Promise.all([...this.runs]);
  }
}

function info<T>(job: StoredJob): JobInfo<T> {
  const { id, queue, name, attemptsMade, maxAttempts, state, lastError } = job;
  return {
    id,
    queue,
    name,
    data: structuredClone(job.data) as T,
    attemptsMade,
    maxAttempts,
    state,
    ...(lastError !== undefined ? { lastError } : {}),
  };
}
