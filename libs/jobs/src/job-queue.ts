/**
 * The job-queue port: webhook deliveries and durable timers. At-least-once: a handler may see a
 * job again after a crash, so handlers are idempotent.
 */
export interface BackoffPolicy {
  type: 'exponential' | 'fixed';
  /** First retry delay. Exponential: delay * 2^(attemptsMade-1). */
  delayMs: number;
  /** Upper bound for one delay. */
  maxDelayMs?: number;
}

export interface JobOptions {
  /** Dedupe key: enqueueing an id that is already known (waiting, delayed, active, done or dead) is a no-op. */
  id?: string;
  /** Run no earlier than this many ms from now (the queue's clock). */
  delayMs?: number;
  /** Total attempts including the first; default 1. */
  attempts?: number;
  backoff?: BackoffPolicy;
  /**
   * The clock the job's delay belongs to (a platform's id): `advanceGroup` brings the delayed
   * jobs of one group forward when that group's clock moves ahead of the queue clock. It is also the unit
   * of fairness, so one group's backlog does not hold another group's first jobs: both adapters give each group's
   * jobs places in turn, in the order they came (sqlite/group-places.ts, bullmq/group-places.ts).
   */
  group?: string;
}

export interface Job<T = unknown> {
  id: string;
  queue: string;
  name: string;
  data: T;
  /** Attempts made before this one (0 on the first run). */
  attemptsMade: number;
  maxAttempts: number;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'dead';

export interface JobInfo<T = unknown> extends Job<T> {
  state: JobState;
  lastError?: string;
}

/** Thrown by a handler to end the job at once without further retries. */
export class UnrecoverableJobError extends Error {
  override readonly name = 'UnrecoverableJobError';
}

/**
 * Thrown by a handler that did not make its attempt (what it calls is busy): the job is delayed for `delayMs` of real
 * time (not the queue clock: what it waits for frees in real time), then runs again with its attempts and last error
 * as they were. Neither `promoteDue` nor `advanceGroup` brings it forward.
 */
export class DeferredJobError extends Error {
  override readonly name = 'DeferredJobError';
  constructor(
    readonly delayMs: number,
    message = `deferred by ${delayMs} ms`,
  ) {
    super(message);
  }
}

export interface QueueDepth {
  waiting: number;
  delayed: number;
  active: number;
  dead: number;
}

/** The most jobs a depth count goes through per state (then it reports this number). */
export const DEPTH_CAP = 10_000;

export interface Worker {
  close(): Promise<void>;
}

export interface JobQueue {
  enqueue<T>(queue: string, name: string, data: T, options?: JobOptions): Promise<string>;
  /** Starts processing a queue with at most `concurrency` handlers at once. */
  process<T>(queue: string, handler: (job: Job<T>) => Promise<void>, options?: { concurrency?: number }): Worker;
  getJob<T = unknown>(queue: string, id: string): Promise<JobInfo<T> | undefined>;
  /** Jobs that used their last attempt (or failed unrecoverably). */
  deadLetters<T = unknown>(queue: string, options?: { limit?: number }): Promise<JobInfo<T>[]>;
  /**
   * How many jobs of `queue` wait, wait for their due time, run, or are dead: only those of `group`
   * when given (a platform sees its own jobs). Counting stops at DEPTH_CAP per state.
   */
  depth(queue: string, group?: string): Promise<QueueDepth>;
  /**
   * When the longest-waiting runnable job of `queue` became due (queue clock), or undefined when none is due and not
   * running: how far behind its workers are. Looks at most at DEPTH_CAP jobs.
   */
  oldestDue(queue: string): Promise<Date | undefined>;
  /** Puts a dead job back to waiting with a fresh attempt budget. */
  retryDead(queue: string, id: string): Promise<boolean>;
  /**
   * Makes delayed jobs whose due time (on the queue's clock) has passed runnable now. Called
   * after the sandbox clock advances, so timers fire without waiting.
   */
  promoteDue(): Promise<number>;
  /**
   * The group's clock moved `byMs` ahead: its delayed jobs (retries included) become due `byMs`
   * earlier on the queue clock, and those now due run at once. Returns how many became due.
   * Other groups' jobs are untouched.
   */
  advanceGroup(group: string, byMs: number): Promise<number>;
  close(): Promise<void>;
}
