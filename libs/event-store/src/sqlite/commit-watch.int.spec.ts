import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { Sqlite } from '#sqlite/driver.js';
import { poll } from '../../../../test/support/poll.js';
import { useTempDir } from '../../../../test/support/temp-dir.js';
import { walWrites } from './commit-watch.js';

const opened: Database.Database[] = [];
const stops: (() => void)[] = [];
const dir = useTempDir('commit-watch-', () => {
  for (const stop of stops.splice(0)) stop();
  for (const db of opened.splice(0)) db.close();
});

function open(path: string): Database.Database {
  const db = new Sqlite(path);
  db.pragma('journal_mode = WAL');
  opened.push(db);
  return db;
}

describe('walWrites', () => {
  it("hears another connection's commit to the file", async () => {
    const path = join(dir(), 'file.db');
    open(path).exec('CREATE TABLE t (x INTEGER)');
    const other = open(path);
    let heard = 0;
    stops.push(walWrites(path)(() => heard++));
    other.prepare('INSERT INTO t (x) VALUES (1)').run();
    expect(
      await poll(
        async () => heard,
        (n) => n > 0,
        { timeoutMs: 5_000 },
      ),
    ).toBeGreaterThan(0);
  });

  it('cannot listen to a file without a write-ahead log (the watch then keeps ticking)', () => {
    expect(() => walWrites(join(dir(), 'missing.db'))(() => undefined)).toThrow();
  });
});
