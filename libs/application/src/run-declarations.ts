import type { EventMetadata } from '#event-store/event-store.js';
import type { SnapshotOptions } from './stream-snapshots.js';

/**
 * What commands and reads declare to the command runner, named once: when a command answers, what a read needs, what
 * a part of the process needs of every command it runs, and how the runner is set up. Handlers declare these; the
 * runner applies them (the waiting, the caching and the paging are in the runner only).
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
  /** When deciders that declare a snapshot codec have their state snapshotted (see StreamSnapshots). */
  snapshots?: SnapshotOptions;
}
