import type Database from 'better-sqlite3';
import { indexNameOf } from './query-plan.js';
import type { IndexSpec } from './read-model-store.js';

const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every collection can be listed by creation, across the store and per platform. */
const DEFAULT_FIELDS: readonly (readonly string[])[] = [['createdAt'], ['platformId', 'createdAt']];

export function checkCollectionName(collection: string): void {
  if (!COLLECTION_NAME.test(collection)) {
    throw new TypeError(`collection name ${JSON.stringify(collection)} is not valid`);
  }
}

/**
 * The secondary indexes of the documents table. Each is a partial index of one collection
 * (`WHERE collection = '<name>'`, with `collection` leading so the planner prefers it to a shorter one), so a
 * document pays only for its own collection's indexes when written; queries name their collection as a literal,
 * which lets the planner use them. A collection has the two default indexes (by `createdAt`, by `platformId` then
 * `createdAt`) and the ones its projections declare.
 *
 * While a rebuild replays into reset collections they have no secondary index at all: a replay writes each
 * document several times in random key order, and maintaining a dozen expression indexes on every write costs
 * more than building each index once, sorted, when the replay ends (`buildDeferred`).
 */
export class SqliteDocIndexes {
  private readonly declared = new Map<string, Map<string, readonly string[]>>();
  /** Collections whose indexes exist (checked or created by this process). */
  private readonly indexed = new Set<string>();
  /** Collections written by a replay whose indexes are built once it ends. */
  private readonly deferred = new Set<string>();

  constructor(private readonly db: Database.Database) {}

  /**
   * Records the declared indexes and creates every index of every collection the store holds or declares.
   * Indexes of earlier layouts (`docs_by_*`, over every collection at once) are dropped.
   */
  ensure(specs: readonly IndexSpec[]): void {
    for (const { collection, fields } of specs) {
      checkCollectionName(collection);
      const name = indexNameOf(fields);
      let ofCollection = this.declared.get(collection);
      if (!ofCollection) this.declared.set(collection, (ofCollection = new Map()));
      ofCollection.set(name, fields);
    }
    const listed = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'docs'`);
    for (const { name } of listed.all() as { name: string }[]) {
      if (name.startsWith('docs_by_')) this.db.exec(`DROP INDEX IF EXISTS ${name}`);
    }
    this.indexed.clear();
    this.deferred.clear();
    for (const collection of new Set([...this.declared.keys(), ...this.storedCollections()])) this.create(collection);
  }

  /**
   * Before a batch writes `collection`: its indexes are created the first time (a replay defers them instead, until
   * `buildDeferred` or the next live batch).
   */
  beforeWrite(collection: string, replay: boolean): void {
    if (this.indexed.has(collection)) return;
    if (replay) this.deferred.add(collection);
    else this.create(collection);
  }

  /** Builds the indexes a replay deferred (each in one sorted pass over its collection). */
  buildDeferred(): void {
    for (const collection of this.deferred) this.create(collection);
    this.deferred.clear();
  }

  /** A reset collection is empty: its indexes go with its documents, and its next writes create them again. */
  drop(collections: readonly string[]): void {
    const listed = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'docs'`);
    const names = (listed.all() as { name: string }[]).map((r) => r.name);
    for (const collection of collections) {
      checkCollectionName(collection);
      const prefix = `docs_${collection}_by_`;
      for (const name of names) {
        if (name.startsWith(prefix) && this.isIndexOf(name, collection)) this.db.exec(`DROP INDEX IF EXISTS ${name}`);
      }
      this.indexed.delete(collection);
      this.deferred.delete(collection);
    }
  }

  private create(collection: string): void {
    checkCollectionName(collection);
    const specs = new Map<string, readonly string[]>(DEFAULT_FIELDS.map((fields) => [indexNameOf(fields), fields]));
    for (const [name, fields] of this.declared.get(collection) ?? []) specs.set(name, fields);
    for (const [name, fields] of specs) {
      const columns = fields.map((f) => `json_extract(body, '$.${f}')`).join(', ');
      this.db.exec(
        `CREATE INDEX IF NOT EXISTS docs_${collection}_${name} ON docs (collection, ${columns}, id) ` +
          `WHERE collection = '${collection}'`,
      );
    }
    this.indexed.add(collection);
  }

  /** `docs_a_by_x` is an index of collection `a`, not of `a_by` (names are checked against the stored SQL). */
  private isIndexOf(name: string, collection: string): boolean {
    const row = this.db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).get(name) as
      { sql: string | null } | undefined;
    return row?.sql?.endsWith(`WHERE collection = '${collection}'`) ?? false;
  }

  /** The distinct collections of the documents table, one index seek each. */
  private storedCollections(): string[] {
    const rows = this.db
      .prepare(
        'WITH RECURSIVE c(name) AS (SELECT min(collection) FROM docs UNION ALL ' +
          'SELECT (SELECT min(collection) FROM docs WHERE collection > c.name) FROM c WHERE c.name IS NOT NULL) ' +
          'SELECT name FROM c WHERE name IS NOT NULL',
      )
      .all() as { name: string }[];
    return rows.map((r) => r.name).filter((name) => COLLECTION_NAME.test(name));
  }
}
