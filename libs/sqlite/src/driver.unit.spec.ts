import { describe, expect, it } from '@jest/globals';
import { Sqlite, sqliteDriver } from './driver.js';

describe('the SQLite driver', () => {
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  const driverMajor = Number(sqliteDriver.split('@')[1].split('.')[0]);

  it('is better-sqlite3 13 on Node 24 and later, where 12 aborts when a statement is collected', () => {
    if (nodeMajor >= 24) expect(driverMajor).toBeGreaterThanOrEqual(13);
    else expect([12, 13]).toContain(driverMajor);
  });

  it('opens a database and runs a statement', () => {
    const db = new Sqlite(':memory:');
    try {
      expect(db.prepare('SELECT 6 * 7 AS answer').get()).toEqual({ answer: 42 });
    } finally {
      db.close();
    }
  });
});
