import { Logger } from '@nestjs/common';
import type { Decider, Event } from '#domain/decider.js';
import { RecentCache } from '#domain/primitives.js';
import {
  WrongExpectedVersion,
  appendBytes,
  serializedEvents,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '#event-store/event-store.js';
import {
  CommandConflictError,
  type CommandRunnerOptions,
  conflictBackoff,
  defaultBackoff,
  finalAppendError,
  type Folded,
  isPermanent,
  KeyedLock,
  MAX_BATCH,
  type ProjectionWaiter,
  type Reads,
  type RunnerUse,
  type RunOptions,
  type RunResult,
  StreamSnapshots,
  tooLarge,
} from './command-runner-policy.js';
export type * from './command-runner-policy.js';

export { CommandConflictError };

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

/** A batch decided on one folded state: the state it leaves, the commands decided, refused and left for later. */
interface DecidedBatch<State, C, E extends Event> {
  folded: Folded<State>;
  state: State;
  decided: { item: Queued<State, C, E>; events: E[]; stored: NewEvent[] }[];
  refused: { item: Queued<State, C, E>; error: unknown }[];
  deferred: Queued<State, C, E>[];
}

/**
 * The one command pipeline: read the stream, fold with `evolve`, `decide`, append with the expected revision, retry on
 * a revision conflict. Folded states are cached per stream (bounded) and brought up to date by reading only the events
 * after the cached revision, so long streams (the ledger) are not re-read on every command. It applies what commands
 * and reads declare (`command-runner-policy.ts`): the waits for the read models, the cached reads, the paging.
 *
 * Commands on one stream are serialized within the process. Those that queue up while the stream
 * is busy are decided one after the other against the state their predecessors leave, and their
 * events are appended in one write (one fsync instead of one per command): a busy stream such as
 * a platform's ledger then costs about one commit per batch. A command its decider refuses is
 * refused alone; the batch's events are committed together or not at all, and on a revision
 * conflict (another process appended) the whole batch is decided again on the fresh state.
 *
 * Every event gets an id when it is decided, so an append retried after a transient error (its first attempt may have
 * been committed) is deduplicated by the store. A batch stays within the store's `maxAppendBytes`: the commands that
 * do not fit are left queued for the next append, and a command too large alone is refused (never split).
 */
export class CommandRunner {
  private readonly logger = new Logger('CommandRunner');
  /** Folded states of the streams used lately (`cacheSize`, default 10,000, at most). */
  private readonly cache: RecentCache<string, Folded<unknown>>;
  /** The caches of the parts that keep their streams apart (`RunnerUse.cache`), by name. */
  private readonly partCaches = new Map<string, RecentCache<string, Folded<unknown>>>();
  /** What the part of the process using this runner declared (see `for`). */
  private readonly use: RunnerUse = {};
  private readonly locks = new KeyedLock();
  private readonly queues = new Map<string, AnyQueued[]>();
  private readonly snapshots: StreamSnapshots;

  constructor(
    private readonly store: EventStore,
    private readonly waiter: ProjectionWaiter | undefined,
    private readonly options: CommandRunnerOptions = {},
  ) {
    this.snapshots = new StreamSnapshots(store, this.logger, options.snapshots);
    this.cache = new RecentCache(options.cacheSize ?? 10_000);
  }

  /**
   * This runner as a part of the process uses it, with what that part declares once (`RunnerUse`): the same locks,
   * queues and store, so commands of every part on one stream are still decided in turn and appended together.
   */
  for(use: RunnerUse): CommandRunner {
    const { name, size } = use.cache ?? { name: '' };
    const cache = !name
      ? this.cache
      : (this.partCaches.get(name) ?? new RecentCache(size ?? this.options.cacheSize ?? 10_000));
    if (name) this.partCaches.set(name, cache);
    return Object.assign(Object.create(this) as CommandRunner, { use: { ...this.use, ...use }, cache });
  }

  /**
   * The state of a stream (not to be mutated by the caller), as `reads` declares: the current one (the default), or,
   * for `fixed-facts`, the one this process last saw when `known` holds of it, without reading the stream.
   */
  async load<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    reads: Reads<State> = {},
  ): Promise<{ state: State; revision: bigint }> {
    if (reads.reads === 'fixed-facts') {
      const cached = this.cache.get(streamName) as Folded<State> | undefined;
      if (cached && reads.known(cached.state)) return { state: cached.state, revision: cached.revision };
    }
    const { state, revision } = await this.withLock(streamName, () => this.catchUp(streamName, decider));
    return { state, revision };
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
    if (result.position !== undefined && (options.answersAfter ?? 'projection') === 'projection') {
      await this.projected(result.position, options.readModels);
    }
    return result;
  }

  /**
   * Resolves once the local read models (all, or `projections`) include `position`: for a caller whose commands
   * answered after their append and whose answer reads them. A part whose commands answer after the append does not
   * wait.
   */
  async projected(position: bigint, projections?: string[]): Promise<void> {
    const timeout = this.options.readYourWritesTimeoutMs ?? 5000;
    // A zero timeout (the CLI) means: do not wait for a projector at all.
    if (!this.waiter || timeout === 0 || this.use.answersAfter === 'append') return;
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

  private async decideAndAppend<State, C, E extends Event>(
    streamName: string,
    batch: Queued<State, C, E>[],
  ): Promise<void> {
    const decider = batch[0].decider;
    const maxRetries = this.options.maxRetries ?? 30;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await conflictBackoff(attempt);
      // The first attempt decides on the cached state without reading the stream: an append at its revision fails
      // if another process appended meanwhile, and a batch that appends nothing is checked before it is answered.
      const cached = attempt === 0 ? (this.cache.get(streamName) as Folded<State> | undefined) : undefined;
      let decided: DecidedBatch<State, C, E>;
      try {
        const folded = cached ?? (await this.catchUp(streamName, decider));
        decided = this.decideBatch(streamName, batch, folded);
      } catch (error) {
        // Reading the stream or evolving failed: the cached state may be half-updated.
        this.cache.delete(streamName);
        for (const item of batch) item.reject(error);
        return;
      }
      const events = decided.decided.flatMap(({ stored }) => stored);
      if (events.length === 0 && cached && (await this.hasNewer(streamName, cached.revision))) {
        // Refused or no-op on a state another process has moved past: decide again on the stream as it is (nothing
        // was evolved: no command of the batch had events, so none was deferred either).
        continue;
      }
      let position: bigint | undefined;
      if (events.length > 0) {
        try {
          position = await this.appendDecided(streamName, decider, decided, events);
        } catch (error) {
          // The cached state already holds this batch's events: forget it, fold again from the store.
          this.cache.delete(streamName);
          // Another process appended: decide the whole batch again on what it wrote.
          if (error instanceof WrongExpectedVersion && attempt < maxRetries) continue;
          this.rejectBatch(streamName, batch, decided.deferred, error, attempt);
          return;
        }
      }
      this.requeue(streamName, decided.deferred);
      for (const { item, events: own } of decided.decided)
        item.resolve({ state: decided.state, events: own, ...(own.length > 0 ? { position } : {}) });
      for (const { item, error } of decided.refused) item.reject(error);
      return;
    }
  }

  /**
   * Decides the batch's commands in turn on `folded`, each on the state its predecessors leave; a refused command is
   * set aside, and the commands whose events would not fit in one append are deferred.
   */
  private decideBatch<State, C, E extends Event>(
    streamName: string,
    batch: Queued<State, C, E>[],
    folded: Folded<State>,
  ): DecidedBatch<State, C, E> {
    const decider = batch[0].decider;
    const out: DecidedBatch<State, C, E> = { folded, state: folded.state, decided: [], refused: [], deferred: [] };
    let bytes = 0;
    for (const [index, item] of batch.entries()) {
      let events: E[];
      try {
        const cmd = typeof item.command === 'function' ? (item.command as (s: State) => C)(out.state) : item.command;
        events = decider.decide(cmd, out.state);
      } catch (error) {
        out.refused.push({ item, error });
        continue;
      }
      // Serialized once, here, as decided (before evolve): the size check and the store's row use the same JSON.
      const stored = serializedEvents(events, item.metadata, this.options.eventIds);
      const size = appendBytes(stored);
      if (size > this.store.maxAppendBytes) {
        out.refused.push({ item, error: tooLarge(streamName, size, this.store.maxAppendBytes) });
        continue;
      }
      if (bytes + size > this.store.maxAppendBytes) {
        // Decided before evolving: the state does not hold these events, so they are decided again later.
        out.deferred = batch.slice(index);
        break;
      }
      bytes += size;
      // The next command is decided on the state this one leaves (evolve may update in place).
      for (const e of events) out.state = decider.evolve(out.state, e);
      out.decided.push({ item, events, stored });
    }
    return out;
  }

  /** Appends a decided batch's events and caches the state they leave; answers the position of the last one. */
  private async appendDecided<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    decided: DecidedBatch<State, C, E>,
    events: NewEvent[],
  ): Promise<bigint> {
    const appended = await this.appendWithRetries(streamName, events, decided.folded.revision);
    const next = {
      ...decided.folded,
      state: decided.state,
      revision: appended.nextExpectedRevision,
      eventId: events.at(-1)!.id,
    };
    this.remember(streamName, next);
    this.considerSnapshot(streamName, decider, next);
    return appended.position;
  }

  /** A batch's append failed for good: its commands are refused, those deferred go back to the queue. */
  private rejectBatch(name: string, batch: AnyQueued[], deferred: AnyQueued[], error: unknown, attempt: number) {
    const final = finalAppendError(error, name, attempt);
    for (const item of batch) if (!deferred.includes(item)) item.reject(final);
    this.requeue(name, deferred);
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
    const page = this.use.readPage;
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

  /** Snapshots the stream if it has grown enough (see `StreamSnapshots.consider`), off the path of its commands. */
  private considerSnapshot<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    folded: Folded<State>,
  ): void {
    this.snapshots.consider(streamName, decider as unknown as Decider<unknown, unknown, Event>, folded, {
      lock: (work) => this.withLock(streamName, work),
      current: () => this.cache.get(streamName),
    });
  }

  /** Resolves once the snapshots under way are written or have failed (for tests and an orderly shutdown). */
  snapshotsWritten(): Promise<void> {
    return this.snapshots.written();
  }

  private remember(streamName: string, folded: Folded<unknown>): void {
    this.cache.set(streamName, folded);
  }

  /** Serializes work per stream inside this process, so one stream's commands queue instead of conflicting. */
  private withLock<T>(streamName: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(streamName, work);
  }
}
