import type Database from 'better-sqlite3';
import { countPartsOf, indexKeysOf, indexNameOf, type CountPart, type IndexShape } from '../query-plan.js';
import { SqliteDocCounts } from './doc-counts.js';
import type { IndexSpec } from '../read-model-store.js';

const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A declared index: its key expressions in order and, when it keeps a count (IndexSpec `counted`), its parts. */
interface Declared {
  columns: readonly string[];
  count?: readonly CountPart[];
}

/** An index's key expressions: `json_extract` of each field (the queries' operands), a flag's `json_type`, the id. */
function keyExpressions(shape: IndexShape): string[] {
  const flagSet = new Set(shape.flags);
  return indexKeysOf(shape).map((f) =>
    f === 'id' ? 'id' : flagSet.has(f) ? `json_type(body, '$.${f}')` : `json_extract(body, '$.${f}')`,
  );
}

/**
 * Every collection can be listed by creation per platform. A list across platforms declares its own index (the
 * platforms, bulk imports by status): a store-wide index by creation on every collection cost each write and a
 * rebuild's index builds while nothing read it.
 */
const DEFAULT_FIELDS: readonly (readonly string[])[] = [['platformId', 'createdAt']];

export function checkCollectionName(collection: string): void {
  if (!COLLECTION_NAME.test(collection)) {
    throw new TypeError(`collection name ${JSON.stringify(collection)} is not valid`);
  }
}

/** The table of a collection's documents: `docs_<collection>` (names are checked, so it needs no quoting). */
export function tableOf(collection: string): string {
  checkCollectionName(collection);
  return `docs_${collection}`;
}

/** Creates a collection's table (`table` from tableOf): a rowid table keyed by the document's id. */
export function createDocsTable(db: Database.Database, table: string): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, body TEXT NOT NULL)`);
}

/**
 * The tables of the documents, one per collection, and their secondary indexes. A collection's table is a rowid
 * table `(id PRIMARY KEY, body)`: rows are appended and the key lives in a narrow index. Each collection has the
 * default index (by `platformId` then `createdAt`) and the ones its projections declare, as
 * expression indexes over its own table: a document pays only for its own collection's indexes when written, and
 * building an index reads only its collection.
 *
 * While a rebuild replays into reset collections they have no secondary index at all: a replay writes each
 * document several times in random key order, and maintaining expression indexes on every write costs more than
 * building each index once, sorted, when the replay ends (`buildDeferred`).
 */
export class SqliteDocIndexes {
  /** Per collection, index name to its key expressions in order and, for a counted index, its count's parts. */
  private readonly declared = new Map<string, Map<string, Declared>>();
  /** Collections whose table exists (checked or created by this process), with the table's name. */
  private readonly tables = new Map<string, string>();
  /** Collections whose indexes exist (checked or created by this process). */
  private readonly indexed = new Set<string>();
  /** Collections written by a replay whose indexes are built once it ends. */
  private readonly deferred = new Set<string>();
  readonly counts: SqliteDocCounts;

  constructor(private readonly db: Database.Database) {
    this.counts = new SqliteDocCounts(db);
  }

  /**
   * Records the declared indexes and creates the table and every index of every collection stored or declared (of
   * `only` those collections, when given).
   */
  ensure(specs: readonly IndexSpec[], only?: readonly string[]): void {
    for (const spec of specs) {
      checkCollectionName(spec.collection);
      let ofCollection = this.declared.get(spec.collection);
      if (!ofCollection) this.declared.set(spec.collection, (ofCollection = new Map()));
      ofCollection.set(indexNameOf(spec), {
        columns: keyExpressions(spec),
        ...(spec.counted ? { count: countPartsOf(spec) } : {}),
      });
    }
    if (only) {
      for (const collection of only) {
        checkCollectionName(collection);
        this.deferred.delete(collection);
        this.create(collection);
      }
      return;
    }
    this.indexed.clear();
    this.deferred.clear();
    for (const collection of new Set([...this.declared.keys(), ...this.storedCollections()])) {
      this.table(collection);
      this.create(collection);
    }
  }

  /**
   * The collection's table, created the first time it is named (an unknown collection reads as empty).
   * Creating it outside the caller's transaction keeps reads from taking the write lock inside one.
   */
  table(collection: string): string {
    let table = this.tables.get(collection);
    if (table === undefined) {
      table = tableOf(collection);
      createDocsTable(this.db, table);
      this.tables.set(collection, table);
    }
    return table;
  }

  /**
   * Before a batch writes `collection`: its indexes are created the first time (a replay defers them instead, until
   * `buildDeferred` or the next live batch).
   */
  beforeWrite(collection: string, replay: boolean): void {
    this.table(collection);
    if (this.indexed.has(collection)) return;
    if (replay) this.deferred.add(collection);
    else this.create(collection);
  }

  /** Builds the indexes a replay deferred (each in one sorted pass over its collection's table). */
  buildDeferred(): void {
    for (const collection of this.deferred) this.create(collection);
    this.deferred.clear();
  }

  /**
   * Empties the collections: each table is dropped with its indexes and created again (inside the caller's
   * transaction), and their next writes create the indexes again.
   */
  reset(collections: readonly string[]): void {
    for (const collection of collections) {
      const table = tableOf(collection);
      this.counts.forget(collection);
      this.db.exec(`DROP TABLE IF EXISTS ${table}`);
      createDocsTable(this.db, table);
      this.tables.set(collection, table);
      this.indexed.delete(collection);
      this.deferred.delete(collection);
    }
  }

  private create(collection: string): void {
    const table = this.table(collection);
    const specs = new Map<string, Declared>(
      DEFAULT_FIELDS.map((fields) => [indexNameOf({ fields }), { columns: keyExpressions({ fields }) }]),
    );
    for (const [name, declared] of this.declared.get(collection) ?? []) specs.set(name, declared);
    for (const [name, { columns }] of specs) {
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${table}_${name} ON ${table} (${columns.join(', ')})`);
    }
    // An index no longer declared (a projection's indexes changed) only costs writes: it goes.
    const wanted = new Set([...specs.keys()].map((name) => `${table}_${name}`));
    const existing = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).all(table);
    for (const { name } of existing as { name: string }[]) {
      if (name.startsWith(`${table}_by_`) && !wanted.has(name)) this.db.exec(`DROP INDEX IF EXISTS ${name}`);
    }
    // A process that declares nothing of the collection (a reader) leaves its counts as the writers keep them.
    if (this.declared.has(collection)) {
      const counted = new Map<string, readonly CountPart[]>();
      for (const [name, { count }] of specs) if (count) counted.set(`${table}_${name}`, count);
      this.counts.keep(collection, table, counted);
    }
    this.indexed.add(collection);
  }

  /** The collections that have a table. */
  private storedCollections(): string[] {
    const rows = this.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'docs\\_%' ESCAPE '\\'`)
      .all() as { name: string }[];
    return rows.map((r) => r.name.slice('docs_'.length)).filter((name) => COLLECTION_NAME.test(name));
  }
}
