import { DomainError } from '#domain/errors.js';
import { AppendTooLarge, WrongExpectedVersion, type EventMetadata } from '#event-store/event-store.js';
import type { SnapshotOptions } from './stream-snapshots.js';
import type { ProjectionWaiter } from '#read-models/runner/projection-waiter.js';

/** Something that can tell when the local read models have caught up with a position. */
export type { ProjectionWaiter };

/**
 * What commands and reads declare to the command runner, named once: when a command answers, what a read needs, what
 * a part of the process needs of every command it runs, and how the runner is set up. Handlers declare these; the
 * runner applies them (the waiting, the caching and the paging are in the runner only). Below them, the runner's own
 * policies: one piece of work at a time per stream (`KeyedLock`) and the retries after a conflict or a failed append.
 */

/**
 * When a command's answer is given. `projection` (the default): once the local read models include its write, so the
 * caller reads what it wrote (all read models, or only `readModels`). `append`: once its events are appended, for
 * what no read model shows (challenges, counters, claims) or a caller that waits itself (`projected`).
 */
export type AnswersAfter = 'append' | 'projection';

export interface RunOptions {
  metadata: EventMetadata;
  answersAfter?: AnswersAfter;
  /** The read models the caller reads next; only they are waited for (default all). */
  readModels?: string[];
}

/**
 * What a read of a stream needs. `current` (the default): the stream as it is now. `fixed-facts`: only facts that
 * never change once recorded (what a stream's creation fixes, such as a platform's kind and settlement accounts or a
 * card's holder; a challenge's payload), so the state this process last saw serves, unread, once `known` holds of it.
 */
export type Reads<State> = { reads?: 'current' } | { reads: 'fixed-facts'; known: (state: State) => boolean };

/**
 * What a part of the process declares once for every command it runs through `CommandRunner.for`. `answersAfter`
 * `append`: none of its commands waits for the read models, whatever it declares (the worker's commands have no
 * reader waiting for them). `cache`: the folded states of its streams are kept in a cache of their own, of `size`
 * streams (default `cacheSize`), so that streams it touches once (a bulk import's customers, webhook deliveries) do
 * not push those the requests use out of the runner's cache. `readPage`: its streams are folded that many events at
 * a time (streams of large events, such as a bulk import's rows).
 */
export interface RunnerUse {
  answersAfter?: AnswersAfter;
  cache?: { name: string; size?: number };
  readPage?: number;
}

export interface RunResult<State, E> {
  state: State;
  events: E[];
  /** Global position of the last appended event; undefined when the decision produced no events. */
  position?: bigint;
}

export interface CommandRunnerOptions {
  maxRetries?: number;
  readYourWritesTimeoutMs?: number;
  cacheSize?: number;
  /** Retries of an append that failed with a transient error (not a revision conflict), default 4. */
  transientRetries?: number;
  /** Waits before the nth transient retry (from 1); exponential from 50 ms by default. */
  backoff?: (retry: number) => Promise<void>;
  /** The ids given to decided events (default: random uuids); a simulation's are drawn from its seed. */
  eventIds?: () => string;
  /** When deciders that declare a snapshot codec have their state snapshotted (see StreamSnapshots). */
  snapshots?: SnapshotOptions;
}

/** Most commands decided together and appended in one write. */
export const MAX_BATCH = 256;

/** One command whose events alone exceed what the event store accepts in one append. */
export const tooLarge = (streamName: string, bytes: number, limit: number) =>
  new DomainError(
    'unprocessable',
    'EVENTS_TOO_LARGE',
    `the command's events (${bytes} bytes) exceed the event store's append limit of ${limit} bytes`,
    { reason: `stream ${streamName}` },
  );

/**
 * Wait before deciding again after a revision conflict: full jitter over an exponentially growing
 * window (2 ms doubling, at most 100 ms), so processes writing one hot stream stop colliding in step.
 */
export const conflictBackoff = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));

export const defaultBackoff = (retry: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 50 * 2 ** (retry - 1)));

/** Errors that say something about the request rather than the connection: retrying cannot help. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof WrongExpectedVersion ||
    error instanceof AppendTooLarge ||
    error instanceof TypeError ||
    error instanceof RangeError
  );
}

export class CommandConflictError extends Error {
  override readonly name = 'CommandConflictError';
}

/** What a batch's commands are refused with once its append failed for good (`attempt` counted from 0). */
export const finalAppendError = (error: unknown, streamName: string, attempt: number): unknown =>
  error instanceof WrongExpectedVersion
    ? new CommandConflictError(`stream ${streamName} kept changing; gave up after ${attempt + 1} attempts`)
    : error;

/**
 * Runs work one at a time per key inside this process, in call order; a failed piece of work does
 * not block the next. Keys with nothing queued hold no memory. Across processes, streams' expected
 * revisions keep writers honest: this only spares conflicts between callers of one process.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or queued. */
  get size(): number {
    return this.tails.size;
  }
}
