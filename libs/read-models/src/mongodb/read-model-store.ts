import {
  Long,
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type IndexDescription,
} from 'mongodb';
import { BufferedTransaction } from '../buffered-transaction.js';
import { leaseDecision, movesCheckpoint, ReadModelStoreBase } from '../read-model-store-base.js';
import { buildMongoQuery } from './query.js';
import { encodeCursor, indexKeysOf, indexNameOf, planQuery, sortValueOf } from '../query-plan.js';
import {
  COUNT_CAP,
  ConcurrentProjectionUpdate,
  LeaseLost,
  type CheckpointAdvance,
  type CheckpointCommit,
  type Doc,
  type Fence,
  type IndexSpec,
  type LeaseGrant,
  type LeaseRequest,
  type Page,
  type ProjectionTransaction,
  type Query,
  type ReadModelStore,
} from '../read-model-store.js';

import {
  StoredDoc,
  CheckpointDoc,
  LeaseDoc,
  CHECKPOINTS,
  LEASES,
  COUNT_MAX_TIME_MS,
  DEFAULT_INDEXES,
  NAMESPACE_NOT_FOUND,
  isDuplicateKey,
  toBigInt,
  fromStored,
} from './docs.js';

/**
 * The MongoDB ReadModelStore: one MongoDB collection per read-model collection with `_id` = id,
 * and one checkpoint document per projection. A batch's upserts and its checkpoint are written
 * in one transaction (MongoDB runs as a replica set, a single node at least), guarded by the
 * stored position so a replayed batch changes nothing.
 */
export class MongoReadModelStore extends ReadModelStoreBase implements ReadModelStore {
  private readonly indexed = new Map<string, Promise<void>>();
  /** Indexes declared by the projections, by collection (created again after a rebuild drops it). */
  private readonly declared = new Map<string, Map<string, IndexDescription>>();

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    super();
  }

  static async connect(url: string, dbName: string): Promise<MongoReadModelStore> {
    // ignoreUndefined: store what JSON would (undefined fields dropped, not saved as null).
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return new MongoReadModelStore(client, client.db(dbName));
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    const stored = await this.collection(collection).findOne({ _id: id });
    return stored ? fromStored<T>(stored) : undefined;
  }

  async find<T extends Doc = Doc>(collection: string, query: Query): Promise<Page<T>> {
    const plan = planQuery(collection, query);
    const mongo = buildMongoQuery(plan);
    const docs = this.collection(collection);
    const [rows, total] = await Promise.all([
      docs.find(mongo.page, { sort: mongo.sort, limit: plan.limit + 1 }).toArray(),
      // Bounded: at most COUNT_CAP documents counted, and never for long.
      docs.countDocuments(mongo.count, { limit: COUNT_CAP, maxTimeMS: COUNT_MAX_TIME_MS }),
    ]);
    const hasMore = rows.length > plan.limit;
    const data = (hasMore ? rows.slice(0, plan.limit) : rows).map((r) => fromStored<T>(r));
    const last = data[data.length - 1];
    return {
      data,
      hasMore,
      ...(hasMore
        ? { nextCursor: encodeCursor(plan.fingerprint, { value: sortValueOf(last, plan.sortBy), id: last.id }) }
        : {}),
      totalCount: total,
    };
  }

  async explain(collection: string, query: Query): Promise<{ scans: boolean; plan: string[] }> {
    const mongo = buildMongoQuery(planQuery(collection, query));
    const docs = this.collection(collection);
    const page = await docs.find(mongo.page, { sort: mongo.sort, limit: 1 }).explain('queryPlanner');
    const count = await docs.find(mongo.count).explain('queryPlanner');
    const plan = [
      JSON.stringify(page.queryPlanner?.winningPlan ?? page),
      JSON.stringify(count.queryPlanner?.winningPlan ?? count),
    ];
    return { scans: plan.some((p) => p.includes('COLLSCAN')), plan };
  }

  async ensureIndexes(indexes: readonly IndexSpec[], collections?: readonly string[]): Promise<void> {
    const touched = new Set<string>();
    const scope = collections && new Set(collections);
    for (const spec of indexes) {
      const { collection } = spec;
      if (scope && !scope.has(collection)) continue;
      const name = indexNameOf(spec);
      const key: Record<string, 1> = {};
      for (const field of indexKeysOf(spec)) key[field === 'id' ? '_id' : field] = 1;
      const byName = this.declared.get(collection) ?? new Map<string, IndexDescription>();
      byName.set(name, { key, name });
      this.declared.set(collection, byName);
      touched.add(collection);
    }
    // Created now rather than at the first write, so the API's queries find them from the start.
    await Promise.all([...touched].map((collection) => this.createIndexes(collection)));
  }

  async commitBatches(
    commits: readonly CheckpointCommit[],
    work: (tx: ProjectionTransaction) => Promise<void>,
    options: { replay?: boolean } = {},
  ): Promise<void> {
    for (const c of commits) {
      if (c.fence) await this.checkFence(c.fence);
      const seen = await this.checkpoint(c.projection);
      if (seen !== c.expected) throw new ConcurrentProjectionUpdate(c.projection, c.expected, seen);
    }
    const moving = commits.filter(movesCheckpoint);
    if (moving.length === 0) return;
    const tx = new BufferedTransaction((collection, id) => this.get(collection, id), { freeze: !options.replay });
    await work(tx);
    // Index builds cannot run inside a transaction: make sure they exist first.
    await Promise.all([...tx.writes.keys()].map((c) => this.ensureIndexesOf(c)));
    await this.inTransaction(async (session) => {
      for (const c of commits) {
        if (c.fence) await this.touchFence(c.fence, session);
        if (moving.includes(c)) {
          await this.moveCheckpoint(c.projection, c.expected, c.position, session);
        } else {
          const stored = await this.checkpoint(c.projection, session);
          if (stored !== c.expected) throw new ConcurrentProjectionUpdate(c.projection, c.expected, stored);
        }
      }
      for (const collection of tx.writes.keys()) {
        // One bulk write per collection and batch: a replay sends thousands of documents per round trip.
        const ops: AnyBulkWriteOperation<StoredDoc>[] = [...tx.texts(collection)].map(([id, text]) =>
          text
            ? {
                replaceOne: {
                  filter: { _id: id },
                  replacement: { ...(JSON.parse(text) as Doc), _id: id },
                  upsert: true,
                },
              }
            : { deleteOne: { filter: { _id: id } } },
        );
        if (ops.length) await this.collection(collection).bulkWrite(ops, { session, ordered: false });
      }
    });
  }

  async advanceCheckpoints(advances: ReadonlyMap<string, CheckpointAdvance>): Promise<void> {
    if (advances.size === 0) return;
    await this.inTransaction(async (session) => {
      for (const [projection, { expected, position, fence }] of advances) {
        if (fence) await this.touchFence(fence, session);
        if (movesCheckpoint({ expected, position })) {
          await this.moveCheckpoint(projection, expected, position, session);
        } else {
          const stored = await this.checkpoint(projection, session);
          if (stored !== expected) throw new ConcurrentProjectionUpdate(projection, expected, stored);
        }
      }
    });
  }

  /**
   * The checkpoint goes first, under the fence, in a transaction; the collections are dropped after it, outside any
   * transaction (deleting a large collection's documents in one transaction exceeds its limits). A crash between the
   * two leaves stale documents and no checkpoint: the replay from position 0 writes every document again.
   */
  async reset(projection: string, collections: string[], fence?: Fence): Promise<void> {
    await this.inTransaction(async (session) => {
      if (fence) await this.touchFence(fence, session);
      await this.checkpoints().deleteOne({ _id: projection }, { session });
    });
    for (const collection of collections) {
      if (fence) await this.checkFence(fence);
      try {
        await this.collection(collection).drop();
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
      }
      // Dropping a collection drops its indexes: the replay and the API's queries need them back.
      this.indexed.delete(collection);
      await this.createIndexes(collection);
    }
  }

  async acquireLease({ now = Date.now(), ...rest }: LeaseRequest): Promise<LeaseGrant | undefined> {
    // One instant for every attempt of the transaction.
    const request = { ...rest, now };
    const { name, holder } = request;
    let grant: LeaseGrant | undefined;
    const attempt = this.inTransaction(async (session) => {
      const row = await this.leases().findOne({ _id: name }, { session });
      const decided = leaseDecision(row ? { ...row, token: toBigInt(row.token) } : undefined, request);
      grant = decided && { token: decided.token, expiresAt: decided.expiresAt };
      if (!decided) return;
      const { token, expiresAt } = decided;
      const set = decided.renewed ? { expiresAt } : { holder, token: Long.fromBigInt(token), expiresAt };
      await this.leases().updateOne({ _id: name }, { $set: set }, { upsert: !decided.renewed, session });
    });
    try {
      await attempt;
    } catch (error) {
      // Two first acquisitions raced on the upsert: the other one got it.
      if (isDuplicateKey(error)) return undefined;
      throw error;
    }
    return grant;
  }

  async renewLease(
    name: string,
    holder: string,
    token: bigint,
    ttlMs: number,
    now = Date.now(),
  ): Promise<LeaseGrant | undefined> {
    const expiresAt = now + ttlMs;
    const result = await this.leases().updateOne(
      { _id: name, holder, token: Long.fromBigInt(token) },
      { $set: { expiresAt } },
    );
    return result.matchedCount === 1 ? { token, expiresAt } : undefined;
  }

  async releaseLease(name: string, holder: string, token: bigint): Promise<void> {
    // The document stays (expired) so the next holder's token is higher than this one.
    await this.leases().updateOne({ _id: name, holder, token: Long.fromBigInt(token) }, { $set: { expiresAt: 0 } });
  }

  async readLease(name: string): Promise<{ holder: string; token: bigint; expiresAt: number } | undefined> {
    const row = await this.leases().findOne({ _id: name });
    return row ? { holder: row.holder, token: toBigInt(row.token), expiresAt: row.expiresAt } : undefined;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async inTransaction(fn: (session: ClientSession) => Promise<void>): Promise<void> {
    const session = this.client.startSession();
    try {
      // withTransaction retries the callback on transient errors (write conflicts), which re-reads the checkpoint.
      await session.withTransaction(() => fn(session), {
        readConcern: { level: 'snapshot' },
        writeConcern: { w: 'majority' },
      });
    } finally {
      await session.endSession();
    }
  }

  /**
   * Compare-and-set of the checkpoint as a write, so two transactions moving the same checkpoint
   * conflict (one retries, re-reads and is refused) instead of both passing a read-only check.
   */
  private async moveCheckpoint(
    projection: string,
    expected: bigint | undefined,
    position: bigint,
    session: ClientSession,
  ): Promise<void> {
    if (expected === undefined) {
      try {
        await this.checkpoints().insertOne({ _id: projection, position: Long.fromBigInt(position) }, { session });
      } catch (error) {
        // The failed write aborted the transaction: read the checkpoint outside it.
        if (isDuplicateKey(error))
          throw new ConcurrentProjectionUpdate(projection, expected, await this.checkpoint(projection));
        throw error;
      }
      return;
    }
    const result = await this.checkpoints().updateOne(
      { _id: projection, position: Long.fromBigInt(expected) },
      { $set: { position: Long.fromBigInt(position) } },
      { session },
    );
    if (result.matchedCount !== 1)
      throw new ConcurrentProjectionUpdate(projection, expected, await this.checkpoint(projection, session));
  }

  /** A write on the lease document, so a takeover committed meanwhile makes this transaction conflict. */
  private async touchFence(fence: Fence, session: ClientSession): Promise<void> {
    const result = await this.leases().updateOne(
      { _id: fence.lease, token: Long.fromBigInt(fence.token) },
      { $inc: { fencedWrites: 1 } },
      { session },
    );
    if (result.matchedCount !== 1) throw new LeaseLost(fence.lease, fence.token);
  }

  private async checkFence(fence: Fence): Promise<void> {
    const row = await this.leases().findOne({ _id: fence.lease });
    if (!row || toBigInt(row.token) !== fence.token) throw new LeaseLost(fence.lease, fence.token);
  }

  protected async checkpoint(projection: string, session?: ClientSession): Promise<bigint | undefined> {
    const doc = await this.checkpoints().findOne({ _id: projection }, session ? { session } : {});
    return doc ? toBigInt(doc.position) : undefined;
  }

  private ensureIndexesOf(collection: string): Promise<void> {
    let done = this.indexed.get(collection);
    if (!done) {
      done = this.createIndexes(collection);
      // A failed attempt is retried by the next batch.
      done.catch(() => this.indexed.delete(collection));
      this.indexed.set(collection, done);
    }
    return done;
  }

  private async createIndexes(collection: string): Promise<void> {
    const declared = [...(this.declared.get(collection)?.values() ?? [])];
    await this.collection(collection).createIndexes([...DEFAULT_INDEXES, ...declared]);
  }

  private collection(name: string): Collection<StoredDoc> {
    return this.db.collection<StoredDoc>(name);
  }

  private checkpoints(): Collection<CheckpointDoc> {
    return this.db.collection<CheckpointDoc>(CHECKPOINTS);
  }

  private leases(): Collection<LeaseDoc> {
    return this.db.collection<LeaseDoc>(LEASES);
  }
}
