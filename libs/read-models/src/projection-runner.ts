import type { ProjectionWaiter } from './projection-waiter.js';
import { CheckpointedSubscription } from '#event-store/checkpointed-subscription.js';
import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import { CheckpointWaiters } from './checkpoint-waiters.js';
import { LeaseKeeper } from './lease-keeper.js';
import {
  CheckpointMovedBack,
  consoleLogger,
  projectorLease,
  type ProjectionRunnerOptions,
} from './projection-runner-options.js';

export { projectorLease, type ProjectionRunnerOptions };
import type { Projection } from './projection.js';
import {
  ConcurrentProjectionUpdate,
  LeaseLost,
  type CheckpointCommit,
  type Fence,
  type ProjectionTransaction,
  type ReadModelStore,
} from './read-model-store.js';

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
 * a delay, and so resumes exactly where each projection stopped, as after a crash.
 */
export class ProjectionRunner implements ProjectionWaiter {
  private readonly retryDelayMs: number;
  private readonly pollIntervalMs: number;
  private readonly logger: NonNullable<ProjectionRunnerOptions['logger']>;
  private readonly handled: Map<string, Set<string>>;
  /** Last committed position per projection; undefined when it never ran. */
  private readonly checkpoints = new Map<string, bigint | undefined>();
  private readonly waiting: CheckpointWaiters;
  private running = false;
  /** The log from the lowest owned checkpoint, in batches. */
  private readonly feed: CheckpointedSubscription;
  private readonly leases?: LeaseKeeper;
  /** Leases gained while starting are picked up by the first subscription itself. */
  private leasesStarted = false;

  constructor(
    private readonly store: EventStore,
    private readonly readModels: ReadModelStore,
    private readonly projections: Projection[],
    options: ProjectionRunnerOptions = {},
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
    this.pollIntervalMs = options.pollIntervalMs ?? 25;
    this.logger = options.logger ?? consoleLogger;
    this.handled = new Map(projections.map((p) => [p.name, new Set(p.handles)]));
    this.waiting = new CheckpointWaiters({
      checkpoints: this.checkpoints,
      names: () => this.projections.map((p) => p.name),
      polled: (name) => this.polled(name),
      readCheckpoint: (name) => this.readModels.getCheckpoint(name),
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
    return this.leases?.fence(projectorLease(name));
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

  private async startRunning(settle: boolean): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      // Every process creates them (idempotent): the API's queries need them whichever worker projects.
      await this.readModels.ensureIndexes(this.projections.flatMap((p) => p.indexes ?? []));
      await this.leases?.start();
      if (settle) await this.leases?.settle();
      this.leasesStarted = true;
      await this.feed.start();
    } catch (error) {
      this.running = false;
      throw error;
    }
  }

  /** Stops the subscription and commits what it already delivered. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
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
    return !this.running || !this.owns(name);
  }

  /**
   * Drops the named projections' documents and checkpoints (all when no names are given),
   * replays the log from position 0 up to the current head, then resumes as before: running
   * if it was running, stopped otherwise. Rejects if a batch fails during the replay. With
   * leases it first takes theirs from whoever projects them (their later writes are refused), so
   * it is safe while workers run; they take the projections back once this runner stops.
   */
  async rebuild(names?: string[]): Promise<void> {
    const targets = names ?? this.projections.map((p) => p.name);
    const selected = targets.map((name) => {
      const projection = this.projections.find((p) => p.name === name);
      if (!projection) throw new Error(`unknown projection ${name}`);
      return projection;
    });
    const wasRunning = this.running;
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
    await this.replay(head, new Set(selected.map((p) => p.name)));
    // The other projections' leases may stay with a worker: no waiting for them.
    await this.startRunning(false);
    try {
      await this.waiting.reach(
        head,
        selected.map((p) => p.name),
      );
    } finally {
      if (!wasRunning) await this.stop();
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
    for (let attempt = 1; ; attempt++) {
      try {
        await this.applyOnce(batch, only);
        return;
      } catch (error) {
        // Refused writes change nothing: re-read what moved and filter the batch again.
        if (attempt >= 20) throw error;
        if (error instanceof LeaseLost) this.leases?.forget(error.lease, error.token);
        else if (error instanceof ConcurrentProjectionUpdate) await this.reloadCheckpoint(error.projection);
        else throw error;
      }
    }
  }

  /**
   * Applies a batch to every owned projection (or only `only`) in ONE store transaction, each projection's
   * documents with its checkpoint. A projection already past the batch skips it (its checkpoint says so), so
   * a batch retried after a refused commit never applies an event twice.
   */
  private async applyOnce(batch: RecordedEvent[], only?: ReadonlySet<string>): Promise<void> {
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
      await this.readModels.commitBatches(commits, apply, { replay: only !== undefined });
      for (const { projection, position } of commits) this.checkpoints.set(projection, position);
    }
    this.waiting.notify();
  }

  /**
   * Folds the log up to `head` into the named projections directly from the store, in pages of REPLAY_PAGE
   * events with one store transaction per page (a rebuild; the subscription then continues from there).
   * Memory holds one page and its documents, whatever the length of the log.
   */
  private async replay(head: bigint, names: ReadonlySet<string>): Promise<void> {
    for (const name of names) this.checkpoints.set(name, await this.readModels.getCheckpoint(name));
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
      const page = await this.store.readAll({ ...(after === undefined ? {} : { after }), maxCount: REPLAY_PAGE });
      if (page.length === 0) return;
      await this.applyBatch(page, names);
    }
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
