import type Database from 'better-sqlite3';
import { RecentCache } from '#domain/primitives.js';
import { plainError, plainFailureOf, type PlainFailure } from '#event-store/sqlite/commit-thread.js';
import { ConcurrentProjectionUpdate, LeaseLost, type CheckpointCommit, type Fence } from '../read-model-store.js';

/**
 * One write transaction of the embedded read-model store: each projection's checkpoint checked against the one its
 * writer read (and its lease's fence), the documents written, the checkpoints that move saved. Plain data, so that it
 * can be committed on the event-loop thread or sent to the commit thread.
 */
export interface DocCommit {
  checks: readonly CheckpointCheck[];
  /** Per table, the documents to write: a body, or null to delete. */
  writes: { table: string; rows: [id: string, body: string | null][] }[];
  saves: { projection: string; position: bigint }[];
}

/** A projection's checkpoint as its writer read it, and the lease it writes under (if any). */
export type CheckpointCheck = Pick<CheckpointCommit, 'projection' | 'expected' | 'fence'>;

/** Why a commit was refused, as the commit thread answers it (errors do not cross threads with their class). */
export type DocCommitFailure =
  | { kind: 'checkpoint'; projection: string; expected?: bigint; actual?: bigint }
  | { kind: 'lease'; lease: string; token: bigint }
  | ({ kind: 'error' } & PlainFailure);

export function failureOf(error: unknown): DocCommitFailure {
  if (error instanceof ConcurrentProjectionUpdate) {
    const { projection, expected, actual } = error;
    return { kind: 'checkpoint', projection, expected, actual };
  }
  if (error instanceof LeaseLost) return { kind: 'lease', lease: error.lease, token: error.token };
  return { kind: 'error', ...plainFailureOf(error) };
}

export function errorOf(failure: DocCommitFailure): Error {
  switch (failure.kind) {
    case 'checkpoint':
      return new ConcurrentProjectionUpdate(failure.projection, failure.expected, failure.actual);
    case 'lease':
      return new LeaseLost(failure.lease, failure.token);
    case 'error':
      return plainError(failure);
  }
}

interface LeaseRow {
  holder: string;
  token: number | bigint;
  expires_at: number;
}

/**
 * Commits DocCommits on one connection (the store's, or the commit thread's own), and keeps that connection's prepared
 * statements.
 */
export class DocCommitter {
  /** Query shapes vary (`in` lists of any length), so the prepared statements kept are bounded. */
  private readonly statements = new RecentCache<string, Database.Statement>(500);

  constructor(private readonly db: Database.Database) {}

  commit({ checks, writes, saves }: DocCommit): void {
    this.db
      .transaction(() => {
        // Checked inside the write lock: another connection may have committed since the writer read them.
        this.checkAll(checks);
        for (const { table, rows } of writes) {
          const upsert = this.statement(
            `INSERT INTO ${table} (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body`,
          );
          const remove = this.statement(`DELETE FROM ${table} WHERE id = ?`);
          for (const [id, body] of rows) {
            if (body === null) remove.run(id);
            else upsert.run(id, body);
          }
        }
        const save = this.statement(
          'INSERT INTO checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO ' +
            'UPDATE SET position = excluded.position',
        );
        for (const { projection, position } of saves) save.run(projection, position.toString());
      })
      .immediate();
  }

  /**
   * Throws unless every check holds, in their order: the stored checkpoint is `expected`, and the fence (if any) still
   * holds. A live batch checks every projection of its runner (each commits its checkpoint), so the checkpoints and
   * leases are read in one statement each rather than two lookups per projection: both tables hold a row per
   * projection or subscription, a few dozen.
   */
  checkAll(checks: readonly CheckpointCheck[]): void {
    if (checks.length === 0) return;
    const tokens = checks.some((c) => c.fence)
      ? new Map(
          (this.statement('SELECT name, token FROM leases').all() as { name: string; token: number | bigint }[]).map(
            (row) => [row.name, BigInt(row.token)],
          ),
        )
      : undefined;
    const positions = new Map(
      (
        this.statement('SELECT projection, position FROM checkpoints').all() as {
          projection: string;
          position: string;
        }[]
      ).map((row) => [row.projection, BigInt(row.position)]),
    );
    for (const { projection, expected, fence } of checks) {
      if (fence && tokens!.get(fence.lease) !== fence.token) throw new LeaseLost(fence.lease, fence.token);
      const stored = positions.get(projection);
      if (stored !== expected) throw new ConcurrentProjectionUpdate(projection, expected, stored);
    }
  }

  checkFence(fence: Fence): void {
    const row = this.lease(fence.lease);
    if (!row || BigInt(row.token) !== fence.token) throw new LeaseLost(fence.lease, fence.token);
  }

  checkpoint(projection: string): bigint | undefined {
    const row = this.statement('SELECT position FROM checkpoints WHERE projection = ?').get(projection) as
      { position: string } | undefined;
    return row ? BigInt(row.position) : undefined;
  }

  lease(name: string): LeaseRow | undefined {
    return this.statement('SELECT holder, token, expires_at FROM leases WHERE name = ?').get(name) as
      LeaseRow | undefined;
  }

  /** The connection's prepared statement for `sql` (prepared once while it is used). */
  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
