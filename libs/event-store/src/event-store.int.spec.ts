import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Sqlite, sqliteModule } from '#sqlite/driver.js';
import { ManualClock } from '#domain/clock.js';
import { WrongExpectedVersion, type RecordedEvent } from './event-store.js';
import { eventStoreReadContract } from './event-store-reads.contract.js';
import { eventStoreContract, eventually } from './event-store.contract.js';
import { EventStoreDbEventStore } from './eventstoredb/event-store.js';
import { createEventStore } from './index.js';
import { SqliteEventStore } from './sqlite/event-store.js';
import { snapshotStoreContract } from './snapshot-store.contract.js';
import type { StoredSnapshot } from './snapshot-store.js';

const root = mkdtempSync(join(tmpdir(), 'event-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const contractFile = join(root, 'contract.db');
eventStoreContract('sqlite', async () => new SqliteEventStore(contractFile));
eventStoreReadContract('sqlite', async () => new SqliteEventStore(contractFile));
snapshotStoreContract('sqlite', async () => new SqliteEventStore(contractFile));

// The same contract with appends committed on the append thread (its compiled entry: `npm test` builds first).
const appendThread = pathToFileURL(resolve('dist/libs/event-store/src/sqlite/append-thread.js'));
if (!existsSync(appendThread)) throw new Error(`${fileURLToPath(appendThread)} is missing: run npm run build first`);
const threadFile = join(root, 'contract-thread.db');
eventStoreContract('sqlite, append thread', async () => new SqliteEventStore(threadFile, { appendThread }));
eventStoreReadContract('sqlite, append thread', async () => new SqliteEventStore(threadFile, { appendThread }));

const eventStoreUrl = process.env.EVENTSTORE_URL;
if (eventStoreUrl) {
  eventStoreContract('eventstoredb', async () => new EventStoreDbEventStore(eventStoreUrl));
  eventStoreReadContract('eventstoredb', async () => new EventStoreDbEventStore(eventStoreUrl));
  snapshotStoreContract('eventstoredb', async () => new EventStoreDbEventStore(eventStoreUrl));
} else {
  console.log('EventStoreDB contract suite skipped: EVENTSTORE_URL is not set');
  describe.skip('EventStoreDB contract suite skipped: EVENTSTORE_URL is not set', () => {
    it('runs the EventStore contract against EventStoreDB', () => undefined);
  });
}

const event = (n: number) => ({ type: 'Tested', data: { n } });

/** Runs an ES module in a separate node process; better-sqlite3 resolves from the project root. */
function child(
  script: string,
  args: string[],
  onLine?: (line: string) => void,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', script, ...args], { cwd: process.cwd() });
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (const line of chunk.split('\n')) if (line) onLine?.(line);
    });
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, out, err }));
  });
}

const INSERT =
  `INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES ` +
  `(?, ?, ?, 'WrittenElsewhere', '{}', '{}', ?)`;

describe('SqliteEventStore', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(root, 'case-'));
  });
  afterEach(async () => {
    await store?.close();
  });

  it('commits appends issued in the same tick in one transaction', async () => {
    store = new SqliteEventStore(join(dir, 'events.db'));
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) => store.appendToStream(`s-${i}`, [event(i), event(i)])),
    );
    expect(store.stats()).toEqual({ transactions: 1, appends: 64, events: 128 });
    // Positions follow the order in which appends were issued.
    const positions = results.map((r) => r.position);
    expect(positions).toEqual(Array.from({ length: 64 }, (_, i) => BigInt(2 * i + 2)));
    await store.appendToStream('s-0', [event(99)], { expectedRevision: 1n });
    expect(store.stats().transactions).toBe(2);
  });

  it('rejects only the appends whose check fails; the rest of the batch commits', async () => {
    store = new SqliteEventStore(join(dir, 'events.db'));
    await store.appendToStream('taken', [event(0)]);
    const duplicateId = randomUUID();
    const outcomes = await Promise.allSettled([
      store.appendToStream('fresh-1', [event(1)], { expectedRevision: 'no_stream' }),
      store.appendToStream('taken', [event(2)], { expectedRevision: 'no_stream' }),
      store.appendToStream('fresh-2', [{ ...event(3), id: duplicateId }]),
      store.appendToStream('fresh-3', [{ ...event(4), id: duplicateId }]),
      store.appendToStream('taken', [event(5)], { expectedRevision: 0n }),
      store.appendToStream('taken', [event(6)], { expectedRevision: 0n }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersion);
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect((outcomes[5] as PromiseRejectedResult).reason).toMatchObject({ actual: 1n });
    expect(store.stats()).toMatchObject({ transactions: 2, appends: 4 });
    expect((await store.readAll()).map((e) => e.streamName)).toEqual(['taken', 'fresh-1', 'fresh-2', 'taken']);
    expect(await store.readStream('fresh-3')).toEqual([]);
  });

  it('stamps recordedAt with the injected clock', async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 2, 3, 4, 5));
    store = (await createEventStore({ kind: 'sqlite', path: join(dir, 'events.db') }, { clock })) as SqliteEventStore;
    await store.appendToStream('clocked', [event(0)]);
    clock.advance(60_000);
    await store.appendToStream('clocked', [event(1)]);
    const events = await store.readStream('clocked');
    expect(events.map((e) => e.recordedAt.toISOString())).toEqual([
      '2030-01-02T03:04:05.000Z',
      '2030-01-02T03:05:05.000Z',
    ]);
  });

  it('settles accepted appends on close and rejects appends after it', async () => {
    store = new SqliteEventStore(join(dir, 'events.db'));
    const pending = store.appendToStream('closing', [event(0)]);
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(store.appendToStream('closing', [event(1)])).rejects.toThrow('closed');
  });

  it('checks the expected revision inside the write lock, against writes by another process', async () => {
    const file = join(dir, 'events.db');
    store = new SqliteEventStore(file, { busyTimeoutMs: 10_000 });
    await store.appendToStream('shared', [event(0)], { expectedRevision: 'no_stream' });
    expect((await store.readStream('shared')).at(-1)?.revision).toBe(0n);
    // The other process takes the write lock, writes revision 1 and commits a moment later.
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const other = child(
      `import Database from '${sqliteModule}';
       import { randomUUID } from 'node:crypto';
       const [file, stream] = process.argv.slice(1);
       const db = new Database(file);
       db.exec('BEGIN IMMEDIATE');
       db.prepare(${JSON.stringify(INSERT)}).run(randomUUID(), stream, 1, new Date().toISOString());
       console.log('locked');
       setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('committed'); }, 150);`,
      [file, 'shared'],
      (line) => line === 'locked' && locked(),
    );
    await lockTaken;
    // Decided on revision 0 in this process, but the other process got there first.
    const error = await store.appendToStream('shared', [event(1)], { expectedRevision: 0n }).catch((e: unknown) => e);
    const result = await other;
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toContain('committed');
    expect(error).toBeInstanceOf(WrongExpectedVersion);
    expect(error).toMatchObject({ actual: 1n });
    const events = await store.readStream('shared');
    expect(events.map((e) => e.type)).toEqual(['Tested', 'WrittenElsewhere']);
  });

  it('refuses a second event at the same stream revision from another process', async () => {
    const file = join(dir, 'events.db');
    store = new SqliteEventStore(file);
    await store.appendToStream('unique', [event(0), event(1)]);
    const result = await child(
      `import Database from '${sqliteModule}';
       import { randomUUID } from 'node:crypto';
       const [file, stream] = process.argv.slice(1);
       const db = new Database(file);
       try {
         db.prepare(${JSON.stringify(INSERT)}).run(randomUUID(), stream, 1, new Date().toISOString());
         console.log('inserted');
       } catch (error) {
         console.log(error.code);
       }`,
      [file, 'unique'],
    );
    expect(result).toMatchObject({ code: 0 });
    expect(result.out.trim()).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect((await store.readStream('unique')).map((e) => e.type)).toEqual(['Tested', 'Tested']);
  });

  it('delivers to a live subscription what another process appends', async () => {
    const file = join(dir, 'events.db');
    store = new SqliteEventStore(file, { pollIntervalMs: 20 });
    await store.appendToStream('local', [event(0)]);
    const received: RecordedEvent[] = [];
    const subscription = store.subscribeToAll((e) => void received.push(e));
    await eventually(() => received.length === 1);
    const result = await child(
      `import Database from '${sqliteModule}';
       import { randomUUID } from 'node:crypto';
       const [file, stream] = process.argv.slice(1);
       const db = new Database(file);
       db.prepare(${JSON.stringify(INSERT)}).run(randomUUID(), stream, 0, new Date().toISOString());`,
      [file, 'remote'],
    );
    expect(result).toMatchObject({ code: 0, err: '' });
    await eventually(() => received.length === 2);
    await subscription.stop();
    expect(received.map((e) => [e.streamName, e.position])).toEqual([
      ['local', 1n],
      ['remote', 2n],
    ]);
  });
});

/** A snapshot's binary part, read whole. */
const whole = (snapshot: StoredSnapshot | undefined) =>
  snapshot?.binary && Buffer.from(snapshot.binary.read(0, snapshot.binary.byteLength));

describe('SQLite snapshots: binary parts in files beside the database', () => {
  it('a binary part read before its snapshot was replaced still reads the bytes it opened', async () => {
    const file = join(root, 'replaced-snapshots.db');
    const store = new SqliteEventStore(file);
    try {
      const snapshot = { streamName: 'r', decider: 'd', version: 1, eventId: 'e', state: '"x"' };
      const first = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
      // the writer is answered the part as the store keeps it: read by range, not held
      const written = await store.snapshots.writeSnapshot({ ...snapshot, revision: 3n, binary: first });
      expect(written && written.bytes === undefined && Buffer.from(written.read(0, 5000))).toEqual(first);
      const opened = (await store.snapshots.readSnapshot('r'))!.binary!;
      // the newer snapshot's write removes the file the older row named
      await store.snapshots.writeSnapshot({ ...snapshot, revision: 4n, binary: Buffer.alloc(18, 9) });
      expect(readdirSync(`${file}-snapshots`)).toHaveLength(1);
      expect(Buffer.from(opened.read(4000, 1000))).toEqual(first.subarray(4000));
      expect(whole(await store.snapshots.readSnapshot('r'))).toEqual(Buffer.alloc(18, 9));
    } finally {
      await store.close();
    }
  });

  it('reads a binary part from its file, reads no snapshot whose file is gone or cut, removes strays', async () => {
    const file = join(root, 'binary-parts.db');
    const folder = `${file}-snapshots`;
    const snapshot = { decider: 'd', version: 1, revision: 3n, eventId: 'e-3', state: '"x"' };
    let store = new SqliteEventStore(file);
    try {
      await store.snapshots.writeSnapshot({ ...snapshot, streamName: 'a', binary: Buffer.alloc(1000, 7) });
      await store.snapshots.writeSnapshot({ ...snapshot, streamName: 'b', binary: Buffer.alloc(10, 1) });
      // a newer snapshot of `a` replaces the older file; an older one leaves no file behind
      await store.snapshots.writeSnapshot({ ...snapshot, streamName: 'a', revision: 4n, binary: Buffer.alloc(5, 2) });
      await store.snapshots.writeSnapshot({ ...snapshot, streamName: 'a', revision: 2n, binary: Buffer.alloc(6, 3) });
      expect(readdirSync(folder)).toHaveLength(2);
      expect(whole(await store.snapshots.readSnapshot('a'))).toEqual(Buffer.alloc(5, 2));
      // `a`'s file is the one of 5 bytes
      const ofA = readdirSync(folder).find((name) => statSync(join(folder, name)).size === 5)!;
      writeFileSync(join(folder, 'left-by-a-stopped-writer.bin'), 'partial');
      // a cut file (its length is not the row's) and a missing one read as no snapshot
      truncateSync(join(folder, ofA), 1);
      expect(await store.snapshots.readSnapshot('a')).toBeUndefined();
      rmSync(join(folder, ofA));
      expect(await store.snapshots.readSnapshot('a')).toBeUndefined();
    } finally {
      await store.close();
    }
    store = new SqliteEventStore(file);
    try {
      expect(readdirSync(folder)).not.toContain('left-by-a-stopped-writer.bin');
      expect(whole(await store.snapshots.readSnapshot('b'))).toEqual(Buffer.alloc(10, 1));
    } finally {
      await store.close();
    }
  });
});

describe('SQLite snapshots in a file written before binary parts', () => {
  it('gain the column on open and read as before, without a binary part', async () => {
    const file = join(root, 'older-snapshots.db');
    const older = new Sqlite(file);
    older.exec(`CREATE TABLE snapshots (stream TEXT PRIMARY KEY, decider TEXT NOT NULL, version INTEGER NOT NULL,
      revision INTEGER NOT NULL, event_id TEXT NOT NULL, state TEXT NOT NULL, taken_at TEXT NOT NULL)`);
    older.prepare('INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?, ?)').run('s-1', 'd', 1, 4, 'e-4', '"x"', 'now');
    older.close();
    const store = new SqliteEventStore(file);
    try {
      expect(await store.snapshots.readSnapshot('s-1')).toEqual({
        streamName: 's-1',
        decider: 'd',
        version: 1,
        revision: 4n,
        eventId: 'e-4',
        state: '"x"',
      });
      const binary = Buffer.from([0, 1, 2, 255]);
      await store.snapshots.writeSnapshot({
        streamName: 's-1',
        decider: 'd',
        version: 1,
        revision: 5n,
        eventId: 'e-5',
        state: '"y"',
        binary,
      });
      expect(whole(await store.snapshots.readSnapshot('s-1'))).toEqual(binary);
    } finally {
      await store.close();
    }
  });
});
