import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { ensurePrivateDir } from '#config/private-files.js';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { fileBytes } from './file-bytes.js';
import type { ByteSource } from '#domain/snapshot-codec.js';
import type { Snapshot, SnapshotStore, StoredSnapshot } from '../snapshot-store.js';

const SNAPSHOTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS snapshots (
  stream TEXT PRIMARY KEY,
  decider TEXT NOT NULL,
  version INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  state TEXT NOT NULL,
  taken_at TEXT NOT NULL,
  binary_file TEXT,
  binary_bytes INTEGER
)`;

interface SnapshotRow {
  decider: string;
  version: number;
  revision: number;
  event_id: string;
  state: string;
  binary_file: string | null;
  binary_bytes: number | null;
}

type Upsert = [string, string, number, bigint, string, string, string, string | null, number | null];

/** Writes a file durably: its bytes synced, then renamed into place, then the folder synced. */
function writeDurably(dir: string, name: string, bytes: Uint8Array): void {
  const temporary = join(dir, `${name}.tmp`);
  const fd = openSync(temporary, 'w', 0o600);
  try {
    for (let offset = 0; offset < bytes.byteLength;) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(dir, name));
  const folder = openSync(dir, 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/**
 * Snapshots in the embedded store's file: one row per stream in a `snapshots` table beside `events` (never read by
 * the event queries, so no snapshot is ever an event). A snapshot's binary part is a file of its own in the folder
 * `<database>-snapshots` (read by range where it lies, where a BLOB would be read whole page by page), named by the
 * row: the file is synced and renamed into place before the row that names it is written, so a row never names a file
 * that is not whole; a file no row names (a writer stopped in between, or a replaced snapshot) is removed. A write is
 * one transaction of its own, outside the group commit; a slower writer's older snapshot does not replace a newer one.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly read: Database.Statement<[string], SnapshotRow>;
  private readonly upsert: Database.Statement<Upsert>;
  private readonly write: (s: Snapshot, takenAt: string, file: string | null) => string | null | undefined;
  private readonly dir: string;

  constructor(
    private readonly db: Database.Database,
    path: string,
    private readonly now: () => Date,
  ) {
    this.dir = `${path}-snapshots`;
    db.exec(SNAPSHOTS_SCHEMA);
    // A file from before binary parts: the columns are added (older snapshots have none).
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(snapshots)').all();
    if (!columns.some((c) => c.name === 'binary_file')) {
      db.exec(
        'ALTER TABLE snapshots ADD COLUMN binary_file TEXT; ALTER TABLE snapshots ADD COLUMN binary_bytes INTEGER',
      );
    }
    this.read = db.prepare<[string], SnapshotRow>(
      'SELECT decider, version, revision, event_id, state, binary_file, binary_bytes FROM snapshots WHERE stream = ?',
    );
    this.upsert = db.prepare<Upsert>(
      `INSERT INTO snapshots (stream, decider, version, revision, event_id, state, taken_at, binary_file, binary_bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET
         decider = excluded.decider, version = excluded.version, revision = excluded.revision,
         event_id = excluded.event_id, state = excluded.state, taken_at = excluded.taken_at,
         binary_file = excluded.binary_file, binary_bytes = excluded.binary_bytes
       WHERE excluded.decider <> snapshots.decider OR excluded.version <> snapshots.version
          OR excluded.revision > snapshots.revision`,
    );
    const previous = db.prepare<[string], { binary_file: string | null }>(
      'SELECT binary_file FROM snapshots WHERE stream = ?',
    );
    // The file the row named before (to remove) when the row was replaced; undefined when it was kept.
    const write = db.transaction((s: Snapshot, takenAt: string, file: string | null) => {
      const before = previous.get(s.streamName)?.binary_file ?? null;
      const bytes = s.binary ? s.binary.byteLength : null;
      const row: Upsert = [s.streamName, s.decider, s.version, s.revision, s.eventId, s.state, takenAt, file, bytes];
      return this.upsert.run(...row).changes > 0 ? before : undefined;
    });
    this.write = (s, takenAt, file) => write.immediate(s, takenAt, file);
    this.removeUnnamedFiles();
  }

  async readSnapshot(streamName: string): Promise<StoredSnapshot | undefined> {
    const row = this.read.get(streamName);
    if (!row) return undefined;
    const { decider, version, state } = row;
    const snapshot = { streamName, decider, version, revision: BigInt(row.revision), eventId: row.event_id, state };
    if (row.binary_file === null) return snapshot;
    let binary;
    try {
      binary = fileBytes(join(this.dir, row.binary_file), row.binary_bytes ?? -1);
    } catch {
      return undefined; // removed by hand, or replaced since the row was read: as if there were no snapshot
    }
    return binary ? { ...snapshot, binary } : undefined;
  }

  async writeSnapshot(s: Snapshot): Promise<ByteSource | undefined> {
    if (typeof s.state !== 'string') throw new TypeError('a snapshot state is JSON text');
    let file: string | null = null;
    if (s.binary) {
      ensurePrivateDir(this.dir);
      file = `${randomUUID()}.bin`;
      writeDurably(this.dir, file, s.binary);
    }
    const replaced = this.write(s, this.now().toISOString(), file);
    // Kept: the new file is named by no row. Replaced: the old one is not any more.
    const unnamed = replaced === undefined ? file : replaced;
    if (unnamed) rmSync(join(this.dir, unnamed), { force: true });
    if (replaced === undefined || file === null) return undefined;
    try {
      return fileBytes(join(this.dir, file), s.binary!.byteLength);
    } catch {
      return undefined; // replaced and removed by a newer writer meanwhile: the caller keeps its own copy
    }
  }

  /** Files no row names: left by a writer that stopped before its row was written, or by a replaced snapshot. */
  private removeUnnamedFiles(): void {
    let files: string[];
    try {
      files = readdirSync(this.dir);
    } catch {
      return;
    }
    const named = new Set(
      this.db
        .prepare<[], { binary_file: string }>('SELECT binary_file FROM snapshots WHERE binary_file IS NOT NULL')
        .all()
        .map((r) => r.binary_file),
    );
    for (const file of files) if (!named.has(file)) rmSync(join(this.dir, file), { force: true });
  }
}
