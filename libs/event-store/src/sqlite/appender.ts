import type Database from 'better-sqlite3';
import { Sqlite } from '#sqlite/driver.js';
import { ensurePrivateFile } from '#config/private-files.js';
import { WrongExpectedVersion, type AppendResult, type EventMetadata, type ExpectedRevision } from '../event-store.js';
import { GENESIS_HASH, chainMetadata, hashOf } from '../hash-chain.js';
import { isConstraintError, revisionMatches } from './event-rows.js';

/** One append of a group commit, already serialised (plain data: it may cross to the append thread). */
export interface AppendRequest {
  streamName: string;
  expected: ExpectedRevision;
  rows: { id: string; type: string; data: string; metadata: string }[];
}

/**
 * What became of one append of a committed group: its result, or why it alone was refused (a wrong expected
 * revision, or a constraint such as an event id used in another stream). Plain data, like the request.
 */
export type AppendReply =
  | { ok: true; result: AppendResult }
  | { ok: false; wrongVersion: { expected: ExpectedRevision; actual: bigint | 'no_stream' } }
  | { ok: false; constraint: { code: string; message: string } };

/** The error an append's caller sees for a refused append. */
export function refusal(request: AppendRequest, reply: Exclude<AppendReply, { ok: true }>): Error {
  if ('wrongVersion' in reply)
    return new WrongExpectedVersion(request.streamName, reply.wrongVersion.expected, reply.wrongVersion.actual);
  return Object.assign(new Error(reply.constraint.message), { code: reply.constraint.code });
}

/** Opens the event file for appends: WAL, every commit synced (`synchronous=FULL`), waiting for other writers. */
export function openForAppends(path: string, busyTimeoutMs: number): Database.Database {
  ensurePrivateFile(path);
  const db = new Sqlite(path);
  // The busy timeout comes first so that opening next to another process's write waits instead of failing.
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}

/**
 * Writes groups of appends, each group in one `BEGIN IMMEDIATE` transaction (one fsync). Each append runs in its
 * own savepoint and checks its expected revision inside the transaction, so a failed check refuses only that
 * append and holds even when other processes write to the same file; each event is linked into its stream's hash
 * chain from the previous event read in the same transaction.
 */
export class SqliteAppender {
  private readonly streamLast: Database.Statement<[string], { revision: number; metadata: string }>;
  private readonly insert: Database.Statement<[string, string, bigint, string, string, string, string]>;
  private readonly byId: Database.Statement<[string], { stream: string; revision: number; position: number }>;
  private readonly appendOne: Database.Transaction<(append: AppendRequest, recordedAt: string) => AppendResult>;
  private readonly group: Database.Transaction<(batch: AppendRequest[], recordedAt: string) => AppendReply[]>;

  constructor(db: Database.Database) {
    this.streamLast = db.prepare(
      'SELECT revision, metadata FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    );
    this.insert = db.prepare(
      'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.byId = db.prepare('SELECT stream, revision, position FROM events WHERE id = ?');
    // Called inside the group, better-sqlite3 runs this in a SAVEPOINT: a throw undoes only this append.
    this.appendOne = db.transaction((append: AppendRequest, recordedAt: string) => this.write(append, recordedAt));
    this.group = db.transaction((batch: AppendRequest[], recordedAt: string) =>
      batch.map((append): AppendReply => {
        try {
          return { ok: true, result: this.appendOne(append, recordedAt) };
        } catch (error) {
          if (error instanceof WrongExpectedVersion)
            return { ok: false, wrongVersion: { expected: error.expected, actual: error.actual } };
          if (isConstraintError(error)) {
            const { code, message } = error as { code: string; message: string };
            return { ok: false, constraint: { code, message } };
          }
          throw error;
        }
      }),
    );
  }

  /** Commits the group; throws (and nothing of it is durable) if the transaction itself fails. */
  commit(batch: AppendRequest[], recordedAt: string): AppendReply[] {
    return this.group.immediate(batch, recordedAt);
  }

  private write(append: AppendRequest, recordedAt: string): AppendResult {
    const original = this.alreadyAppended(append);
    if (original) return original;
    const last = this.streamLast.get(append.streamName);
    const current = last ? BigInt(last.revision) : -1n;
    if (!revisionMatches(append.expected, current)) {
      throw new WrongExpectedVersion(append.streamName, append.expected, current < 0n ? 'no_stream' : current);
    }
    let next = current;
    let position = 0n;
    // The previous event is read in this transaction, so the link cannot race another writer.
    let prevHash = last ? (hashOf(JSON.parse(last.metadata) as EventMetadata) ?? '') : GENESIS_HASH;
    for (const row of append.rows) {
      next += 1n;
      const metadata = chainMetadata(prevHash, {
        streamName: append.streamName,
        revision: next,
        type: row.type,
        data: JSON.parse(row.data),
        metadata: JSON.parse(row.metadata) as EventMetadata,
      });
      prevHash = metadata.hash as string;
      const stored = JSON.stringify(metadata);
      const info = this.insert.run(row.id, append.streamName, next, row.type, row.data, stored, recordedAt);
      position = BigInt(info.lastInsertRowid);
    }
    return { nextExpectedRevision: next, position };
  }

  /**
   * The result of an earlier identical append, as EventStoreDB gives for a repeated one: every event id is already
   * in this stream, in order, starting right after the expected revision (anywhere for 'any' / 'stream_exists').
   */
  private alreadyAppended(append: AppendRequest): AppendResult | undefined {
    const first = this.byId.get(append.rows[0]!.id);
    if (!first || first.stream !== append.streamName) return undefined;
    const start = BigInt(first.revision);
    const { expected } = append;
    if (expected === 'no_stream' && start !== 0n) return undefined;
    if (typeof expected === 'bigint' && start !== expected + 1n) return undefined;
    let position = BigInt(first.position);
    for (let i = 1; i < append.rows.length; i++) {
      const row = this.byId.get(append.rows[i]!.id);
      if (!row || row.stream !== append.streamName || BigInt(row.revision) !== start + BigInt(i)) return undefined;
      position = BigInt(row.position);
    }
    return { nextExpectedRevision: start + BigInt(append.rows.length - 1), position };
  }
}
