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
  taken_at TEXT NOT NULL
)`;

interface SnapshotRow {
  decider: string;
  version: number;
  revision: number;
  event_id: string;
  state: string;
}

/**
 * Snapshots in the embedded store's file: one row per stream in a `snapshots` table beside `events` (never read by
 * the event queries, so no snapshot is ever an event). A write is one statement of its own, outside the group commit;
 * a slower writer's older snapshot does not replace a newer one.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly read: Database.Statement<[string], SnapshotRow>;
  private readonly upsert: Database.Statement<[string, string, number, bigint, string, string, string]>;

  constructor(
    db: Database.Database,
    private readonly now: () => Date,
  ) {
    db.exec(SNAPSHOTS_SCHEMA);
    this.read = db.prepare<[string], SnapshotRow>(
      'SELECT decider, version, revision, event_id, state FROM snapshots WHERE stream = ?',
    );
    this.upsert = db.prepare<[string, string, number, bigint, string, string, string]>(
      `INSERT INTO snapshots (stream, decider, version, revision, event_id, state, taken_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET
         decider = excluded.decider, version = excluded.version, revision = excluded.revision,
         event_id = excluded.event_id, state = excluded.state, taken_at = excluded.taken_at
       WHERE excluded.decider <> snapshots.decider OR excluded.version <> snapshots.version
          OR excluded.revision > snapshots.revision`,
    );
  }

  async readSnapshot(streamName: string): Promise<Snapshot | undefined> {
    const row = this.read.get(streamName);
    if (!row) return undefined;
    const { decider, version, state } = row;
    return { streamName, decider, version, revision: BigInt(row.revision), eventId: row.event_id, state };
  }

  async writeSnapshot(s: Snapshot): Promise<void> {
    if (typeof s.state !== 'string') throw new TypeError('a snapshot state is JSON text');
    const takenAt = this.now().toISOString();
    this.upsert.run(s.streamName, s.decider, s.version, s.revision, s.eventId, s.state, takenAt);
  }
}
