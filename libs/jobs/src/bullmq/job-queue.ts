import { randomUUID } from 'node:crypto';
import {
  DelayedError,
  Queue,
  UnrecoverableError,
  Worker as BullWorker,
  type Job as BullJob,
  type MinimalJob,
} from 'bullmq';
import { Redis } from 'ioredis';
import type { Clock } from '#domain/clock.js';
import { PROMOTE_PAGE, eachEnvelope, type Envelope, type JobStates } from './envelopes.js';
import { GroupPlaces } from './group-places.js';
import { attemptBudget, backoffDelayMs, deferredBy, delayOf, errorMessage, isUnrecoverable } from '../backoff.js';
import {
  DEPTH_CAP,
  type Job,
  type JobInfo,
  type JobOptions,
  type JobQueue,
  type JobState,
  type QueueDepth,
  type Worker,
} from '../job-queue.js';

export interface BullmqJobQueueOptions {
  /** redis:// URL; the server must use `maxmemory-policy noeviction`. */
  url: string;
  /** Queue clock: delays and backoff are measured on it. */
  clock: Clock;
  /** Redis key prefix for every queue (BullMQ's `prefix`). */
  prefix?: string;
  /**
   * Completed jobs are kept so that enqueueing their id again stays a no-op. BullMQ trims them
   * when later jobs of the queue complete: dedupe of completed ids therefore holds for this many
   * seconds (default 30 days) and for the newest `keepCompletedCount` (default 500 000) per queue.
   * Dead jobs are kept until retried.
   */
  keepCompletedSeconds?: number;
  keepCompletedCount?: number;
  /** Crashes of a worker holding a job tolerated before the job is dead-lettered. */
  maxStalledCount?: number;
  /** Connection and worker errors (BullMQ retries them itself). */
  onError?: (error: unknown) => void;
  /** Once a queue's floor reaches this place, its places move down by it (default 2^20; see `group-places.ts`). */
  placesRebaseAt?: number;
}

/** Name of the custom backoff strategy: the delay comes from the port's policy, on the queue clock. */
const QUEUE_CLOCK_BACKOFF = 'queue-clock';
const MIN_REDELAY_MS = 1000;

/** Promotes a delayed job; false when a worker started it or it was removed meanwhile. */
async function promoteJob(job: BullJob): Promise<boolean> {
  try {
    await job.promote();
    return true;
  } catch {
    return false;
  }
}

/** A deferred run's job still held in real time. */
const held = (envelope: Envelope) => envelope.heldUntil !== undefined && envelope.heldUntil > Date.now();

/**
 * BullMQ custom job ids and queue names may not contain ':' and ids may not look like integers:
 * percent-escape ':' (and '%' so decoding is exact), and prefix ids.
 */
const escapeName = (value: string) => value.replace(/%/g, '%25').replace(/:/g, '%3A');
const unescapeName = (value: string) => value.replace(/%(25|3A)/g, (match) => (match === '%25' ? '%' : ':'));
export const encodeJobId = (id: string) => `j_${escapeName(id)}`;
export const decodeJobId = (encoded: string) => unescapeName(encoded.startsWith('j_') ? encoded.slice(2) : encoded);

/**
 * The job-queue port on BullMQ. BullMQ schedules on real time; the port schedules on the queue
 * clock, which the sandbox can move ahead. So each job stores its due time on the queue clock,
 * BullMQ gets the equivalent real delay, `promoteDue` promotes delayed jobs that are due on the
 * queue clock, and a job that BullMQ starts before it is due on the queue clock (a clock that
 * runs slower than real time) is put back to delayed. Retries use BullMQ's attempts with a
 * custom backoff strategy that computes the port's backoff and records the new due time.
 *
 * BullMQ takes waiting jobs in order, so one group's backlog (a platform's 1,500 webhooks to a dead receiver, each
 * deferred in turn) would hold another group's first job behind it: each job's priority is its place, fair between
 * groups (`group-places.ts`), so a group's jobs keep their order and a group with nothing waiting starts at the front.
 */
export class BullmqJobQueue implements JobQueue {
  private readonly clock: Clock;
  private readonly prefix: string;
  /** Producer side: commands fail after a few retries instead of waiting forever. */
  private readonly client: Redis;
  /** Worker side: BullMQ requires commands that wait for a reconnect indefinitely. */
  private readonly workerClient: Redis;
  private readonly queues = new Map<string, Promise<Queue>>();
  private readonly workers = new Set<BullWorker>();
  private readonly keepCompleted: { age: number; count: number };
  private readonly maxStalledCount: number;
  private readonly onError: (error: unknown) => void;
  /** The places of jobs in the claim order, fair between groups. */
  private readonly places: GroupPlaces;
  private closing: Promise<void> | undefined;

  constructor(options: BullmqJobQueueOptions) {
    this.clock = options.clock;
    this.prefix = options.prefix ?? 'bull';
    this.keepCompleted = {
      age: options.keepCompletedSeconds ?? 30 * 24 * 3600,
      count: options.keepCompletedCount ?? 500_000,
    };
    this.maxStalledCount = options.maxStalledCount ?? 10;
    this.onError = options.onError ?? ((error) => console.error('job queue (bullmq) error', error));
    // Clients are built here and handed to BullMQ: in native ESM BullMQ cannot load ioredis itself.
    this.client = new Redis(options.url, { maxRetriesPerRequest: 3 });
    this.workerClient = new Redis(options.url, { maxRetriesPerRequest: null });
    this.places = new GroupPlaces(this.client, options.placesRebaseAt);
    this.client.on('error', this.onError);
    this.workerClient.on('error', this.onError);
  }

  /** Fails when Redis is not reachable, so a misconfiguration shows at start. */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  async enqueue<T>(queue: string, name: string, data: T, options: JobOptions = {}): Promise<string> {
    const id = options.id ?? randomUUID();
    const delayMs = delayOf(options.delayMs);
    const attempts = attemptBudget(options.attempts);
    const envelope: Envelope<T | null> = { payload: data ?? null, dueAt: this.clock.now().getTime() + delayMs };
    if (options.backoff) envelope.backoff = options.backoff;
    if (options.group) envelope.group = options.group;
    const bull = await this.queue(queue);
    const jobId = encodeJobId(id);
    // 0 when the job exists: its id makes add() a no-op (which returns a job object that is not the stored one).
    const priority = await this.places.join(bull, envelope.group, jobId);
    await bull.add(name, envelope, {
      jobId,
      ...(priority > 0 ? { priority } : {}),
      delay: delayMs,
      attempts,
      ...(options.backoff ? { backoff: { type: QUEUE_CLOCK_BACKOFF, delay: options.backoff.delayMs } } : {}),
      removeOnComplete: this.keepCompleted,
      removeOnFail: false,
    });
    return id;
  }

  process<T>(queue: string, handler: (job: Job<T>) => Promise<void>, options: { concurrency?: number } = {}): Worker {
    if (this.closing) throw new Error('job queue is closed');
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    this.queue(queue).catch(this.onError);
    const worker = new BullWorker(
      escapeName(queue),
      async (job: BullJob, token?: string) => {
        const envelope = job.data as Envelope<T>;
        const now = this.clock.now().getTime();
        if (envelope.dueAt > now) {
          // Real time ran ahead of the queue clock: wait for the clock (or promoteDue). At least
          // a second, so a clock that stands still does not make the job spin.
          await job.moveToDelayed(Date.now() + Math.max(envelope.dueAt - now, MIN_REDELAY_MS), token);
          throw new DelayedError();
        }
        try {
          await handler({
            id: decodeJobId(job.id!),
            queue,
            name: job.name,
            data: envelope.payload,
            attemptsMade: job.attemptsMade,
            maxAttempts: job.opts.attempts ?? 1,
          });
        } catch (error) {
          const deferral = deferredBy(error);
          if (deferral !== undefined) {
            // Not an attempt: back to delayed in real time without using one (BullMQ's moveToDelayed skips it), at
            // the back of its group.
            const heldUntil = Date.now() + deferral;
            await job.updateData({ ...envelope, heldUntil });
            await job.changePriority({ priority: await this.places.again(await this.queue(queue), envelope.group) });
            await job.moveToDelayed(heldUntil, token);
            throw new DelayedError();
          }
          const unrecoverable = isUnrecoverable(error);
          if (unrecoverable) throw new UnrecoverableError(errorMessage(error));
          throw error instanceof Error && error.message ? error : new Error(errorMessage(error));
        }
      },
      {
        connection: this.workerClient,
        prefix: this.prefix,
        concurrency,
        maxStalledCount: this.maxStalledCount,
        settings: {
          backoffStrategy: (attemptsMade: number, _type?: string, _error?: Error, job?: MinimalJob) =>
            this.retryDelay(attemptsMade, job),
        },
      },
    );
    worker.on('error', this.onError);
    this.workers.add(worker);
    return {
      close: async () => {
        await worker.close();
        this.workers.delete(worker);
      },
    };
  }

  async getJob<T = unknown>(queue: string, id: string): Promise<JobInfo<T> | undefined> {
    const job = await (await this.queue(queue)).getJob(encodeJobId(id));
    if (!job) return undefined;
    const state = toState(await job.getState());
    return state ? toInfo<T>(queue, job, state) : undefined;
  }

  async deadLetters<T = unknown>(queue: string, options: { limit?: number } = {}): Promise<JobInfo<T>[]> {
    const limit = options.limit ?? 100;
    if (limit <= 0) return [];
    const jobs = await (await this.queue(queue)).getFailed(0, limit - 1);
    return jobs.map((job) => toInfo<T>(queue, job, 'dead'));
  }

  async depth(queue: string, group?: string): Promise<QueueDepth> {
    const q = await this.queue(queue);
    if (group === undefined) {
      const counts = await q.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
      const cap = (n: number | undefined) => Math.min(n ?? 0, DEPTH_CAP);
      return {
        waiting: cap((counts.waiting ?? 0) + (counts.prioritized ?? 0)),
        delayed: cap(counts.delayed),
        active: cap(counts.active),
        dead: cap(counts.failed),
      };
    }
    // Groups live in the job envelopes: count a state's jobs page by page, up to the cap.
    const count = async (types: JobStates) => {
      let n = 0;
      await eachEnvelope(q, types, (envelope) => (n += envelope?.group === group ? 1 : 0));
      return Math.min(n, DEPTH_CAP);
    };
    return {
      waiting: await count(['waiting', 'prioritized']),
      delayed: await count(['delayed']),
      active: await count(['active']),
      dead: await count(['failed']),
    };
  }

  async oldestDue(queue: string): Promise<Date | undefined> {
    const now = this.clock.now().getTime();
    let oldest = Infinity;
    await eachEnvelope(await this.queue(queue), ['waiting', 'prioritized', 'delayed'], (envelope) => {
      if (envelope && envelope.dueAt <= now) oldest = Math.min(oldest, envelope.dueAt);
    });
    return oldest === Infinity ? undefined : new Date(oldest);
  }

  async retryDead(queue: string, id: string): Promise<boolean> {
    const bull = await this.queue(queue);
    const job = await bull.getJob(encodeJobId(id));
    if (!job || (await job.getState()) !== 'failed') return false;
    try {
      const envelope = job.data as Envelope;
      await job.updateData({ ...envelope, dueAt: this.clock.now().getTime() });
      // At the back of its group.
      await job.changePriority({ priority: await this.places.again(bull, envelope.group) });
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    } catch {
      // Retried concurrently or no longer failed.
      return false;
    }
    return true;
  }

  async promoteDue(): Promise<number> {
    const now = this.clock.now().getTime();
    let promoted = 0;
    for (const job of await this.delayedJobs((envelope) => envelope.dueAt <= now && !held(envelope))) {
      if (await promoteJob(job)) promoted += 1;
    }
    return promoted;
  }

  async advanceGroup(group: string, byMs: number): Promise<number> {
    if (!Number.isFinite(byMs) || byMs <= 0) return 0;
    const now = this.clock.now().getTime();
    let promoted = 0;
    for (const job of await this.delayedJobs((envelope) => envelope.group === group && !held(envelope))) {
      const envelope = job.data as Envelope;
      const dueAt = envelope.dueAt - byMs;
      try {
        await job.updateData({ ...envelope, dueAt });
        if (dueAt > now) await job.changeDelay(dueAt - now);
        else if (await promoteJob(job)) promoted += 1;
      } catch {
        // Started by a worker or removed meanwhile: a started job checks its due time itself.
      }
    }
    return promoted;
  }

  /**
   * Delayed jobs of every queue (in any process) whose envelope matches; collected before any is moved, so pages do not
   * shift.
   */
  private async delayedJobs(matches: (envelope: Envelope) => boolean): Promise<BullJob[]> {
    const names = await this.client.smembers(this.registryKey);
    const found: BullJob[] = [];
    for (const name of names) {
      const queue = await this.queue(name);
      for (let start = 0; ; start += PROMOTE_PAGE) {
        const page = await queue.getDelayed(start, start + PROMOTE_PAGE - 1);
        found.push(...page.filter((job) => matches(job.data as Envelope)));
        if (page.length < PROMOTE_PAGE) break;
      }
    }
    return found;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // Workers first: close() waits for the handlers that are running.
      await Promise.all([...this.workers].map((worker) => worker.close()));
      this.workers.clear();
      const queues = await Promise.allSettled(this.queues.values());
      await Promise.all(queues.map((queue) => (queue.status === 'fulfilled' ? queue.value.close() : undefined)));
      await Promise.all([shutdown(this.client), shutdown(this.workerClient)]);
    })();
    return this.closing;
  }

  /** Backoff strategy: the port's delay, with the job's new due time recorded on the queue clock. */
  private async retryDelay(attemptsMade: number, job: MinimalJob | undefined): Promise<number> {
    if (!job) return 0;
    const envelope = job.data as Envelope;
    const delay = backoffDelayMs(envelope.backoff, attemptsMade);
    await job.updateData({ ...envelope, dueAt: this.clock.now().getTime() + delay });
    return delay;
  }

  private get registryKey(): string {
    // One colon only, so it cannot collide with BullMQ's `<prefix>:<queue>:<suffix>` keys.
    return `${this.prefix}:job-queue-names`;
  }

  /** Queue names are recorded in Redis so that promoteDue in any process sees every queue. */
  private queue(name: string): Promise<Queue> {
    if (this.closing) return Promise.reject(new Error('job queue is closed'));
    let queue = this.queues.get(name);
    if (!queue) {
      queue = (async () => {
        await this.client.sadd(this.registryKey, name);
        const created = new Queue(escapeName(name), { connection: this.client, prefix: this.prefix });
        created.on('error', this.onError);
        return created;
      })();
      queue.catch(() => this.queues.delete(name));
      this.queues.set(name, queue);
    }
    return queue;
  }
}

async function shutdown(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit();
  else client.disconnect();
}

function toState(state: string): JobState | undefined {
  switch (state) {
    case 'completed':
    case 'delayed':
    case 'active':
      return state;
    case 'failed':
      // BullMQ keeps a job failed only once it has no attempts left (or failed unrecoverably).
      return 'dead';
    case 'unknown':
      return undefined;
    default:
      // waiting, prioritized, waiting-children
      return 'waiting';
  }
}

function toInfo<T>(queue: string, job: BullJob, state: JobState): JobInfo<T> {
  const info: JobInfo<T> = {
    id: decodeJobId(job.id!),
    queue,
    name: job.name,
    data: (job.data as Envelope<T>).payload,
    attemptsMade: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    state,
  };
  if (job.failedReason) info.lastError = job.failedReason;
  return info;
}
