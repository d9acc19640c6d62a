import { describe, expect, it } from '@jest/globals';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Sqlite } from '#sqlite/driver.js';
import { COUNT_CAP, type Doc, type Filter, type IndexSpec, type Query } from '../read-model-store.js';
import { SqliteReadModelStore } from './read-model-store.js';
import { useTempDir } from '../../../../test/support/temp-dir.js';

/**
 * Kept counts (IndexSpec `counted`): a list asking for one key of a counted index answers the exact number of its
 * matches from the count its triggers keep, whatever wrote the documents, and the same number the index walk gives.
 */
const C = 'things';
const SPECS: IndexSpec[] = [
  { collection: C, fields: ['platformId', 'createdAt'], flags: ['isDeleted'], covers: ['ownerId'], counted: true },
  { collection: C, fields: ['platformId', 'status', 'createdAt'], flags: ['isDeleted'], counted: true },
];
const eq = (field: string, value: string | boolean): Filter => ({ field, op: 'eq', value });
const live = (platformId: string, owned = true): Filter[] => [
  eq('platformId', platformId),
  eq('isDeleted', false),
  { field: 'ownerId', op: 'exists', value: owned },
];
const byStatus = (platformId: string, status: string): Filter[] => [
  eq('status', status),
  eq('platformId', platformId),
  eq('isDeleted', false),
];
/** The same filters and one that every document passes, which no count answers: the index walk's number. */
const walked = (filters: Filter[]): Filter[] => [...filters, { field: 'createdAt', op: 'gte', value: '' }];

const thing = (i: number, over: Partial<Doc> = {}): Doc => ({
  id: `t${String(i).padStart(6, '0')}`,
  platformId: i % 3 === 0 ? 'P2' : 'P1',
  status: ['NEW', 'DONE'][i % 2],
  isDeleted: false,
  ...(i % 5 === 0 ? {} : { ownerId: `o${i}` }),
  createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  ...over,
});

const thread = pathToFileURL(resolve('dist/libs/read-models/src/sqlite/doc-thread.js'));

describe.each([
  ['on the store connection', false as const],
  ['on the commit thread', thread],
])('kept counts, live batches committed %s', (_label, commitThread) => {
  const stores: SqliteReadModelStore[] = [];
  const dir = useTempDir('doc-counts-', async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  const open = (declare = true) => {
    const store = new SqliteReadModelStore(join(dir(), 'rm.db'), { commitThread });
    stores.push(store);
    return declare ? store.ensureIndexes(SPECS).then(() => store) : Promise.resolve(store);
  };
  let position = 0n;
  const write = async (
    store: SqliteReadModelStore,
    work: (put: (d: Doc) => void, del: (id: string) => void) => void,
  ) => {
    const expected = await store.getCheckpoint('p');
    await store.commitBatch('p', expected, ++position, async (tx) =>
      work(
        (d) => tx.put(C, d),
        (id) => tx.delete(C, id),
      ),
    );
  };
  const count = async (store: SqliteReadModelStore, filters: Filter[]) =>
    (await store.find(C, { filters, limit: 1 } satisfies Query)).totalCount;
  /** Every counted question's answer, checked against the index walk's. */
  const expectExact = async (store: SqliteReadModelStore, expected: Record<string, number>) => {
    const asked: Record<string, Filter[]> = {
      'P1 owned': live('P1'),
      'P1 unowned': live('P1', false),
      'P2 owned': live('P2'),
      'P1 NEW': byStatus('P1', 'NEW'),
      'P1 DONE': byStatus('P1', 'DONE'),
      'P2 NEW': byStatus('P2', 'NEW'),
    };
    const counted: Record<string, number> = {};
    const walkedCounts: Record<string, number> = {};
    for (const [name, filters] of Object.entries(asked)) {
      counted[name] = await count(store, filters);
      walkedCounts[name] = await count(store, walked(filters));
    }
    expect(counted).toEqual(expected);
    expect(walkedCounts).toEqual(expected);
  };

  it('counts inserts, updates that change a key, deletes and undeletes, exactly beyond the walk cap', async () => {
    position = 0n;
    const store = await open();
    const n = COUNT_CAP + 20;
    await write(store, (put) => {
      for (let i = 1; i <= n; i++) put(thing(i, { platformId: 'P1', status: 'NEW', ownerId: `o${i}` }));
    });
    expect(await count(store, live('P1'))).toBe(n);
    expect(await count(store, walked(live('P1')))).toBe(COUNT_CAP);
    // The deleted flag and the owner's presence left open: summed over their values, exact as well.
    expect(await count(store, [eq('platformId', 'P1')])).toBe(n);

    await write(store, (put, del) => {
      put(thing(1, { platformId: 'P1', status: 'DONE', ownerId: 'o1' })); // a status moves
      put(thing(2, { platformId: 'P1', status: 'NEW', ownerId: 'o2', isDeleted: true })); // a flag moves
      put(thing(3, { platformId: 'P2', status: 'NEW', ownerId: 'o3' })); // a platform moves
      const { ownerId: _gone, ...unowned } = thing(4, { platformId: 'P1', status: 'NEW' });
      put(unowned); // a cover's presence moves
      put(thing(5, { platformId: 'P1', status: 'NEW', ownerId: 'other' })); // a cover's value, not its presence
      del('t000006');
      del('nothing-here');
    });
    expect(await count(store, live('P1'))).toBe(n - 4); // 2 deleted, 3 moved, 4 unowned, 6 gone
    expect(await count(store, byStatus('P1', 'DONE'))).toBe(1);
    expect(await count(store, byStatus('P1', 'NEW'))).toBe(n - 4); // 1 done, 2 deleted, 3 moved, 6 gone
    expect(await count(store, live('P1', false))).toBe(1);
    expect(await count(store, live('P2'))).toBe(1);

    await write(store, (put) => put(thing(2, { platformId: 'P1', status: 'NEW', ownerId: 'o2' })));
    expect(await count(store, live('P1'))).toBe(n - 3);
  });

  it('answers what the index walk answers for varied documents, and does not answer other questions', async () => {
    position = 0n;
    const store = await open();
    await write(store, (put) => {
      for (let i = 1; i <= 300; i++) put(thing(i));
    });
    await write(store, (put, del) => {
      for (let i = 1; i <= 300; i += 7) put(thing(i, { status: 'DONE', isDeleted: i % 2 === 0 }));
      for (let i = 2; i <= 300; i += 11) del(thing(i).id as string);
    });
    const walk = async (filters: Filter[]) => count(store, walked(filters));
    await expectExact(store, {
      'P1 owned': await walk(live('P1')),
      'P1 unowned': await walk(live('P1', false)),
      'P2 owned': await walk(live('P2')),
      'P1 NEW': await walk(byStatus('P1', 'NEW')),
      'P1 DONE': await walk(byStatus('P1', 'DONE')),
      'P2 NEW': await walk(byStatus('P2', 'NEW')),
    });
    // A flag or presence left open: the sum over every value it holds (missing, null, another type included).
    await write(store, (put) => {
      const { isDeleted: _flag, ...unflagged } = thing(301);
      put(unflagged);
      put(thing(302, { isDeleted: null }));
      put(thing(303, { isDeleted: 'yes' }));
      put(thing(304, { isDeleted: true }));
    });
    for (const open of [
      [eq('platformId', 'P1')],
      [eq('platformId', 'P2'), { field: 'ownerId', op: 'exists', value: true } satisfies Filter],
      [eq('platformId', 'P1'), eq('status', 'DONE')],
    ]) {
      expect(await count(store, open)).toBe(await count(store, walked(open)));
    }
    // A question that no count answers (a value that is not a string) still counts.
    expect(await count(store, [eq('platformId', 'P1'), eq('status', true), eq('isDeleted', false)])).toBe(0);
  });

  it('fills a count declared over existing documents, and a reader that declares nothing uses it', async () => {
    position = 0n;
    const first = await open(false);
    await write(first, (put) => {
      for (let i = 1; i <= 50; i++) put(thing(i));
    });
    const expected = await count(first, walked(live('P1')));
    await first.ensureIndexes(SPECS);
    const reader = await open(false);
    expect(await count(reader, live('P1'))).toBe(expected);
    await write(first, (put) => put(thing(51, { platformId: 'P1' })));
    expect(await count(reader, live('P1'))).toBe(expected + 1);
  });

  it('forgets a count when its collection is reset, and keeps it again from the replayed documents', async () => {
    position = 0n;
    const store = await open();
    await write(store, (put) => {
      for (let i = 1; i <= 40; i++) put(thing(i));
    });
    await store.reset('p', [C]);
    position = 0n;
    await store.commitBatches(
      [{ projection: 'p', expected: undefined, position: 1n }],
      async (tx) => {
        for (let i = 1; i <= 30; i++) tx.put(C, thing(i));
      },
      { replay: true },
    );
    // While the replay's collection has no indexes and no counts, the count walks.
    const walkedNow = await count(store, walked(live('P1')));
    expect(await count(store, live('P1'))).toBe(walkedNow);
    await store.endReplay();
    position = 1n;
    await write(store, (put) => put(thing(31)));
    await expectExact(store, {
      'P1 owned': await count(store, walked(live('P1'))),
      'P1 unowned': await count(store, walked(live('P1', false))),
      'P2 owned': await count(store, walked(live('P2'))),
      'P1 NEW': await count(store, walked(byStatus('P1', 'NEW'))),
      'P1 DONE': await count(store, walked(byStatus('P1', 'DONE'))),
      'P2 NEW': await count(store, walked(byStatus('P2', 'NEW'))),
    });
  });

  it('drops a count no longer declared, with its triggers', async () => {
    position = 0n;
    const store = await open();
    await write(store, (put) => put(thing(1)));
    const reopened = await open(false);
    await reopened.ensureIndexes(SPECS.map(({ counted: _counted, ...spec }) => spec));
    await write(reopened, (put) => put(thing(2, { platformId: 'P1' })));
    expect(await count(reopened, live('P1'))).toBe(await count(reopened, walked(live('P1'))));
    const db = new Sqlite(join(dir(), 'rm.db'), { readonly: true });
    try {
      const left = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).all();
      const rows = db.prepare(
        'SELECT (SELECT count(*) FROM doc_counts) + (SELECT count(*) FROM doc_count_shapes) AS n',
      );
      expect({ left, rows: (rows.get() as { n: number }).n }).toEqual({ left: [], rows: 0 });
    } finally {
      db.close();
    }
  });
});
