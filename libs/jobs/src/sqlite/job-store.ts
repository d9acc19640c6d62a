import type Database from 'better-sqlite3';
import { PLACES_SCHEMA } from './group-places.js';

/** The embedded job queue's table and its statements. */

export type StoredState = 'waiting' | 'delayed' | 'active' | 'completed' | 'dead';

export interface JobRow {
  queue: string;
  id: string;
  name: string;
  data: string;
  state: StoredState;
  attempts_made: number;
  max_attempts: number;
  backoff: string | null;
  due_at: number;
  lease_until: number | null;
  lease_token: string | null;
  last_error: string | null;
  grp: string | null;
  place: number;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  queue TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  data TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'delayed', 'active', 'completed', 'dead')),
  attempts_made INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  backoff TEXT,
  due_at INTEGER NOT NULL,
  lease_until INTEGER,
  lease_token TEXT,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER,
  grp TEXT,
  place INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (queue, id)
);
${PLACES_SCHEMA}
CREATE INDEX IF NOT EXISTS jobs_claimable ON jobs (queue, state, due_at, created_at);
CREATE INDEX IF NOT EXISTS jobs_leases ON jobs (queue, lease_until) WHERE state = 'active';
DROP INDEX IF EXISTS jobs_runnable;
`;
/** Files made before jobs had clock groups and places get the columns; the indexes need them, so they come after. */
const ADDED_COLUMNS_INDEXES =
  `CREATE INDEX IF NOT EXISTS jobs_group ON jobs (grp, state) WHERE grp IS NOT NULL;\n` +
  `CREATE INDEX IF NOT EXISTS jobs_waiting ON jobs (queue, place, due_at, created_at) WHERE state = 'waiting';`;

/** The tables and their indexes; a file made before clock groups or places gets the columns. */
export function createSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  const columns = new Set((db.prepare(`PRAGMA table_info(jobs)`).all() as { name: string }[]).map((c) => c.name));
  // Jobs from before places take place 0 and run first, as they did.
  for (const [column, type] of [
    ['grp', 'TEXT'],
    ['place', 'INTEGER NOT NULL DEFAULT 0'],
  ])
    if (!columns.has(column)) db.exec(`ALTER TABLE jobs ADD COLUMN ${column} ${type}`);
  db.exec(ADDED_COLUMNS_INDEXES);
}

/**
 * The first `@limit` jobs of the queue in `order` that meet `condition`. A LIMIT here casts its parameter, as the event
 * store's do (`BOUND_LIMIT` in its sqlite/event-rows.ts says why).
 */
const claimable = (condition: string, order = 'due_at, created_at') =>
  `SELECT rowid, place, due_at, created_at FROM jobs WHERE queue = @queue AND ${condition} ` +
  `ORDER BY ${order} LIMIT CAST(@limit AS INTEGER)`;

/** A deferred run's job (active, a lease nobody holds) is reported as delayed. */
const HELD_AS_DELAYED = `CASE WHEN state = 'active' AND lease_token IS NULL THEN 'delayed' ELSE state END`;

/** When the longest-waiting runnable job of a queue became due: waiting, or delayed and due but not promoted yet. */
export const OLDEST_DUE_SQL =
  `SELECT MIN(due_at) AS due FROM jobs WHERE queue = @queue AND due_at <= @now ` +
  `AND (state = 'waiting' OR (state = 'delayed' AND lease_token IS NULL))`;

/** Every statement the queue runs, prepared once. */
export function prepareStatements(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO jobs (queue, id, name, data, state, max_attempts, backoff, due_at, created_at, updated_at, grp,
         place)
       VALUES (@queue, @id, @name, @data, @state, @maxAttempts, @backoff, @dueAt, @now, @now, @group, @place)
       ON CONFLICT (queue, id) DO NOTHING`,
    ),
    // The first due jobs of each claimable kind (waiting, delayed and due, active with an expired lease), each a seek
    // in `jobs_waiting`, `jobs_claimable` or `jobs_leases`, then merged (one condition with OR read the whole queue at
    // every claim), in claim order: a job's place (group-places.ts), then due time, then creation.
    claim: db.prepare(
      `UPDATE jobs SET state = 'active', lease_until = @leaseUntil, lease_token = @token, updated_at = @now
       WHERE rowid IN (
         SELECT rowid FROM (
           SELECT * FROM (${claimable(`state = 'waiting' AND due_at <= @now`, 'place, due_at, created_at')})
           UNION ALL SELECT * FROM (${claimable(`state = 'delayed' AND due_at <= @now`)})
           UNION ALL SELECT * FROM (SELECT rowid, place, due_at, created_at FROM jobs
             WHERE queue = @queue AND state = 'active' AND lease_until <= @realNow
             ORDER BY lease_until LIMIT CAST(@limit AS INTEGER)))
         ORDER BY place, due_at, created_at
         LIMIT CAST(@limit AS INTEGER))
       RETURNING *`,
    ),
    renew: db.prepare(
      `UPDATE jobs SET lease_until = @leaseUntil WHERE queue = @queue AND id = @id AND ` +
        `lease_token = @token AND state = 'active'`,
    ),
    complete: db.prepare(
      `UPDATE jobs SET state = 'completed', attempts_made = attempts_made + 1, lease_until = NULL, lease_token = NULL,
         updated_at = @now, finished_at = @now
       WHERE queue = @queue AND id = @id AND lease_token = @token AND state = 'active'`,
    ),
    fail: db.prepare(
      `UPDATE jobs SET state = @state, attempts_made = attempts_made + 1, due_at = @dueAt, last_error = @error,
         lease_until = NULL, lease_token = NULL, updated_at = @now, finished_at = @finishedAt
       WHERE queue = @queue AND id = @id AND lease_token = @token AND state = 'active'`,
    ),
    // A run that was not an attempt: the job is held (a lease nobody has) until `holdUntil` in real time, its attempts
    // and last error unchanged; then it is claimable as a job whose holder died is.
    defer: db.prepare(
      `UPDATE jobs SET lease_until = @holdUntil, lease_token = NULL, updated_at = @now, place = @place
       WHERE queue = @queue AND id = @id AND lease_token = @token AND state = 'active'`,
    ),
    get: db.prepare(`SELECT * FROM jobs WHERE queue = ? AND id = ?`),
    depth: db.prepare(
      `SELECT state, COUNT(*) AS n FROM (SELECT ${HELD_AS_DELAYED} AS state FROM jobs ` +
        `WHERE queue = @queue AND (@group IS NULL OR grp = @group) ` +
        `AND state IN ('waiting', 'delayed', 'active', 'dead') LIMIT CAST(@cap AS INTEGER)) GROUP BY state`,
    ),
    dead: db.prepare(
      `SELECT * FROM jobs WHERE queue = ? AND state = 'dead' ORDER BY finished_at DESC, rowid DESC ` +
        'LIMIT CAST(? AS INTEGER)',
    ),
    retryDead: db.prepare(
      `UPDATE jobs SET state = 'waiting', attempts_made = 0, due_at = @now, last_error = NULL, updated_at = @now,
         finished_at = NULL, place = @place
       WHERE queue = @queue AND id = @id AND state = 'dead'`,
    ),
    promote: db.prepare(
      `UPDATE jobs SET state = 'waiting', updated_at = @now WHERE state = 'delayed' AND due_at <= @now`,
    ),
    advanceGroup: db.prepare(
      `UPDATE jobs SET due_at = due_at - @byMs,
         state = CASE WHEN due_at - @byMs <= @now THEN 'waiting' ELSE 'delayed' END, updated_at = @now
       WHERE grp = @group AND state = 'delayed'
       RETURNING state`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

/** Runs a write; true when it changed a row. */
export const run = (statement: Database.Statement, params: object): boolean => statement.run(params).changes > 0;
