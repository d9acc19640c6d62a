import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Sqlite } from '#sqlite/driver.js';
import { GENESIS_HASH, verifyChain } from './hash-chain.js';
import { SqliteEventStore } from './sqlite/event-store.js';

const root = mkdtempSync(join(tmpdir(), 'hash-chain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('SqliteEventStore hash chain', () => {
  let file: string;
  let store: SqliteEventStore | undefined;
  beforeEach(() => {
    file = join(mkdtempSync(join(root, 'case-')), 'events.db');
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it('detects an event row modified in the file', async () => {
    store = new SqliteEventStore(file);
    await store.appendToStream(
      'card-1',
      [0, 1, 2].map((n) => ({ type: 'CardTested', data: { n }, metadata: { actor: 'a' } })),
    );
    expect(verifyChain(await store.readStream('card-1'))).toBeUndefined();
    const db = new Sqlite(file);
    db.prepare(`UPDATE events SET data = '{"n":42}' WHERE stream = 'card-1' AND revision = 1`).run();
    db.close();
    expect(verifyChain(await store.readStream('card-1'))).toMatchObject({ streamName: 'card-1', revision: 1n });
    // Rewriting the stored hash too does not help: the next event's prevHash no longer matches.
    const forged = (await store.readStream('card-1')).map((e) => e);
    const db2 = new Sqlite(file);
    const { eventHash } = await import('./hash-chain.js');
    const e1 = forged[1]!;
    const hash = eventHash(String(e1.metadata.prevHash), e1);
    db2
      .prepare('UPDATE events SET metadata = ? WHERE stream = ? AND revision = 1')
      .run(JSON.stringify({ ...e1.metadata, hash }), 'card-1');
    db2.close();
    expect(verifyChain(await store.readStream('card-1'))).toMatchObject({ revision: 2n });
  });

  it('chains a log written before the hash chain from its first event, once, when the file is opened', async () => {
    const db = new Sqlite(file);
    db.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
      revision INTEGER NOT NULL,
      type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,
      UNIQUE (stream, revision))`);
    const insert = db.prepare(
      `INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ` +
        `?, 'Old', ?, '{"actor":"a"}', '2026-01-01T00:00:00.000Z')`,
    );
    ['a', 'b', 'a', 'b', 'a'].forEach((stream, i) =>
      insert.run(`id-${i}`, stream, Math.floor(i / 2), JSON.stringify({ i })),
    );
    db.close();
    store = new SqliteEventStore(file);
    const a = await store.readStream('a');
    expect(a[0]!.metadata).toMatchObject({ actor: 'a', prevHash: GENESIS_HASH });
    expect(verifyChain(a)).toBeUndefined();
    expect(verifyChain(await store.readStream('b'))).toBeUndefined();
    await store.appendToStream('a', [{ type: 'New', data: {} }], { expectedRevision: 2n });
    const before = (await store.readStream('a')).map((e) => e.metadata.hash);
    await store.close();
    // Opening again does not re-chain: the hashes stay as they were.
    store = new SqliteEventStore(file);
    const after = await store.readStream('a');
    expect(after.map((e) => e.metadata.hash)).toEqual(before);
    expect(verifyChain(after)).toBeUndefined();
  });
});
