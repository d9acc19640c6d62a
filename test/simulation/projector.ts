import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '#read-models/projection.js';
import type { Doc, ProjectionTransaction, ReadModelStore } from '#read-models/read-model-store.js';
import type { Random } from './scheduler.js';

/** Documents by collection and id: what a projection wrote, as plain data. */
export type DocMap = Map<string, Map<string, Doc>>;

/** A projection transaction over plain maps: applies at once (a fresh replay of the log uses it). */
export class MemoryDocs implements ProjectionTransaction {
  constructor(readonly docs: DocMap = new Map()) {}

  private collection(name: string): Map<string, Doc> {
    let c = this.docs.get(name);
    if (!c) this.docs.set(name, (c = new Map()));
    return c;
  }
  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    return this.collection(collection).get(id) as T | undefined;
  }
  put(collection: string, doc: Doc): void {
    this.collection(collection).set(doc.id, structuredClone(doc));
  }
  delete(collection: string, id: string): void {
    this.collection(collection).delete(id);
  }
}

/** The documents every projection makes of the whole log, replayed afresh. */
export async function replayAll(events: readonly RecordedEvent[], projections: readonly Projection[]): Promise<DocMap> {
  const docs = new MemoryDocs();
  for (const projection of projections) {
    const handles = new Set(projection.handles);
    for (const event of events) if (handles.has(event.type)) await projection.apply(event, docs);
  }
  return docs.docs;
}

/** What the projector may be made to do wrong: a store write that fails. */
export interface ProjectorFaults {
  failCommit(projection: string): boolean;
}

/**
 * The simulated process's projector: feeds the log to the real projections and commits each projection's batch with
 * its checkpoint in the read-model store (the service's own adapter, in memory), a seeded number of events at a time,
 * so read models lag behind the log by a chance amount. Every id a batch touched is remembered, so that the check
 * can compare the store's documents with a fresh replay.
 */
export class SimProjector {
  private running = false;

  constructor(
    /** Every (collection, id) any batch wrote or deleted (kept by the simulation across restarts). */
    readonly touched: Map<string, Set<string>>,
    private readonly store: EventStore,
    private readonly readModels: ReadModelStore,
    readonly projections: readonly Projection[],
    private readonly random: Random,
    private readonly faults: ProjectorFaults,
  ) {}

  /** Projects one batch of up to `max` events (a call while one runs does nothing). */
  async tick(max = 1 + this.random.int(64)): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.project(max);
    } finally {
      this.running = false;
    }
  }

  /**
   * Feeds the log after the lowest checkpoint to every projection behind it, in one commit of all their batches
   * with their checkpoints (as the service's projection runner does); answers whether there was anything to do.
   */
  private async project(max: number): Promise<boolean> {
    const checkpoints = new Map<Projection, bigint>();
    for (const p of this.projections) checkpoints.set(p, (await this.readModels.getCheckpoint(p.name)) ?? 0n);
    const lowest = [...checkpoints.values()].reduce((a, b) => (a < b ? a : b));
    const events = await this.store.readAll({ after: lowest, maxCount: max });
    if (events.length === 0) return false;
    const position = events.at(-1)!.position;
    const behind = this.projections.filter((p) => checkpoints.get(p)! < position);
    const commits = behind.map((p) => ({
      projection: p.name,
      expected: (checkpoints.get(p)! === 0n ? undefined : checkpoints.get(p)) as bigint | undefined,
      position,
    }));
    await this.readModels.commitBatches(commits, async (tx) => {
      if (this.faults.failCommit('read models')) throw new SimulatedFault('a read-model write failed');
      const recording = this.recording(tx);
      for (const projection of behind) {
        const handles = new Set(projection.handles);
        const after = checkpoints.get(projection)!;
        for (const event of events)
          if (event.position > after && handles.has(event.type)) await projection.apply(event, recording);
      }
    });
    return true;
  }

  /** Projects until every projection is at the head of the log (no faults on the way). */
  async catchUp(): Promise<void> {
    while (await this.project(1000));
  }

  private recording(tx: ProjectionTransaction): ProjectionTransaction {
    const touch = (collection: string, id: string) => {
      let ids = this.touched.get(collection);
      if (!ids) this.touched.set(collection, (ids = new Set()));
      ids.add(id);
    };
    return {
      get: (collection, id) => tx.get(collection, id),
      put: (collection, doc) => {
        touch(collection, doc.id);
        tx.put(collection, doc);
      },
      delete: (collection, id) => {
        touch(collection, id);
        tx.delete(collection, id);
      },
    };
  }
}

/** A failure the simulation injected (never a finding by itself). */
export class SimulatedFault extends Error {
  override readonly name = 'SimulatedFault';
}
