import type Database from 'better-sqlite3';
import type { Snapshot, SnapshotStore } from './snapshot-store.js';

const SNAPSHOTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS snapshots (
  stream TEXT PRIMARY KEY,
  decider TEXT NOT NULL,
  version INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  state TEXT NOT NULL,
  taken_at TEXT NOT NULL,
  binary BLOB
)`;

interface SnapshotRow {
  decider: string;
  version: number;
  revision: number;
  event_id: string;
  state: string;
  binary: Buffer | null;
}

/**
 * Snapshots in the embedded store's file: one row per stream in a `snapshots` table beside `events` (never read by
 * the event queries, so no snapshot is ever an event). A write is one statement of its own, outside the group commit;
 * a slower writer's older snapshot does not replace a newer one.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly read: Database.Statement<[string], SnapshotRow>;
  private readonly upsert: Database.Statement<[string, string, number, bigint, string, string, string, Buffer | null]>;

  constructor(
    db: Database.Database,
    private readonly now: () => Date,
  ) {
    db.exec(SNAPSHOTS_SCHEMA);
    // A file from before binary parts: the column is added (older snapshots have none).
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(snapshots)').all();
    if (!columns.some((c) => c.name === 'binary')) db.exec('ALTER TABLE snapshots ADD COLUMN binary BLOB');
    this.read = db.prepare<[string], SnapshotRow>(
      'SELECT decider, version, revision, event_id, state, binary FROM snapshots WHERE stream = ?',
    );
    this.upsert = db.prepare<[string, string, number, bigint, string, string, string, Buffer | null]>(
      `INSERT INTO snapshots (stream, decider, version, revision, event_id, state, taken_at, binary)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET
         decider = excluded.decider, version = excluded.version, revision = excluded.revision,
         event_id = excluded.event_id, state = excluded.state, taken_at = excluded.taken_at, binary = excluded.binary
       WHERE excluded.decider <> snapshots.decider OR excluded.version <> snapshots.version
          OR excluded.revision > snapshots.revision`,
    );
  }

  async readSnapshot(streamName: string): Promise<Snapshot | undefined> {
    const row = this.read.get(streamName);
    if (!row) return undefined;
    const { decider, version, state, binary } = row;
    const snapshot = { streamName, decider, version, revision: BigInt(row.revision), eventId: row.event_id, state };
    return binary ? { ...snapshot, binary } : snapshot;
  }

  async writeSnapshot(s: Snapshot): Promise<void> {
    if (typeof s.state !== 'string') throw new TypeError('a snapshot state is JSON text');
    const takenAt = this.now().toISOString();
    const binary = s.binary ? Buffer.from(s.binary.buffer, s.binary.byteOffset, s.binary.byteLength) : null;
    this.upsert.run(s.streamName, s.decider, s.version, s.revision, s.eventId, s.state, takenAt, binary);
  }
}
