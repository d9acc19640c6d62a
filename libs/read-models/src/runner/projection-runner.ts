import type { ProjectionWaiter } from './projection-waiter.js';
import { CheckpointedSubscription } from '#event-store/checkpointed-subscription.js';
import { RunState } from '#event-store/run-state.js';
import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import { handleOrSetAside, isTransientFailure } from '#event-store/set-aside.js';
import type { SetAsideFailure } from '#event-store/set-aside.js';
import { CheckpointWaiters } from './checkpoint-waiters.js';
import { LeaseKeeper } from './lease-keeper.js';
import {
  CheckpointMovedBack,
  consoleLogger,
  halves,
  namesOf,
  projectorLease,
  type ProjectionRunnerOptions,
  type ReplayDelegate,
} from './projection-runner-options.js';

export { projectorLease, type ProjectionRunnerOptions, type ReplayDelegate };
import type { Projection } from '../projection.js';
import { Collections } from '../projections/collections.js';
import { setAsideEventDoc, setAsideMessage } from './set-aside-events.js';
import {
  ConcurrentProjectionUpdate,
  LeaseLost,
  type CheckpointAdvance,
  type CheckpointCommit,
  type Fence,
  type ProjectionTransaction,
  type ReadModelStore,
} from '../read-model-store.js';

/** Events per page and store transaction when a rebuild replays the log. */
const REPLAY_PAGE = 5000;

/**
 * Feeds the global event log to the projections. Events delivered by the subscription are
 * collected into batches; every projection's part of a batch commits with its checkpoint in one
 * store transaction for all of them, each applying only events past its own checkpoint and of types it handles (its
 * checkpoint still advances over the rest). The store commits a batch only if the checkpoint is
 * still the one the batch was filtered by; otherwise the runner re-reads it and filters again, so
 * two runners on one store never apply an event twice. With leases (the default) only the holder
 * of a projection's lease projects it; the others wait and take over when it stops renewing. A
 * failed batch commits nothing: the runner logs it, resubscribes from the stored checkpoints after
 * a delay, and so resumes exactly where each projection stopped, as after a crash. A batch failing otherwise (see
 * SetAsidePolicy) is applied one event at a time, and an event a projection keeps failing on is set aside for that
 * projection alone (its checkpoint steps over it with a record of the failure in one commit); the rest goes on.
 */
export class ProjectionRunner implements ProjectionWaiter {
  private readonly retryDelayMs: number;
  private readonly pollIntervalMs: number;
  private readonly logger: NonNullable<ProjectionRunnerOptions['logger']>;
  private readonly handled: Map<string, Set<string>>;
  /** Last committed position per projection; undefined when it never ran. */
  private readonly checkpoints = new Map<string, bigint | undefined>();
  private readonly waiting: CheckpointWaiters;
  private readonly lifecycle = new RunState();
  /** The log from the lowest owned checkpoint, in batches. */
  private readonly feed: CheckpointedSubscription;
  private readonly leases?: LeaseKeeper;
  /** Leases gained while starting are picked up by the first subscription itself. */
  private leasesStarted = false;
  /** The fences a delegated replay writes under (another runner's rebuild holds the leases). */
  private delegatedFences?: ReadonlyMap<string, Fence>;

  constructor(
    private readonly store: EventStore,
    private readonly readModels: ReadModelStore,
    private readonly projections: Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    const names = new Set(projections.map((p) => p.name));
    if (names.size !== projections.length) throw new Error('projection names must be unique');
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.feed = new CheckpointedSubscription(store, {
      resume: () => this.resume(),
      handle: (batch) => this.applyBatch(batch),
      batchSize: options.batchSize,
      retryDelayMs: this.retryDelayMs,
      onFailure: (error, delay) => {
        this.logger.error(`projection batch failed; resubscribing from checkpoints in ${delay} ms`, error);
        this.waiting.failed(error);
      },
      onSubscribed: () => this.waiting.notify(),
    });
    // A store that tells when another connection committed is looked at often, and read only then.
    this.pollIntervalMs = options.pollIntervalMs ?? (readModels.commitVersion ? 5 : 25);
    this.logger = options.logger ?? consoleLogger;
    this.handled = new Map(projections.map((p) => [p.name, new Set(p.handles)]));
    this.waiting = new CheckpointWaiters({
      checkpoints: this.checkpoints,
      names: () => this.projections.map((p) => p.name),
      polled: (name) => this.polled(name),
      readCheckpoint: (name) => this.readModels.getCheckpoint(name),
      ...(readModels.commitVersion ? { commitVersion: () => readModels.commitVersion!() } : {}),
      pollIntervalMs: this.pollIntervalMs,
      logger: this.logger,
    });
    if (options.lease !== false) {
      this.leases = new LeaseKeeper(
        readModels,
        projections.map((p) => projectorLease(p.name)),
        ({ gained }) => {
          // A projection taken over starts from its stored checkpoint: resubscribe from the new lowest.
          if (gained.length && this.leasesStarted) this.feed.restart();
        },
        { logger: { warn: (message) => this.logger.error(message) }, ...options.lease },
      );
    }
  }

  /** The lease holder id of this runner (undefined without leases). */
  get leaseHolder(): string | undefined {
    return this.leases?.holder;
  }

  /** Whether this runner projects the projection now (holds its lease, or runs without leases). */
  private owns(name: string): boolean {
    return !this.leases || this.leases.holds(projectorLease(name));
  }

  private fenceFor(name: string): Fence | undefined {
    return this.delegatedFences?.get(name) ?? this.leases?.fence(projectorLease(name));
  }

  /** The highest position every projection has processed (0n before any). */
  get position(): bigint {
    return this.waiting.position;
  }

  /**
   * Loads the checkpoints and subscribes from the lowest; resolves once subscribed. With leases,
   * first waits (at most one lease TTL) for them, so that a process restarted after a crash
   * projects again before it answers; when another live runner keeps them, this one stands by.
   */
  start(): Promise<void> {
    return this.startRunning(true);
  }

  private startRunning(settle: boolean): Promise<void> {
    return this.lifecycle.start(async () => {
      // Every process creates them (idempotent): the API's queries need them whichever worker projects.
      await this.readModels.ensureIndexes(this.projections.flatMap((p) => p.indexes ?? []));
      await this.leases?.start();
      if (settle) await this.leases?.settle();
      this.leasesStarted = true;
      await this.feed.start();
    });
  }

  /** Stops the subscription and commits what it already delivered. */
  async stop(): Promise<void> {
    if (!this.lifecycle.stop()) return;
    await this.feed.stop();
    this.leasesStarted = false;
    await this.leases?.stop();
  }

  /**
   * Resolves true once the named projections (default all) passed `position`, false after
   * `timeoutMs`. Projections this process does not project are followed through their stored
   * checkpoints by one shared poller: a tick reads each needed checkpoint once, whatever the
   * number of waiters, and releases every waiter whose own projections are past its position.
   */
  async waitForPosition(position: bigint, timeoutMs: number, projections?: string[]): Promise<boolean> {
    for (const name of projections ?? []) if (!this.handled.has(name)) throw new Error(`unknown projection ${name}`);
    return this.waiting.wait(position, timeoutMs, projections ?? this.projections.map((p) => p.name));
  }

  /** Projections whose checkpoints only the store knows here (another process projects them). */
  private polled(name: string): boolean {
    return !this.lifecycle.running || !this.owns(name);
  }

  /**
   * Drops the named projections' documents and checkpoints (all when no names are given),
   * replays the log from position 0 up to the current head, then resumes as before: running
   * if it was running, stopped otherwise. Rejects if a batch fails during the replay. With
   * leases it first takes theirs from whoever projects them (their later writes are refused), so
   * it is safe while workers run; they take the projections back once this runner stops. With a
   * `delegate`, half of the projections (by replay weight) are replayed by it at the same time.
   */
  async rebuild(names?: string[], options: { delegate?: ReplayDelegate } = {}): Promise<void> {
    const targets = names ?? this.projections.map((p) => p.name);
    const selected = targets.map((name) => {
      const projection = this.projections.find((p) => p.name === name);
      if (!projection) throw new Error(`unknown projection ${name}`);
      return projection;
    });
    const wasRunning = this.lifecycle.running;
    await this.stop();
    try {
      await this.leases?.seize(selected.map((p) => projectorLease(p.name)));
      for (const projection of selected)
        await this.readModels.reset(projection.name, projection.collections, this.fenceFor(projection.name));
    } catch (error) {
      await this.leases?.stop();
      throw error;
    }
    const head = await this.store.headPosition();
    const delegate = options.delegate;
    const [first, second] = delegate ? halves(selected) : [selected, []];
    const here = delegate?.both ? [] : first;
    const there = (delegate?.both ? [first, second] : [second]).filter((half) => half.length > 0);
    const replays = there.map((half) => {
      const fences = new Map<string, Fence>();
      for (const { name } of half) {
        const fence = this.fenceFor(name);
        if (fence) fences.set(name, fence);
      }
      return delegate!.replay(namesOf(half), head, fences);
    });
    if (here.length > 0) replays.push(this.replay(head, new Set(namesOf(here))));
    // Every half runs to its end before a failure is reported.
    for (const outcome of await Promise.allSettled(replays)) if (outcome.status === 'rejected') throw outcome.reason;
    for (const { name } of there.flat()) this.checkpoints.set(name, await this.readModels.getCheckpoint(name));
    // The other projections' leases may stay with a worker: no waiting for them.
    await this.startRunning(false);
    try {
      await this.waiting.reach(head, namesOf(selected));
    } finally {
      if (!wasRunning) await this.stop();
    }
  }

  /**
   * The other side of a ReplayDelegate: replays the named projections (reset by the rebuild that delegated them) up
   * to `head` without subscribing, writing under the given fences.
   */
  async replayDelegated(names: string[], head: bigint, fences: ReadonlyMap<string, Fence>): Promise<void> {
    for (const name of names) if (!this.handled.has(name)) throw new Error(`unknown projection ${name}`);
    this.delegatedFences = fences;
    try {
      await this.replay(head, new Set(names));
    } finally {
      this.delegatedFences = undefined;
    }
  }

  /** From the lowest owned checkpoint (from the start when one never ran); a standby owns none and waits. */
  private async resume(): Promise<{ after?: bigint } | undefined> {
    const loaded = await Promise.all(
      this.projections.map(async (p) => [p.name, await this.readModels.getCheckpoint(p.name)] as const),
    );
    for (const [name, checkpoint] of loaded) this.checkpoints.set(name, checkpoint);
    const owned = loaded.filter(([name]) => this.owns(name));
    // A standby: nothing to project until a lease is gained (which resubscribes).
    if (owned.length === 0) return undefined;
    let from: bigint | undefined;
    for (const [, checkpoint] of owned) {
      if (checkpoint === undefined) return {};
      if (from === undefined || checkpoint < from) from = checkpoint;
    }
    return { after: from };
  }

  private async applyBatch(batch: RecordedEvent[], only?: ReadonlySet<string>): Promise<void> {
    try {
      await this.retryRefused(() => this.applyOnce(batch, only));
    } catch (error) {
      if (isTransientFailure(error) || (only === undefined && !this.lifecycle.running)) throw error;
      // One of the events fails: each on its own, so that only the one that keeps failing is set aside.
      for (const event of batch) await this.applyOneEvent(event, only);
    }
  }

  /** Runs `apply` again while the store refuses its commit (a lease moved, a checkpoint moved). */
  private async retryRefused(apply: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await apply();
      } catch (error) {
        // Refused writes change nothing: re-read what moved and filter the batch again.
        if (attempt >= 20) throw error;
        if (error instanceof LeaseLost) this.leases?.forget(error.lease, error.token);
        else if (error instanceof ConcurrentProjectionUpdate) await this.reloadCheckpoint(error.projection);
        else throw error;
      }
    }
  }

  /** One event for every projection at once, or, when that fails, for each projection on its own. */
  private async applyOneEvent(event: RecordedEvent, only?: ReadonlySet<string>): Promise<void> {
    const replay = only !== undefined;
    try {
      return await this.retryRefused(() => this.applyOnce([event], only));
    } catch (error) {
      if (isTransientFailure(error)) throw error;
    }
    for (const { name } of this.projections) {
      if (only ? !only.has(name) : !this.owns(name)) continue;
      const alone = () => this.retryRefused(() => this.applyOnce([event], new Set([name]), replay));
      const handled = await handleOrSetAside(alone, this.options.setAside, () => !replay && !this.lifecycle.running);
      if (!handled.ok) await this.retryRefused(() => this.setAsideFor(name, event, handled, replay));
    }
  }

  /** Moves the projection's checkpoint over `event` with a record of why, in one commit, and logs it. */
  private async setAsideFor(
    name: string,
    event: RecordedEvent,
    failure: SetAsideFailure,
    replay: boolean,
  ): Promise<void> {
    const expected = this.checkpoints.get(name);
    if (expected !== undefined && expected >= event.position) return;
    const doc = setAsideEventDoc(`projection:${name}`, event, failure, this.options.now?.() ?? new Date());
    const fence = this.fenceFor(name);
    const commit = { projection: name, expected, position: event.position, ...(fence ? { fence } : {}) };
    await this.readModels.commitBatches([commit], async (tx) => tx.put(Collections.setAsideEvents, doc), { replay });
    this.checkpoints.set(name, event.position);
    this.logger.error(setAsideMessage(doc));
    this.waiting.notify();
  }

  /**
   * Applies a batch to every owned projection (or only `only`) in ONE store transaction, each projection's
   * documents with its checkpoint. A projection already past the batch skips it (its checkpoint says so), so
   * a batch retried after a refused commit never applies an event twice.
   */
  private async applyOnce(batch: RecordedEvent[], only?: ReadonlySet<string>, replay = !!only): Promise<void> {
    const commits: CheckpointCommit[] = [];
    const work: { projection: Projection; events: RecordedEvent[] }[] = [];
    for (const projection of this.projections) {
      if (only ? !only.has(projection.name) : !this.owns(projection.name)) continue;
      const checkpoint = this.checkpoints.get(projection.name);
      const events = checkpoint === undefined ? batch : batch.filter((e) => e.position > checkpoint);
      if (events.length === 0) continue;
      const handles = this.handled.get(projection.name)!;
      const fence = this.fenceFor(projection.name);
      const position = events[events.length - 1].position;
      commits.push({ projection: projection.name, expected: checkpoint, position, ...(fence ? { fence } : {}) });
      const relevant = events.filter((e) => handles.has(e.type));
      if (relevant.length > 0) work.push({ projection, events: relevant });
    }
    if (commits.length > 0) {
      const apply = async (tx: ProjectionTransaction) => {
        for (const { projection, events } of work) for (const event of events) await projection.apply(event, tx);
      };
      // Only a rebuild names its projections: its pages are a replay.
      await this.readModels.commitBatches(commits, apply, { replay });
      for (const { projection, position } of commits) this.checkpoints.set(projection, position);
    }
    this.waiting.notify();
  }

  /**
   * Folds the log up to `head` into the named projections directly from the store, in pages of REPLAY_PAGE
   * events with one store transaction per page (a rebuild; the subscription then continues from there).
   * Only the types the named projections handle are read (the store steps over the rest without decoding them);
   * once no more of them are left, every named checkpoint moves on to `head`, since nothing up to there concerns
   * them; then their indexes are built. Memory holds one page and its documents, whatever the length of the log.
   */
  private async replay(head: bigint, names: ReadonlySet<string>): Promise<void> {
    for (const name of names) this.checkpoints.set(name, await this.readModels.getCheckpoint(name));
    const types = [...new Set([...names].flatMap((name) => [...this.handled.get(name)!]))];
    const lowest = () => {
      let low: bigint | undefined;
      for (const name of names) {
        const c = this.checkpoints.get(name);
        if (c === undefined) return undefined;
        if (low === undefined || c < low) low = c;
      }
      return low;
    };
    for (let after = lowest(); after === undefined || after < head; after = lowest()) {
      const from = after === undefined ? {} : { after };
      const page = await this.store.readAll({ ...from, maxCount: REPLAY_PAGE, types });
      if (page.length === 0) break;
      await this.applyBatch(page, names);
    }
    const advances = new Map<string, CheckpointAdvance>();
    for (const name of names) {
      const expected = this.checkpoints.get(name);
      if (head === 0n || (expected !== undefined && expected >= head)) continue;
      const fence = this.fenceFor(name);
      advances.set(name, { expected, position: head, ...(fence ? { fence } : {}) });
    }
    await this.readModels.advanceCheckpoints(advances);
    for (const [name, { position }] of advances) this.checkpoints.set(name, position);
    // Their indexes now, each sorted once (a replay defers them), while another thread may still be replaying.
    const replayed = this.projections.filter((p) => names.has(p.name));
    await this.readModels.ensureIndexes(
      replayed.flatMap((p) => p.indexes ?? []),
      replayed.flatMap((p) => p.collections),
    );
    await this.readModels.endReplay?.();
  }

  private async reloadCheckpoint(name: string): Promise<void> {
    const before = this.checkpoints.get(name);
    const stored = await this.readModels.getCheckpoint(name);
    if (before !== undefined && (stored === undefined || stored < before)) {
      throw new CheckpointMovedBack(`checkpoint of ${name} moved back from ${before} to ${stored ?? 'unset'}`);
    }
    this.checkpoints.set(name, stored);
  }
}
