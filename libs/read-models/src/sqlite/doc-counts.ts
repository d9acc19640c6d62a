import type Database from 'better-sqlite3';
import { countKeysOf, type CountPart, type PlanFilter, type Scalar } from '../query-plan.js';

/**
 * Kept counts: `doc_counts` holds, for each counted index (by its SQL name), the number of documents per key (a JSON
 * array of the key's parts), and `doc_count_shapes` names the counts that are complete, with their collection and
 * parts. Triggers on the collection's table keep a count as documents are inserted, updated and deleted, by any
 * connection (the commit thread's included), so a count is in the same transaction as the writes it counts.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS doc_counts (
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (name, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS doc_count_shapes (
  name TEXT PRIMARY KEY,
  collection TEXT NOT NULL,
  parts TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS doc_count_shapes_by_collection ON doc_count_shapes (collection);
`;

/** A part's SQL over a row's body (`row` is `NEW.`, `OLD.` or empty): the same values the queries' filters test. */
function partSql({ field, kind }: CountPart, row: string): string {
  const path = `${row}body, '$.${field}'`;
  if (kind === 'flag') return `json_type(${path})`;
  if (kind === 'presence') return `iif(json_extract(${path}) IS NULL, 'absent', 'present')`;
  return `json_extract(${path})`;
}

const keySql = (parts: readonly CountPart[], row: string) =>
  `json_array(${parts.map((p) => partSql(p, row)).join(', ')})`;

/** `name` is an index's SQL name (checked identifiers only), inlined into the triggers. */
function triggersSql(table: string, name: string, parts: readonly CountPart[]): string {
  const [oldKey, newKey] = [keySql(parts, 'OLD.'), keySql(parts, 'NEW.')];
  const add = (key: string) =>
    `INSERT INTO doc_counts (name, key, n) VALUES ('${name}', ${key}, 1) ` +
    'ON CONFLICT (name, key) DO UPDATE SET n = n + 1;';
  const remove = (key: string) => `UPDATE doc_counts SET n = n - 1 WHERE name = '${name}' AND key = ${key};`;
  return `
CREATE TRIGGER IF NOT EXISTS ${name}_count_insert AFTER INSERT ON ${table} BEGIN ${add(newKey)} END;
CREATE TRIGGER IF NOT EXISTS ${name}_count_delete AFTER DELETE ON ${table} BEGIN ${remove(oldKey)} END;
CREATE TRIGGER IF NOT EXISTS ${name}_count_update AFTER UPDATE OF body ON ${table}
  WHEN ${oldKey} IS NOT ${newKey} BEGIN ${remove(oldKey)} ${add(newKey)} END;
`;
}

/**
 * Fills a count from its index (`name`, which holds every part's expression): grouped by the value and flag parts,
 * which lead the index, so SQLite streams the groups from the index alone, and summed once per combination of the
 * covered fields' presence. Grouped by the whole key instead, SQLite sorted the groups and read every document to
 * compute it: 50 times slower.
 */
function fillSql(table: string, name: string, parts: readonly CountPart[]): string[] {
  const grouped = parts.filter((p) => p.kind !== 'presence').map((p) => partSql(p, ''));
  const covered = parts.filter((p) => p.kind === 'presence');
  const groupBy = grouped.length > 0 ? ` GROUP BY ${grouped.join(', ')}` : '';
  return Array.from({ length: 2 ** covered.length }, (_, combination) => {
    const present = covered.map((_part, i) => ((combination >> i) & 1) === 1);
    const checks = covered.map((p, i) => `json_extract(body, '$.${p.field}') IS ${present[i] ? 'NOT ' : ''}NULL`);
    const n = checks.length > 0 ? `sum(${checks.join(' AND ')})` : 'count(*)';
    const key = `json_array(${[...grouped, ...present.map((on) => (on ? `'present'` : `'absent'`))].join(', ')})`;
    const from = `${table} INDEXED BY ${name}${groupBy}`;
    return `INSERT INTO doc_counts (name, key, n) SELECT ?, ${key}, ${n} AS n FROM ${from} HAVING n > 0`;
  });
}

/** A count's triggers are its name and one of these suffixes. */
const TRIGGER_SUFFIXES = ['_count_insert', '_count_delete', '_count_update'];

/** The kept counts of the embedded read-model store, on one connection. */
export class SqliteDocCounts {
  /** Parsed parts by their stored text (a handful of shapes). */
  private readonly parsed = new Map<string, CountPart[]>();

  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /**
   * Keeps the counts of a collection's counted indexes (`wanted`, by SQL name, each index existing): a count not yet
   * complete is filled from its index and its triggers created, in one transaction; a count no longer wanted goes
   * with its triggers.
   */
  keep(collection: string, table: string, wanted: ReadonlyMap<string, readonly CountPart[]>): void {
    this.db
      .transaction(() => {
        const rows = this.db.prepare('SELECT name, parts FROM doc_count_shapes WHERE collection = ?').all(collection);
        const kept = new Map((rows as { name: string; parts: string }[]).map((row) => [row.name, row.parts]));
        for (const [name, parts] of kept) {
          if (JSON.stringify(wanted.get(name)) === parts) continue;
          this.drop(name);
          kept.delete(name);
        }
        for (const [name, parts] of wanted) {
          if (!kept.has(name)) {
            this.db.prepare('DELETE FROM doc_counts WHERE name = ?').run(name);
            for (const fill of fillSql(table, name, parts)) this.db.prepare(fill).run(name);
            this.db
              .prepare('INSERT INTO doc_count_shapes (name, collection, parts) VALUES (?, ?, ?)')
              .run(name, collection, JSON.stringify(parts));
          }
          this.db.exec(triggersSql(table, name, parts));
        }
      })
      .immediate();
  }

  /** Forgets a collection's counts (inside the caller's transaction, as its table is dropped with the triggers). */
  forget(collection: string): void {
    const kept = this.db.prepare('SELECT name FROM doc_count_shapes WHERE collection = ?').all(collection) as {
      name: string;
    }[];
    for (const { name } of kept) this.drop(name);
  }

  /**
   * The exact number of the collection's documents that match `filters` when a complete count answers them (see
   * countKeysOf); otherwise undefined. `statement` is the reading connection's prepared statement for a SQL text.
   */
  lookup(
    collection: string,
    filters: readonly PlanFilter[],
    statement: (sql: string) => Database.Statement,
  ): number | undefined {
    const shapes = statement('SELECT name, parts FROM doc_count_shapes WHERE collection = ?').all(collection) as {
      name: string;
      parts: string;
    }[];
    // The count that answers with the fewest keys (a flag asked for rather than summed over).
    let best: { name: string; keys: Scalar[][] } | undefined;
    for (const { name, parts } of shapes) {
      const keys = countKeysOf(this.partsOf(parts), filters);
      if (keys && (!best || keys.length < best.keys.length)) best = { name, keys };
    }
    if (!best) return undefined;
    const { name, keys } = best;
    const key = `json_array(${keys[0].map(() => '?').join(', ')})`;
    const among = keys.map(() => key).join(', ');
    const sql = `SELECT coalesce(sum(n), 0) AS n FROM doc_counts WHERE name = ? AND key IN (${among})`;
    return (statement(sql).get(name, ...keys.flat()) as { n: number }).n;
  }

  private partsOf(text: string): CountPart[] {
    let parts = this.parsed.get(text);
    if (!parts) this.parsed.set(text, (parts = JSON.parse(text) as CountPart[]));
    return parts;
  }

  private drop(name: string): void {
    for (const suffix of TRIGGER_SUFFIXES) this.db.exec(`DROP TRIGGER IF EXISTS ${name}${suffix}`);
    this.db.prepare('DELETE FROM doc_counts WHERE name = ?').run(name);
    this.db.prepare('DELETE FROM doc_count_shapes WHERE name = ?').run(name);
  }
}
