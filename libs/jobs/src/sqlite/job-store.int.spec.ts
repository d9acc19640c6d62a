import { describe, expect, it } from '@jest/globals';
import { Sqlite } from '#sqlite/driver.js';
import { createSchema, prepareStatements } from './job-store.js';

function store() {
  const db = new Sqlite(':memory:');
  createSchema(db);
  const stmt = prepareStatements(db);
  const add = (id: string, state: string, dueAt: number, createdAt: number, leaseUntil: number | null = null) => {
    stmt.insert.run({
      queue: 'q',
      id,
      name: 'n',
      data: '{}',
      state: 'waiting',
      maxAttempts: 3,
      backoff: null,
      dueAt,
      now: createdAt,
      group: null,
      place: 0,
    });
    db.prepare(`UPDATE jobs SET state = ?, lease_until = ? WHERE queue = 'q' AND id = ?`).run(state, leaseUntil, id);
  };
  return { db, stmt, add };
}

const claimArgs = { queue: 'q', limit: 10, token: 't', now: 50, realNow: 1_000, leaseUntil: 31_000 };

describe('SQLite job store: claims', () => {
  it('claims the due jobs of every kind in due order, then creation order, past any number of finished jobs', () => {
    const { stmt, add } = store();
    for (let i = 0; i < 2_000; i++) add(`done-${i}`, i % 2 ? 'completed' : 'dead', 0, i);
    add('waiting-later', 'waiting', 100, 1);
    add('waiting', 'waiting', 5, 2);
    add('waiting-same-time', 'waiting', 5, 1);
    add('delayed-due', 'delayed', 3, 3);
    add('delayed-later', 'delayed', 60, 3);
    add('lease-expired', 'active', 1, 4, 999);
    add('lease-held', 'active', 1, 4, 1_001);
    const claimed = stmt.claim.all(claimArgs) as { id: string; state: string; lease_token: string }[];
    expect(claimed.map((row) => row.id).sort()).toEqual(
      ['delayed-due', 'lease-expired', 'waiting', 'waiting-same-time'].sort(),
    );
    expect(claimed.every((row) => row.state === 'active' && row.lease_token === 't')).toBe(true);
    // RETURNING gives no order: the limit shows which come first.
    const { stmt: again, add: addAgain } = store();
    addAgain('waiting', 'waiting', 5, 2);
    addAgain('waiting-same-time', 'waiting', 5, 1);
    addAgain('delayed-due', 'delayed', 3, 3);
    addAgain('lease-expired', 'active', 1, 4, 999);
    const firstTwo = again.claim.all({ ...claimArgs, limit: 2 }) as { id: string }[];
    expect(firstTwo.map((row) => row.id).sort()).toEqual(['delayed-due', 'lease-expired']);
    const next = again.claim.all({ ...claimArgs, limit: 1, token: 'u' }) as { id: string }[];
    expect(next.map((row) => row.id)).toEqual(['waiting-same-time']);
  });

  it('finds them by seeks in the claim and lease indexes, never reading the queue whole', () => {
    const { db, stmt } = store();
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${stmt.claim.source}`).all(claimArgs) as { detail: string }[]).map(
      (row) => row.detail,
    );
    const reads = plan.filter((detail) => / jobs( |$)/.test(detail));
    expect(reads.length).toBeGreaterThan(0);
    // Leases (running jobs, and deferred runs' jobs held however many) by their expiry.
    const seeks = [
      /^SEARCH jobs USING INTEGER PRIMARY KEY/,
      /^SEARCH jobs USING (COVERING )?INDEX jobs_claimable \(queue=\? AND state=\?/,
      /^SEARCH jobs USING (COVERING )?INDEX jobs_waiting \(queue=\?/,
      /^SEARCH jobs USING INDEX jobs_leases \(queue=\? AND lease_until<\?\)/,
    ];
    for (const read of reads) expect(seeks.some((seek) => seek.test(read)) ? read : `not a seek: ${read}`).toBe(read);
  });
});
