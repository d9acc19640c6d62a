import type { EventMetadata, ExpectedRevision, RecordedEvent } from '../event-store.js';

/** The embedded event store's table, its rows and the small rules about them. */

export interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  UNIQUE (stream, revision)
)`;

/** `PRAGMA user_version` from which every event carries the hash chain (earlier files are upgraded on open). */
export const CHAINED_VERSION = 1;

export const COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_at';

/**
 * A LIMIT with its parameter cast: with a bare `LIMIT ?` an empty stream read took 14 µs, with the cast (or a literal)
 * 5 µs, on better-sqlite3's SQLite (built with STAT4, which may plan a statement again for the values bound to it).
 */
export const BOUND_LIMIT = 'LIMIT CAST(? AS INTEGER)';

/** A constraint violation (e.g. a duplicate event id) fails only its own append; anything else fails the batch. */
export function isConstraintError(error: unknown): boolean {
  return (
    typeof (error as { code?: unknown })?.code === 'string' &&
    (error as { code: string }).code.startsWith('SQLITE_CONSTRAINT')
  );
}

export function revisionMatches(expected: ExpectedRevision, current: bigint): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current < 0n;
  if (expected === 'stream_exists') return current >= 0n;
  return current === expected;
}

export function limitOf(maxCount: number | undefined): number {
  if (maxCount === undefined) return -1;
  if (!Number.isInteger(maxCount) || maxCount < 0)
    throw new RangeError(`maxCount must be a non-negative integer; got ${maxCount}`);
  return maxCount;
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    streamName: row.stream,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    recordedAt: new Date(row.recorded_at),
  };
}
