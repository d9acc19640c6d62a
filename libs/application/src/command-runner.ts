import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Decider, Event } from '#domain/decider.js';
import { RecentCache } from '#domain/recent-cache.js';
import {
  WrongExpectedVersion,
  appendBytes,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '#event-store/event-store.js';
import { conflictBackoff, defaultBackoff, isPermanent, tooLarge } from './command-retries.js';
import { KeyedLock } from './keyed-lock.js';
import { StreamSnapshots, type Folded, type SnapshotOptions } from './stream-snapshots.js';
import type { ProjectionWaiter } from '#read-models/runner/projection-waiter.js';
/** Something that can tell when the local read models have caught up with a position. */
export type { ProjectionWaiter };

export interface RunOptions {
  metadata: EventMetadata;
  /** Wait for read models to include this write before returning (default true). */
  waitForReadModels?: boolean;
  /** The read models the caller reads next; only they are waited for (default all). */
  readModels?: string[];
}

export interface RunResult<State, E> {
  state: State;
  events: E[];
  /** Global position of the last appended event; undefined when the decision produced no events. */
  position?: bigint;
}

export class CommandConflictError extends Error {
  override readonly name = 'CommandConflictError';
}

/** A queue holds commands of any decider on one stream; each item keeps its own types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQueued = Queued<any, any, any>;

/** A command waiting for its stream: decided together with the others queued behind the same lock. */
interface Queued<State, C, E extends Event> {
  decider: Decider<State, C, E>;
  command: C | ((state: State) => C);
  metadata: EventMetadata;
  resolve(result: RunResult<State, E>): void;
  reject(error: unknown): void;
}

/** Most commands decided together and appended in one write. */
const MAX_BATCH = 256;

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
  /** Events read at once when folding a stream (default all): streams of large events are folded page by page. */
  readPage?: number;
}

/**
 * The one command pipeline: read the stream, fold with `evolve`, `decide`, append with the
 * expected revision, retry on a revision conflict. Folded states are cached per stream (bounded)
 * and brought up to date by reading only the events after the cached revision, so long streams
 * (the ledger) are not re-read on every command.
 *
 * Commands on one stream are serialized within the process. Those that queue up while the stream
 * is busy are decided one after the other against the state their predecessors leave, and their
 * events are appended in one write (one fsync instead of one per command): a busy stream such as
 * a platform's ledger then costs about one commit per batch. A command its decider refuses is
 * refused alone; the batch's events are committed together or not at all, and on a revision
 * conflict (another process appended) the whole batch is decided again on the fresh state.
 *
 * Every event gets an id when it is decided, so an append retried after a transient error (its
 * first attempt may have been committed) is deduplicated by the store. A batch stays within the
 * store's `maxAppendBytes`: the commands that do not fit are left queued for the next append, and
 * a command whose own events exceed the limit is refused (its events are never split).
 */
export class CommandRunner {
  private readonly logger = new Logger('CommandRunner');
  /** Folded states of the streams used lately (`cacheSize`, default 10,000, at most). */
  private readonly cache: RecentCache<string, Folded<unknown>>;
  private readonly locks = new KeyedLock();
  private readonly queues = new Map<string, AnyQueued[]>();
  private readonly snapshots: StreamSnapshots;
  /** Snapshots being taken or written, one per stream at most. */
  private readonly snapshotting = new Map<string, Promise<void>>();

  constructor(
    private readonly store: EventStore,
    private readonly waiter: ProjectionWaiter | undefined,
    private readonly options: CommandRunnerOptions = {},
  ) {
    this.snapshots = new StreamSnapshots(store, this.logger, options.snapshots);
    this.cache = new RecentCache(options.cacheSize ?? 10_000);
  }

  /** Current state of a stream (not to be mutated by the caller). */
  async load<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
  ): Promise<{ state: State; revision: bigint }> {
    const { state, revision } = await this.withLock(streamName, () => this.catchUp(streamName, decider));
    return { state, revision };
  }

  /**
   * The stream's state as this process last saw it, read only when that does not satisfy `settled`: for what a
   * stream's first append fixes for good (a platform's kind and settlement accounts), which no later event changes.
   */
  async loadSettled<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    settled: (state: State) => boolean,
  ): Promise<State> {
    const cached = this.cache.get(streamName) as Folded<State> | undefined;
    if (cached && settled(cached.state)) return cached.state;
    return (await this.load(streamName, decider)).state;
  }

  /**
   * Caches a stream another component has just created with `events` (appended at `no_stream`), so that the first
   * command on it decides without reading it back (were the stream to change behind it, that command's append would
   * fail and be decided again on the stream as it is). A state cached already is newer and is kept.
   */
  created<S, C, E extends Event>(stream: string, decider: Decider<S, C, E>, events: E[], lastEventId: string): void {
    if (this.cache.has(stream) || events.length === 0) return;
    const state = events.reduce((s, e) => decider.evolve(s, e), decider.initialState());
    this.remember(stream, { state, revision: BigInt(events.length - 1), eventId: lastEventId });
  }

  /**
   * Decides and appends one command. `result.state` is the stream's state after the batch the
   * command was committed in; `result.position` is at or after the command's last event.
   */
  async run<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    command: C | ((state: State) => C),
    options: RunOptions,
  ): Promise<RunResult<State, E>> {
    const result = await new Promise<RunResult<State, E>>((resolve, reject) => {
      const item: Queued<State, C, E> = { decider, command, metadata: options.metadata, resolve, reject };
      const queue = this.queues.get(streamName);
      if (queue) {
        queue.push(item);
      } else {
        this.queues.set(streamName, [item]);
        this.scheduleDrain(streamName);
      }
    });
    if (result.position !== undefined && options.waitForReadModels !== false) {
      await this.waitForReadModels(result.position, options.readModels);
    }
    return result;
  }

  async waitForReadModels(position: bigint, projections?: string[]): Promise<void> {
    const timeout = this.options.readYourWritesTimeoutMs ?? 5000;
    // A zero timeout (the CLI) means: do not wait for a projector at all.
    if (!this.waiter || timeout === 0) return;
    const ok = await this.waiter.waitForPosition(position, timeout, projections);
    if (!ok) this.logger.warn(`read models did not reach position ${position} within ${timeout} ms`);
  }

  /** Invariant: a stream with a non-empty queue always has one drain scheduled behind its lock. */
  private scheduleDrain(streamName: string): void {
    void this.withLock(streamName, () => this.drain(streamName));
  }

  private async drain(streamName: string): Promise<void> {
    const queue = this.queues.get(streamName);
    if (!queue || queue.length === 0) return;
    // One decider per batch (a stream has one in practice); at most MAX_BATCH commands.
    let size = 1;
    while (size < queue.length && size < MAX_BATCH && queue[size].decider === queue[0].decider) size++;
    const batch = queue.splice(0, size);
    if (queue.length === 0) this.queues.delete(streamName);
    else this.scheduleDrain(streamName);
    await this.decideAndAppend(streamName, batch);
  }

  // eslint-disable-next-line max-lines-per-function -- 91 lines, to be split
  private async decideAndAppend<State, C, E extends Event>(
    streamName: string,
    batch: Queued<State, C, E>[],
  ): Promise<void> {
    const decider = batch[0].decider;
    const maxRetries = this.options.maxRetries ?? 30;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await conflictBackoff(attempt);
      const decided: { item: Queued<State, C, E>; events: E[]; stored: NewEvent[] }[] = [];
      const refused: { item: Queued<State, C, E>; error: unknown }[] = [];
      let deferred: Queued<State, C, E>[] = [];
      let bytes = 0;
      let folded: Folded<State>;
      let state: State;
      // The first attempt decides on the cached state without reading the stream: an append at its revision fails
      // if another process appended meanwhile, and a batch that appends nothing is checked before it is answered.
      const cached = attempt === 0 ? (this.cache.get(streamName) as Folded<State> | undefined) : undefined;
      try {
        folded = cached ?? (await this.catchUp(streamName, decider));
        state = folded.state;
        for (const [index, item] of batch.entries()) {
          let events: E[];
          try {
            const cmd = typeof item.command === 'function' ? (item.command as (s: State) => C)(state) : item.command;
            events = decider.decide(cmd, state);
          } catch (error) {
            refused.push({ item, error });
            continue;
          }
          const stored = events.map((e) => ({
            id: randomUUID(),
            type: e.type,
            data: e.data as unknown as Record<string, unknown>,
            metadata: item.metadata,
          }));
          const size = appendBytes(stored);
          if (size > this.store.maxAppendBytes) {
            refused.push({ item, error: tooLarge(streamName, size, this.store.maxAppendBytes) });
            continue;
          }
          if (bytes + size > this.store.maxAppendBytes) {
            // Decided before evolving: the state does not hold these events, so they are decided again later.
            deferred = batch.slice(index);
            break;
          }
          bytes += size;
          // The next command is decided on the state this one leaves (evolve may update in place).
          for (const e of events) state = decider.evolve(state, e);
          decided.push({ item, events, stored });
        }
      } catch (error) {
        // Reading the stream or evolving failed: the cached state may be half-updated.
        this.cache.delete(streamName);
        for (const item of batch) item.reject(error);
        return;
      }
      const events = decided.flatMap(({ stored }) => stored);
      let position: bigint | undefined;
      if (events.length === 0 && cached && (await this.hasNewer(streamName, cached.revision))) {
        // Refused or no-op on a state another process has moved past: decide again on the stream as it is (nothing
        // was evolved: no command of the batch had events, so none was deferred either).
        continue;
      }
      if (events.length > 0) {
        try {
          const appended = await this.appendWithRetries(streamName, events, folded.revision);
          position = appended.position;
          const next = { ...folded, state, revision: appended.nextExpectedRevision, eventId: events.at(-1)!.id };
          this.remember(streamName, next);
          this.considerSnapshot(streamName, decider, next);
        } catch (error) {
          // The cached state already holds this batch's events: forget it, fold again from the store.
          this.cache.delete(streamName);
          // Another process appended: decide the whole batch again on what it wrote.
          if (error instanceof WrongExpectedVersion && attempt < maxRetries) continue;
          const final =
            error instanceof WrongExpectedVersion
              ? new CommandConflictError(`stream ${streamName} kept changing; gave up after ${attempt + 1} attempts`)
              : error;
          for (const item of batch) if (!deferred.includes(item)) item.reject(final);
          this.requeue(streamName, deferred);
          return;
        }
      }
      this.requeue(streamName, deferred);
      for (const { item, events: own } of decided)
        item.resolve({ state, events: own, ...(own.length > 0 ? { position } : {}) });
      for (const { item, error } of refused) item.reject(error);
      return;
    }
  }

  /** Whether the stream has an event after `revision` (another process appended). */
  private async hasNewer(streamName: string, revision: bigint): Promise<boolean> {
    return (await this.store.readStream(streamName, { fromRevision: revision + 1n, maxCount: 1 })).length > 0;
  }

  /** Appends at the expected revision, retrying transient failures with the same event ids (bounded, with backoff). */
  private async appendWithRetries(streamName: string, events: NewEvent[], revision: bigint) {
    const retries = this.options.transientRetries ?? 4;
    const backoff = this.options.backoff ?? defaultBackoff;
    for (let retry = 0; ; retry++) {
      try {
        const expectedRevision = revision < 0n ? 'no_stream' : revision;
        return await this.store.appendToStream(streamName, events, { expectedRevision });
      } catch (error) {
        if (isPermanent(error) || retry >= retries) throw error;
        const reason = (error as Error)?.message;
        this.logger.warn(`append to ${streamName} failed (${reason}); retry ${retry + 1} of ${retries}`);
        await backoff(retry + 1);
      }
    }
  }

  /** Commands left out of a full batch go back to the head of their stream's queue, in order. */
  private requeue(streamName: string, items: AnyQueued[]): void {
    if (items.length === 0) return;
    const queue = this.queues.get(streamName);
    if (queue) {
      // A drain is already scheduled for a non-empty queue.
      queue.unshift(...items);
    } else {
      this.queues.set(streamName, [...items]);
      this.scheduleDrain(streamName);
    }
  }

  /**
   * The stream's current state: the cached one, else the newest valid snapshot's, else the initial state; brought up
   * to date with the events after it.
   */
  private async catchUp<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
  ): Promise<Folded<State>> {
    const cached = this.cache.get(streamName) as Folded<State> | undefined;
    let folded: Folded<State> = cached ??
      (await this.snapshots.restore(streamName, decider)) ?? { state: decider.initialState(), revision: -1n };
    const page = this.options.readPage;
    let read = 0;
    for (;;) {
      const fromRevision = folded.revision + 1n;
      const newer: RecordedEvent[] = await this.store.readStream(streamName, { fromRevision, maxCount: page });
      if (newer.length > 0) {
        let state = folded.state;
        for (const e of newer) state = decider.evolve(state, { type: e.type, data: e.data } as E);
        const last = newer[newer.length - 1];
        folded = { ...folded, state, revision: last.revision, eventId: last.id };
        read += newer.length;
      }
      if (page === undefined || newer.length < page) break;
    }
    this.remember(streamName, folded);
    if (read > 0) this.considerSnapshot(streamName, decider, folded);
    return folded;
  }

  /**
   * Takes a snapshot of a stream that has grown enough, off the path of the commands that made it grow: on a later
   * turn of the event loop (their replies go first), under the stream's lock (so the state is encoded as of one
   * revision: the cached state, which may by then be newer), and written after the lock is released. A failure is
   * logged and changes nothing else; the stream is snapshotted again once it has grown by as much again.
   */
  private considerSnapshot<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    folded: Folded<State>,
  ): void {
    const any = decider as unknown as Decider<unknown, unknown, Event>;
    if (this.snapshotting.has(streamName) || !this.snapshots.due(any, folded)) return;
    const work = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() =>
        this.withLock(streamName, async () => {
          const current = this.cache.get(streamName);
          return current && this.snapshots.due(any, current)
            ? this.snapshots.take(streamName, any, current)
            : undefined;
        }),
      )
      .then(async (snapshot) => {
        const binary = snapshot && (await this.snapshots.write(snapshot));
        if (!snapshot || !binary) return;
        // The store reads the binary part by range: the cached state reads it there too, and its copy is let go.
        await this.withLock(streamName, async () => {
          const current = this.cache.get(streamName);
          if (current) this.snapshots.rebind(any, current, snapshot, binary);
        });
      })
      .catch((error: unknown) =>
        this.logger.warn(`snapshot of ${streamName} not written: ${(error as Error)?.message ?? String(error)}`),
      )
      .finally(() => this.snapshotting.delete(streamName));
    this.snapshotting.set(streamName, work);
  }

  /** Settles once the snapshots under way are written or have failed (for tests and an orderly shutdown). */
  async snapshotsSettled(): Promise<void> {
    while (this.snapshotting.size > 0) await Promise.all([...this.snapshotting.values()]);
  }

  private remember(streamName: string, folded: Folded<unknown>): void {
    this.cache.set(streamName, folded);
  }

  /** Serializes work per stream inside this process, so one stream's commands queue instead of conflicting. */
  private withLock<T>(streamName: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(streamName, work);
  }
}
