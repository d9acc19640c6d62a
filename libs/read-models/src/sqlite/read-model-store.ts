import type Database from 'better-sqlite3';
import { Sqlite } from '#sqlite/driver.js';
import { ensurePrivateFile } from '#config/private-files.js';
import { dataVersionOf } from '#event-store/sqlite/commit-watch.js';
import { BufferedTransaction } from '../buffered-transaction.js';
import { DocCache } from './doc-cache.js';
import { leaseDecision, movesCheckpoint, ReadModelStoreBase } from '../read-model-store-base.js';
import { encodeCursor, planQuery, type Scalar } from '../query-plan.js';
import { createDocsTable, SqliteDocIndexes, tableOf } from './doc-indexes.js';
import {
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
import { buildSqlQuery } from './query.js';
import { DocCommitter, type DocCommit } from './doc-commit.js';
import { docWriter, type DocWriter } from './doc-writer.js';

const BUSY_TIMEOUT_MS = 5000;
/** Documents of live batches kept for the next batches' reads (a few MB at most). */
const DOC_CACHE_SIZE = 4096;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS checkpoints (
  projection TEXT PRIMARY KEY,
  position TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  token INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
`;

/**
 * Earlier layouts kept every collection in one `docs (collection, id, body)` table with partial indexes per
 * collection. Building one of them read the whole table, whatever the size of its collection, and a rebuild built
 * a couple of dozen. Such a store is split into one table per collection once, when it is opened.
 */
function splitSharedDocsTable(db: Database.Database): void {
  const shared = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'docs'`).get();
  if (!shared) return;
  db.transaction(() => {
    const rows = db.prepare('SELECT DISTINCT collection FROM docs').all() as { collection: string }[];
    for (const { collection } of rows) {
      const table = tableOf(collection);
      createDocsTable(db, table);
      db.prepare(`INSERT INTO ${table} (id, body) SELECT id, body FROM docs WHERE collection = ?`).run(collection);
    }
    db.exec('DROP TABLE docs');
  })();
}

/**
 * The embedded ReadModelStore: JSON documents in one SQLite table per collection (better-sqlite3, WAL),
 * queried through json_extract. A batch's documents and its checkpoint are written in one
 * transaction. `synchronous=NORMAL`: in WAL mode every commit stays atomic, and a power loss can
 * only drop the newest commits, documents and checkpoint together; the projections then replay
 * them from the event log (which is `synchronous=FULL`). Read models are derived data. Live batches are
 * committed on a thread of their own with its own connection (`commitThread`, see ThreadDocWriter), in
 * the order they come; a replay's pages, leases and resets are written on this connection.
 */
export class SqliteReadModelStore extends ReadModelStoreBase implements ReadModelStore {
  private readonly db: Database.Database;
  private closed = false;
  private replayTuned = false;
  private readonly scratch: boolean;
  private readonly indexes: SqliteDocIndexes;
  private readonly committer: DocCommitter;
  private readonly writer: DocWriter;
  /** An in-memory store's looks at its commit version (see commitVersion). */
  private looks = 0;
  /** A connection of its own that only reads `PRAGMA data_version` (see commitVersion); opened at the first use. */
  private watcher: { db: Database.Database; dataVersion: () => number } | undefined;
  /** Documents live batches committed (see DocCache). */
  private readonly cache = new DocCache(DOC_CACHE_SIZE);

  /**
   * `scratch`: a throw-away store (audit verify's replay into a temporary file) that nothing reads after a crash:
   * commits are not synced to disk at all (`synchronous=OFF`); they stay atomic for the process.
   * `commitThread`: false commits live batches on this connection; a URL names the thread's entry (tests).
   */
  constructor(
    private readonly path: string,
    options: { scratch?: boolean; commitThread?: boolean | URL } = {},
  ) {
    super();
    this.scratch = options.scratch === true;
    ensurePrivateFile(path);
    this.db = new Sqlite(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.scratch ? 'OFF' : 'NORMAL'}`);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    splitSharedDocsTable(this.db);
    this.db.exec(SCHEMA);
    this.indexes = new SqliteDocIndexes(this.db);
    this.committer = new DocCommitter(this.db);
    const thread = this.scratch ? false : options.commitThread;
    this.writer = docWriter(this.committer, path, { thread, busyTimeoutMs: BUSY_TIMEOUT_MS });
  }

  /**
   * See ReadModelStore.commitVersion: `PRAGMA data_version` of a connection that commits nothing itself, so that every
   * commit to the file changes it, this store's own included. An in-memory store has no second connection: its
   * version changes at every look, so its checkpoints are read at every poll.
   */
  commitVersion(): number {
    if (this.path === ':memory:') return ++this.looks;
    if (!this.watcher) {
      const db = new Sqlite(this.path);
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      this.watcher = { db, dataVersion: dataVersionOf(db) };
    }
    return this.watcher.dataVersion();
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    return this.read<T>(collection, id);
  }

  async find<T extends Doc = Doc>(collection: string, query: Query): Promise<Page<T>> {
    const plan = planQuery(collection, query);
    const sql = buildSqlQuery(this.indexes.table(collection), plan);
    const statement = (text: string) => this.statement(text);
    const read = this.db.transaction(() => ({
      rows: this.statement(sql.page.sql).all(...sql.page.params) as { id: string; body: string; sv: Scalar }[],
      total:
        this.indexes.counts.lookup(collection, plan.filters, statement) ??
        (this.statement(sql.count.sql).get(...sql.count.params) as { n: number }).n,
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

  /** See SqliteDocIndexes: partial indexes per collection, the defaults and the declared ones. */
  async ensureIndexes(indexes: readonly IndexSpec[], collections?: readonly string[]): Promise<void> {
    this.indexes.ensure(indexes, collections);
  }

  /** The query plan SQLite chooses for a find (for tests that check that queries use an index). */
  explainFind(collection: string, query: Query): string[] {
    const sql = buildSqlQuery(this.indexes.table(collection), planQuery(collection, query));
    const explain = (q: { sql: string; params: unknown[] }) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail);
    return [...explain(sql.page), ...explain(sql.count)];
  }

  async explain(collection: string, query: Query): Promise<{ scans: boolean; plan: string[] }> {
    const plan = this.explainFind(collection, query);
    // Every step on the documents table must SEARCH an index by a document value; SCAN, or a search
    // by the collection alone, reads the whole collection.
    const table = tableOf(collection);
    const steps = plan.filter((detail) => new RegExp(`\\b${table}\\b`).test(detail));
    const byValue = new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX \\w+ \\(<expr>`);
    return { scans: steps.length === 0 || steps.some((detail) => !byValue.test(detail)), plan };
  }

  async commitBatches(
    commits: readonly CheckpointCommit[],
    work: (tx: ProjectionTransaction) => Promise<void>,
    options: { replay?: boolean } = {},
  ): Promise<void> {
    this.committer.checkAll(commits);
    const moving = commits.filter(movesCheckpoint);
    if (moving.length === 0) return;
    const replay = options.replay === true;
    this.tuneFor(replay);
    if (!replay) this.indexes.buildDeferred();
    const cached = !replay && this.cache.admit(commits);
    const read = (collection: string, id: string) => {
      const doc = cached ? this.cache.get(collection, id) : undefined;
      return Promise.resolve(doc === undefined ? this.read(collection, id) : (doc ?? undefined));
    };
    const tx = new BufferedTransaction(read, { freeze: !replay });
    await work(tx);
    for (const collection of tx.writes.keys()) this.indexes.beforeWrite(collection, replay);
    const commit: DocCommit = {
      checks: commits.map(({ projection, expected, fence }) => ({ projection, expected, fence })),
      writes: [...tx.writes.keys()].map((collection) => ({
        table: this.indexes.table(collection),
        rows: [...tx.texts(collection)].map(([id, text]) => [id, text || null] as [string, string | null]),
      })),
      saves: moving.map(({ projection, position }) => ({ projection, position })),
    };
    try {
      await this.write(commit);
    } catch (error) {
      this.cache.clear();
      throw error;
    }
    if (cached) this.cache.remember(tx.writes);
  }

  async advanceCheckpoints(advances: ReadonlyMap<string, CheckpointAdvance>): Promise<void> {
    if (advances.size === 0) return;
    const entries = [...advances];
    const commit: DocCommit = {
      checks: entries.map(([projection, { expected, fence }]) => ({ projection, expected, fence })),
      writes: [],
      saves: entries
        .filter(([, advance]) => movesCheckpoint(advance))
        .map(([projection, { position }]) => ({ projection, position })),
    };
    await this.write(commit);
  }

  /** A replay's pages and its closing advance on this connection, tuned for them; live batches by the writer. */
  private async write(commit: DocCommit): Promise<void> {
    if (this.replayTuned) this.committer.commit(commit);
    else await this.writer.commit(commit);
  }

  async reset(projection: string, collections: string[], fence?: Fence): Promise<void> {
    this.cache.clear();
    const removeCheckpoint = this.statement('DELETE FROM checkpoints WHERE projection = ?');
    this.db
      .transaction(() => {
        if (fence) this.committer.checkFence(fence);
        this.indexes.reset(collections);
        removeCheckpoint.run(projection);
      })
      .immediate();
  }

  async acquireLease(request: LeaseRequest): Promise<LeaseGrant | undefined> {
    const { name, holder } = request;
    return this.db
      .transaction((): LeaseGrant | undefined => {
        const row = this.committer.lease(name);
        const stored = row && { holder: row.holder, token: BigInt(row.token), expiresAt: row.expires_at };
        const decided = leaseDecision(stored, request);
        if (!decided) return undefined;
        const { token, expiresAt } = decided;
        if (decided.renewed) {
          this.statement('UPDATE leases SET expires_at = ? WHERE name = ?').run(expiresAt, name);
        } else {
          this.statement(
            'INSERT INTO leases (name, holder, token, expires_at) VALUES (?, ?, ?, ?) ' +
              'ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, token = excluded.token, ' +
              'expires_at = excluded.expires_at',
          ).run(name, holder, token, expiresAt);
        }
        return { token, expiresAt };
      })
      .immediate();
  }

  async renewLease(
    name: string,
    holder: string,
    token: bigint,
    ttlMs: number,
    now = Date.now(),
  ): Promise<LeaseGrant | undefined> {
    const expiresAt = now + ttlMs;
    const info = this.statement('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND token = ?').run(
      expiresAt,
      name,
      holder,
      token,
    );
    return info.changes === 1 ? { token, expiresAt } : undefined;
  }

  async releaseLease(name: string, holder: string, token: bigint): Promise<void> {
    // The row stays (expired) so the next holder's token is higher than this one.
    this.statement('UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND token = ?').run(
      name,
      holder,
      token,
    );
  }

  async readLease(name: string): Promise<{ holder: string; token: bigint; expiresAt: number } | undefined> {
    const row = this.committer.lease(name);
    return row ? { holder: row.holder, token: BigInt(row.token), expiresAt: row.expires_at } : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writer.close();
    this.watcher?.db.close();
    this.db.close();
  }

  private read<T extends Doc>(collection: string, id: string): T | undefined {
    const table = this.indexes.table(collection);
    const row = this.statement(`SELECT body FROM ${table} WHERE id = ?`).get(id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as T) : undefined;
  }

  /**
   * Tuning while a replay's batches arrive (back to SQLite's defaults with the first live batch). SQLite
   * checkpoints the write-ahead log into the database file (two fsyncs) after a commit that leaves it over
   * `wal_autocheckpoint` pages: a replay's batches each write thousands of pages, so checkpointing every 64 MiB
   * instead of every 4 MiB copies a page rewritten by several batches once and syncs a few times rather than after
   * every batch. A 64 MiB page cache (instead of 2 MiB) keeps the tables' inner pages and more leaves in memory
   * while documents are written all over them; it is a fixed bound, so memory stays flat as the log grows. Commits
   * are not synced while a replay runs (`synchronous=OFF`; each stays atomic, and a process crash loses nothing):
   * `endReplay` syncs them all at once. A power loss in the middle of a rebuild can leave the file unreadable;
   * the read models are derived, so the remedy is to delete it and rebuild.
   */
  private tuneFor(replay: boolean): void {
    if (this.replayTuned === replay) return;
    this.cache.clear();
    this.db.pragma(`wal_autocheckpoint = ${replay ? 16384 : 1000}`);
    this.db.pragma(`cache_size = ${replay ? -65536 : -2000}`);
    this.db.pragma(`synchronous = ${replay || this.scratch ? 'OFF' : 'NORMAL'}`);
    this.replayTuned = replay;
  }

  /**
   * Back to live settings, and a checkpoint: with `synchronous=NORMAL` again it syncs the write-ahead log, the
   * replay's commits included, before it copies pages into the file.
   */
  async endReplay(): Promise<void> {
    if (!this.replayTuned) return;
    this.tuneFor(false);
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  protected checkpoint(projection: string): bigint | undefined {
    return this.committer.checkpoint(projection);
  }

  private statement(sql: string): Database.Statement {
    return this.committer.statement(sql);
  }
}
