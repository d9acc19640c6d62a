import { Long, MongoClient, type AnyBulkWriteOperation, type ClientSession, type Collection, type Db } from 'mongodb';
import { BufferedTransaction } from './buffered-transaction.js';
import { buildMongoQuery } from './mongodb-query.js';
import { encodeCursor, planQuery, sortValueOf } from './query-plan.js';
import { ConcurrentProjectionUpdate, type Doc, type Page, type ProjectionTransaction, type Query, type ReadModelStore } from './read-model-store.js';

interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

interface CheckpointDoc {
  _id: string;
  /** Int64, so checkpoints order numerically in the database too. */
  position: Long | number | bigint | string;
}

/** Not a read-model collection name (those are plain identifiers without a leading underscore). */
const CHECKPOINTS = '_projection_checkpoints';

function toBigInt(value: CheckpointDoc['position']): bigint {
  if (value instanceof Long) return value.toBigInt();
  return BigInt(value);
}

function fromStored<T extends Doc>(stored: StoredDoc): T {
  const { _id: _ignored, ...doc } = stored;
  return doc as T;
}

/**
 * The MongoDB ReadModelStore: one MongoDB collection per read-model collection with `_id` = id,
 * and one checkpoint document per projection. A batch's upserts and its checkpoint are written
 * in one transaction (MongoDB runs as a replica set, a single node at least), guarded by the
 * stored position so a replayed batch changes nothing.
 */
export class MongoReadModelStore implements ReadModelStore {
  private readonly indexed = new Map<string, Promise<void>>();

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

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
      docs.countDocuments(mongo.count),
    ]);
    const hasMore = rows.length > plan.limit;
    const data = (hasMore ? rows.slice(0, plan.limit) : rows).map((r) => fromStored<T>(r));
    const last = data[data.length - 1];
    return {
      data,
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(plan.fingerprint, { value: sortValueOf(last, plan.sortBy), id: last.id }) } : {}),
      totalCount: total,
    };
  }

  async getCheckpoint(projection: string): Promise<bigint | undefined> {
    return this.checkpoint(projection);
  }

  async commitBatch(projection: string, position: bigint, work: (tx: ProjectionTransaction) => Promise<void>): Promise<void> {
    const seen = await this.checkpoint(projection);
    if (seen !== undefined && position <= seen) return;
    const tx = new BufferedTransaction((collection, id) => this.get(collection, id));
    await work(tx);
    // Index builds cannot run inside a transaction: make sure they exist first.
    await Promise.all([...tx.writes.keys()].map((c) => this.ensureIndexes(c)));
    await this.inTransaction(async (session) => {
      const stored = await this.checkpoint(projection, session);
      if (stored !== undefined && position <= stored) return;
      if (stored !== seen) throw new ConcurrentProjectionUpdate(projection);
      for (const [collection, docs] of tx.writes) {
        const ops: AnyBulkWriteOperation<StoredDoc>[] = [...docs].map(([id, doc]) =>
          doc
            ? { replaceOne: { filter: { _id: id }, replacement: { ...doc, _id: id }, upsert: true } }
            : { deleteOne: { filter: { _id: id } } },
        );
        if (ops.length) await this.collection(collection).bulkWrite(ops, { session, ordered: true });
      }
      await this.checkpoints().updateOne({ _id: projection }, { $set: { position: Long.fromBigInt(position) } }, { upsert: true, session });
    });
  }

  async advanceCheckpoints(positions: ReadonlyMap<string, bigint>): Promise<void> {
    if (positions.size === 0) return;
    const ops = [...positions].map(([projection, position]) => ({
      updateOne: {
        filter: { _id: projection, position: { $lt: Long.fromBigInt(position) } },
        update: { $set: { position: Long.fromBigInt(position) } },
        upsert: true,
      },
    }));
    try {
      await this.checkpoints().bulkWrite(ops, { ordered: false });
    } catch (error) {
      // An upsert whose filter missed because the stored checkpoint is already further along
      // collides on _id (E11000): that checkpoint stays where it is, as intended.
      const writeErrors = (error as { writeErrors?: { code?: number }[] }).writeErrors;
      if (!writeErrors || writeErrors.some((e) => e.code !== 11000)) throw error;
    }
  }

  async reset(projection: string, collections: string[]): Promise<void> {
    await this.inTransaction(async (session) => {
      for (const collection of collections) await this.collection(collection).deleteMany({}, { session });
      await this.checkpoints().deleteOne({ _id: projection }, { session });
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async inTransaction(fn: (session: ClientSession) => Promise<void>): Promise<void> {
    const session = this.client.startSession();
    try {
      // withTransaction retries the callback on transient errors (write conflicts), which re-reads the checkpoint.
      await session.withTransaction(() => fn(session), { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
    } finally {
      await session.endSession();
    }
  }

  private async checkpoint(projection: string, session?: ClientSession): Promise<bigint | undefined> {
    const doc = await this.checkpoints().findOne({ _id: projection }, session ? { session } : {});
    return doc ? toBigInt(doc.position) : undefined;
  }

  private ensureIndexes(collection: string): Promise<void> {
    let done = this.indexed.get(collection);
    if (!done) {
      done = this.collection(collection)
        .createIndexes([
          { key: { createdAt: 1, _id: 1 }, name: 'by_created' },
          { key: { platformId: 1, createdAt: 1, _id: 1 }, name: 'by_platform_created' },
        ])
        .then(() => undefined);
      // A failed attempt is retried by the next batch.
      done.catch(() => this.indexed.delete(collection));
      this.indexed.set(collection, done);
    }
    return done;
  }

  private collection(name: string): Collection<StoredDoc> {
    return this.db.collection<StoredDoc>(name);
  }

  private checkpoints(): Collection<CheckpointDoc> {
    return this.db.collection<CheckpointDoc>(CHECKPOINTS);
  }
}
