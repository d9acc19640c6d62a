import Database from 'better-sqlite3';
import { BufferedTransaction } from './buffered-transaction.js';
import { encodeCursor, planQuery, type Scalar } from './query-plan.js';
import { ConcurrentProjectionUpdate, type Doc, type Page, type ProjectionTransaction, type Query, type ReadModelStore } from './read-model-store.js';
import { buildSqlQuery } from './sqlite-query.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (collection, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS docs_by_created ON docs (collection, json_extract(body, '$.createdAt'), id);
CREATE INDEX IF NOT EXISTS docs_by_platform_created ON docs (collection, json_extract(body, '$.platformId'), json_extract(body, '$.createdAt'), id);
CREATE TABLE IF NOT EXISTS checkpoints (
  projection TEXT PRIMARY KEY,
  position TEXT NOT NULL
);
`;

/**
 * The embedded ReadModelStore: JSON documents in one SQLite table (better-sqlite3, WAL),
 * queried through json_extract. A batch's documents and its checkpoint are written in one
 * transaction. `synchronous=NORMAL`: in WAL mode every commit stays atomic, and a power loss can
 * only drop the newest commits, documents and checkpoint together; the projections then replay
 * them from the event log (which is `synchronous=FULL`). Read models are derived data.
 */
export class SqliteReadModelStore implements ReadModelStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    return this.read<T>(collection, id);
  }

  async find<T extends Doc = Doc>(collection: string, query: Query): Promise<Page<T>> {
    const plan = planQuery(collection, query);
    const sql = buildSqlQuery(collection, plan);
    const read = this.db.transaction(() => ({
      rows: this.statement(sql.page.sql).all(...sql.page.params) as { id: string; body: string; sv: Scalar }[],
      total: (this.statement(sql.count.sql).get(...sql.count.params) as { n: number }).n,
    }));
    // One read transaction, so the page and its count see the same snapshot.
    const { rows, total } = read();
    const hasMore = rows.length > plan.limit;
    const pageRows = hasMore ? rows.slice(0, plan.limit) : rows;
    const last = pageRows[pageRows.length - 1];
    return {
      data: pageRows.map((r) => JSON.parse(r.body) as T),
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(plan.fingerprint, { value: last.sv, id: last.id }) } : {}),
      totalCount: total,
    };
  }

  async getCheckpoint(projection: string): Promise<bigint | undefined> {
    return this.checkpoint(projection);
  }

  async commitBatch(projection: string, position: bigint, work: (tx: ProjectionTransaction) => Promise<void>): Promise<void> {
    const seen = this.checkpoint(projection);
    if (seen !== undefined && position <= seen) return;
    const tx = new BufferedTransaction((collection, id) => Promise.resolve(this.read(collection, id)));
    await work(tx);
    const upsert = this.statement(
      'INSERT INTO docs (collection, id, body) VALUES (?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body',
    );
    const remove = this.statement('DELETE FROM docs WHERE collection = ? AND id = ?');
    const save = this.statement(
      'INSERT INTO checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position',
    );
    const commit = this.db.transaction(() => {
      // Checked again inside the write lock: another process may have committed meanwhile.
      const stored = this.checkpoint(projection);
      if (stored !== undefined && position <= stored) return;
      if (stored !== seen) throw new ConcurrentProjectionUpdate(projection);
      for (const [collection, docs] of tx.writes) {
        for (const [id, doc] of docs) {
          if (doc) upsert.run(collection, id, JSON.stringify(doc));
          else remove.run(collection, id);
        }
      }
      save.run(projection, position.toString());
    });
    commit.immediate();
  }

  async advanceCheckpoints(positions: ReadonlyMap<string, bigint>): Promise<void> {
    if (positions.size === 0) return;
    const save = this.statement(
      'INSERT INTO checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position ' +
        'WHERE CAST(checkpoints.position AS INTEGER) < CAST(excluded.position AS INTEGER)',
    );
    this.db
      .transaction(() => {
        for (const [projection, position] of positions) save.run(projection, position.toString());
      })
      .immediate();
  }

  async reset(projection: string, collections: string[]): Promise<void> {
    const removeCollection = this.statement('DELETE FROM docs WHERE collection = ?');
    const removeCheckpoint = this.statement('DELETE FROM checkpoints WHERE projection = ?');
    this.db
      .transaction(() => {
        for (const collection of collections) removeCollection.run(collection);
        removeCheckpoint.run(projection);
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private read<T extends Doc>(collection: string, id: string): T | undefined {
    const row = this.statement('SELECT body FROM docs WHERE collection = ? AND id = ?').get(collection, id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as T) : undefined;
  }

  private checkpoint(projection: string): bigint | undefined {
    const row = this.statement('SELECT position FROM checkpoints WHERE projection = ?').get(projection) as { position: string } | undefined;
    return row ? BigInt(row.position) : undefined;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
      // Query shapes vary with `in` list lengths: keep the cache bounded.
      if (this.statements.size > 500) this.statements.delete(this.statements.keys().next().value as string);
    }
    return statement;
  }
}
