import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createEventStore } from '../../event-store/src/index.js';
import type { EventStore } from '../../event-store/src/event-store.js';
import { ProjectionRunner, projectorLease, type ProjectionRunnerOptions } from './projection-runner.js';
import type { Projection } from './projection.js';
import {
  COUNT_CAP,
  ConcurrentProjectionUpdate,
  InvalidCursor,
  LeaseLost,
  type Doc,
  type Filter,
  type Query,
  type ReadModelStore,
} from './read-model-store.js';

/**
 * Creates an empty store; `connect` opens another connection to the same data (as a second
 * process would); `dispose` closes the store and removes what it created.
 */
export type ReadModelStoreFactory = () => Promise<{
  store: ReadModelStore;
  connect(): Promise<ReadModelStore>;
  dispose(): Promise<void>;
}>;

const ITEMS = 'items';

/**
 * Varied field types: numbers that sort differently as strings, ISO dates, booleans, arrays, nesting, missing and null
 * fields.
 */
const items: Doc[] = [
  {
    id: 'i01',
    platformId: 'P1',
    n: 9,
    s: 'apple',
    b: true,
    tags: ['red', 'fruit'],
    nested: { x: 1 },
    opt: 'here',
    createdAt: '2025-01-01T00:00:00.000Z',
  },
  {
    id: 'i02',
    platformId: 'P1',
    n: 10,
    s: 'banana',
    b: false,
    tags: ['yellow', 'fruit'],
    nested: { x: 2 },
    createdAt: '2025-01-02T00:00:00.000Z',
  },
  {
    id: 'i03',
    platformId: 'P2',
    n: -1.5,
    s: 'cherry',
    b: true,
    tags: [],
    nested: { x: 3 },
    opt: null,
    createdAt: '2025-01-03T00:00:00.000Z',
  },
  {
    id: 'i04',
    platformId: 'P2',
    n: 100,
    s: 'Date',
    b: false,
    tags: ['brown'],
    nested: { x: 1 },
    opt: 'also',
    createdAt: '2025-01-03T00:00:00.000Z',
  },
  {
    id: 'i05',
    platformId: 'P1',
    n: 0,
    s: '10',
    b: true,
    tags: ['1', 'fruit'],
    nested: { x: 10 },
    createdAt: '2025-01-05T00:00:00.000Z',
  },
  { id: 'i06', platformId: 'P3', n: 2, s: '9', tags: [1, 2], nested: {}, createdAt: '2025-01-06T00:00:00.000Z' },
];

const ids = (docs: Doc[]) => docs.map((d) => d.id);

async function commit(
  store: ReadModelStore,
  projection: string,
  position: bigint,
  docs: Doc[],
  collection = ITEMS,
): Promise<void> {
  await store.commitBatch(projection, await store.getCheckpoint(projection), position, async (tx) => {
    for (const doc of docs) tx.put(collection, doc);
  });
}

/** Follows nextCursor to the end; checks totalCount on every page. */
async function allPages(
  store: ReadModelStore,
  collection: string,
  query: Query,
): Promise<{ pages: Doc[][]; total: number }> {
  const pages: Doc[][] = [];
  let cursor: string | undefined;
  let total: number | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await store.find(collection, { ...query, cursor });
    total ??= page.totalCount;
    expect(page.totalCount).toBe(total);
    pages.push(page.data);
    expect(page.hasMore).toBe(page.nextCursor !== undefined);
    if (!page.hasMore) return { pages, total };
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not end');
}

/** `describeFn` is `describe.skip` when the adapter's server is not reachable (the caller prints why). */
export function readModelStoreContract(
  name: string,
  factory: ReadModelStoreFactory,
  describeFn: (name: string, fn: () => void) => void = describe,
): void {
  describeFn(`ReadModelStore contract: ${name}`, () => {
    let store: ReadModelStore;
    let connect: () => Promise<ReadModelStore>;
    let dispose: () => Promise<void>;

    beforeEach(async () => {
      ({ store, connect, dispose } = await factory());
    });
    afterEach(async () => {
      await dispose();
    });

    describe('documents and checkpoints', () => {
      it('stores documents committed in a batch with the checkpoint', async () => {
        expect(await store.getCheckpoint('p')).toBeUndefined();
        await commit(store, 'p', 5n, [items[0], items[1]]);
        expect(await store.get(ITEMS, 'i01')).toEqual(items[0]);
        expect(await store.get(ITEMS, 'i02')).toEqual(items[1]);
        expect(await store.get(ITEMS, 'missing')).toBeUndefined();
        expect(await store.get('other', 'i01')).toBeUndefined();
        expect(await store.getCheckpoint('p')).toBe(5n);
      });

      it('lets a batch read its own writes and committed documents, and delete', async () => {
        await commit(store, 'p', 1n, [
          { id: 'a', v: 1 },
          { id: 'b', v: 1 },
        ]);
        await store.commitBatch('p', 1n, 2n, async (tx) => {
          expect(await tx.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1 });
          tx.put(ITEMS, { id: 'a', v: 2 });
          expect(await tx.get(ITEMS, 'a')).toEqual({ id: 'a', v: 2 });
          tx.put(ITEMS, { id: 'c', v: 3 });
          tx.delete(ITEMS, 'b');
          expect(await tx.get(ITEMS, 'b')).toBeUndefined();
          tx.delete(ITEMS, 'c');
          tx.put(ITEMS, { id: 'c', v: 4 });
        });
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 2 });
        expect(await store.get(ITEMS, 'b')).toBeUndefined();
        expect(await store.get(ITEMS, 'c')).toEqual({ id: 'c', v: 4 });
      });

      it('stores a copy: mutating a document after put changes nothing', async () => {
        const doc: Doc = { id: 'a', v: 1, list: [1] };
        await store.commitBatch('p', undefined, 1n, async (tx) => {
          tx.put(ITEMS, doc);
          doc.v = 99;
          (doc.list as number[]).push(2);
        });
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1, list: [1] });
      });

      it('keeps collections apart', async () => {
        await commit(store, 'p', 1n, [{ id: 'x', in: 'items' }]);
        await commit(store, 'q', 1n, [{ id: 'x', in: 'other' }], 'other');
        expect(await store.get(ITEMS, 'x')).toEqual({ id: 'x', in: 'items' });
        expect(await store.get('other', 'x')).toEqual({ id: 'x', in: 'other' });
      });

      it('writes neither documents nor checkpoint when work throws', async () => {
        await commit(store, 'p', 1n, [{ id: 'a', v: 1 }]);
        await expect(
          store.commitBatch('p', 1n, 2n, async (tx) => {
            tx.put(ITEMS, { id: 'a', v: 2 });
            tx.put(ITEMS, { id: 'b', v: 2 });
            throw new Error('projection bug');
          }),
        ).rejects.toThrow('projection bug');
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1 });
        expect(await store.get(ITEMS, 'b')).toBeUndefined();
        expect(await store.getCheckpoint('p')).toBe(1n);
      });

      it('skips a batch whose position is not beyond the expected checkpoint', async () => {
        await commit(store, 'p', 10n, [{ id: 'a', v: 1 }]);
        let ran = 0;
        for (const position of [10n, 3n]) {
          await store.commitBatch('p', 10n, position, async (tx) => {
            ran++;
            tx.put(ITEMS, { id: 'a', v: 2 });
          });
        }
        expect(ran).toBe(0);
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1 });
        expect(await store.getCheckpoint('p')).toBe(10n);
        await commit(store, 'p', 11n, [{ id: 'a', v: 3 }]);
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 3 });
        expect(await store.getCheckpoint('p')).toBe(11n);
      });

      it('refuses a batch filtered by a stale expected checkpoint, without running its work', async () => {
        await commit(store, 'p', 10n, [{ id: 'a', v: 1 }]);
        let ran = 0;
        const stale = async (expected: bigint | undefined, position: bigint) =>
          store.commitBatch('p', expected, position, async (tx) => {
            ran++;
            tx.put(ITEMS, { id: 'a', v: 'stale' });
          });
        for (const [expected, position] of [
          [5n, 12n],
          [undefined, 12n],
          [11n, 12n],
        ] as const) {
          const refused = await stale(expected, position).catch((error: unknown) => error);
          expect(refused).toBeInstanceOf(ConcurrentProjectionUpdate);
          expect(refused).toMatchObject({ projection: 'p', expected, actual: 10n });
        }
        expect(ran).toBe(0);
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1 });
        expect(await store.getCheckpoint('p')).toBe(10n);
        await expect(
          store.advanceCheckpoints(new Map([['p', { expected: 4n, position: 20n }]])),
        ).rejects.toBeInstanceOf(ConcurrentProjectionUpdate);
        expect(await store.getCheckpoint('p')).toBe(10n);
      });

      it('advances idle checkpoints together, each only from its expected checkpoint', async () => {
        await store.commitBatch('adv-a', undefined, 10n, async () => undefined);
        await store.advanceCheckpoints(
          new Map([
            ['adv-a', { expected: 10n, position: 25n }],
            ['adv-b', { expected: undefined, position: 7n }],
          ]),
        );
        expect(await store.getCheckpoint('adv-a')).toBe(25n);
        expect(await store.getCheckpoint('adv-b')).toBe(7n);
        // One stale entry moves none of them.
        const stale = store.advanceCheckpoints(
          new Map([
            ['adv-b', { expected: 7n, position: 9n }],
            ['adv-a', { expected: 10n, position: 30n }],
          ]),
        );
        await expect(stale).rejects.toBeInstanceOf(ConcurrentProjectionUpdate);
        expect(await store.getCheckpoint('adv-a')).toBe(25n);
        expect(await store.getCheckpoint('adv-b')).toBe(7n);
        await store.advanceCheckpoints(new Map());
        // a batch at or below its expected checkpoint is skipped
        await store.commitBatch('adv-a', 25n, 20n, async (tx) => tx.put('adv', { id: 'x' }));
        expect(await store.get('adv', 'x')).toBeUndefined();
      });

      it('keeps checkpoints per projection and handles large positions', async () => {
        const big = 2n ** 62n + 7n;
        await commit(store, 'p', big, []);
        await commit(store, 'q', 3n, []);
        expect(await store.getCheckpoint('p')).toBe(big);
        expect(await store.getCheckpoint('q')).toBe(3n);
        await commit(store, 'p', big + 1n, []);
        expect(await store.getCheckpoint('p')).toBe(big + 1n);
      });

      it('refuses a batch when the checkpoint moved while its work ran', async () => {
        await commit(store, 'p', 1n, [{ id: 'a', v: 1 }]);
        const outer = store.commitBatch('p', 1n, 10n, async (tx) => {
          tx.put(ITEMS, { id: 'a', v: 'outer' });
          await commit(store, 'p', 5n, [{ id: 'a', v: 'inner' }]);
        });
        await expect(outer).rejects.toBeInstanceOf(ConcurrentProjectionUpdate);
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 'inner' });
        expect(await store.getCheckpoint('p')).toBe(5n);
      });

      it('reset drops the given collections and the checkpoint only', async () => {
        await store.commitBatch('p', undefined, 4n, async (tx) => {
          tx.put(ITEMS, { id: 'a' });
          tx.put('extra', { id: 'b' });
        });
        await commit(store, 'q', 7n, [{ id: 'c' }], 'kept');
        await store.reset('p', [ITEMS, 'extra']);
        expect(await store.get(ITEMS, 'a')).toBeUndefined();
        expect(await store.get('extra', 'b')).toBeUndefined();
        expect((await store.find(ITEMS, { limit: 10 })).totalCount).toBe(0);
        expect(await store.getCheckpoint('p')).toBeUndefined();
        expect(await store.get('kept', 'c')).toEqual({ id: 'c' });
        expect(await store.getCheckpoint('q')).toBe(7n);
        await commit(store, 'p', 1n, [{ id: 'a', again: true }]);
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', again: true });
      });
    });

    describe('indexes and bounded counts', () => {
      it('creates declared indexes idempotently, before and after a reset, and queries answer the same', async () => {
        const indexes = [{ collection: ITEMS, fields: ['platformId', 's', 'createdAt'] }];
        await store.ensureIndexes(indexes);
        await store.ensureIndexes(indexes);
        await commit(store, 'p', 1n, items);
        const filters: Filter[] = [
          { field: 'platformId', op: 'eq', value: 'P1' },
          { field: 's', op: 'eq', value: 'banana' },
        ];
        const query: Query = { filters, limit: 5 };
        expect(ids((await store.find(ITEMS, query)).data)).toEqual(['i02']);
        // A rebuild drops the collection (and, on MongoDB, its indexes) outside a transaction; the indexes come back.
        await store.reset('p', [ITEMS]);
        expect((await store.find(ITEMS, query)).totalCount).toBe(0);
        await store.ensureIndexes(indexes);
        await commit(store, 'p', 2n, items);
        expect(ids((await store.find(ITEMS, query)).data)).toEqual(['i02']);
      });

      it('answers a query on declared index fields without reading the whole collection', async () => {
        await store.ensureIndexes([{ collection: ITEMS, fields: ['platformId', 's', 'createdAt'] }]);
        await commit(store, 'p', 1n, items);
        const query: Query = {
          filters: [
            { field: 'platformId', op: 'eq', value: 'P1' },
            { field: 's', op: 'eq', value: 'banana' },
          ],
          sortBy: 'createdAt',
          limit: 5,
        };
        const indexed = await store.explain(ITEMS, query);
        expect({ scans: indexed.scans, plan: indexed.plan }).toEqual({ scans: false, plan: indexed.plan });
        // A filter on a field no index starts with must read everything: the check can tell.
        const unindexed = await store.explain(ITEMS, { filters: [{ field: 'n', op: 'eq', value: 3 }], limit: 5 });
        expect(unindexed.scans).toBe(true);
      });

      it(`counts at most ${COUNT_CAP} matches`, async () => {
        const createdAt = '2025-01-01T00:00:00.000Z';
        const many = Array.from({ length: COUNT_CAP + 5 }, (_, i) => ({
          id: `m${String(i).padStart(6, '0')}`,
          platformId: 'P1',
          createdAt,
        }));
        await commit(store, 'p', 1n, many);
        const page = await store.find(ITEMS, { filters: [{ field: 'platformId', op: 'eq', value: 'P1' }], limit: 2 });
        expect(page.totalCount).toBe(COUNT_CAP);
        expect(page.hasMore).toBe(true);
        const inList: Filter = { field: 'id', op: 'in', value: ['m000001', 'm000002', 'nope'] };
        const few = await store.find(ITEMS, { filters: [inList], limit: 1 });
        expect(few.totalCount).toBe(2);
      }, 60_000);
    });

    describe('single active writer', () => {
      it(
        'fences a lease: one holder at a time, a higher token for every new holder, stale tokens ' + 'refused',
        async () => {
          const t0 = 1_000_000;
          const first = await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 });
          expect(first).toEqual({ token: 1n, expiresAt: t0 + 100 });
          expect(await store.acquireLease({ name: 'L', holder: 'h2', ttlMs: 100, now: t0 + 50 })).toBeUndefined();
          // Re-acquiring a live lease keeps its token; renewing extends it.
          expect(await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 + 60 })).toEqual({
            token: 1n,
            expiresAt: t0 + 160,
          });
          expect(await store.renewLease('L', 'h1', 1n, 100, t0 + 90)).toEqual({ token: 1n, expiresAt: t0 + 190 });
          expect(await store.acquireLease({ name: 'L', holder: 'h2', ttlMs: 100, now: t0 + 150 })).toBeUndefined();

          // h1 stops renewing; after expiry h2 takes over with a higher token and h1 is fenced off.
          const second = await store.acquireLease({ name: 'L', holder: 'h2', ttlMs: 100, now: t0 + 200 });
          expect(second?.token).toBe(2n);
          expect(await store.readLease('L')).toEqual({ holder: 'h2', token: 2n, expiresAt: t0 + 300 });
          expect(await store.renewLease('L', 'h1', 1n, 100, t0 + 210)).toBeUndefined();
          let ran = 0;
          const stale = store.commitBatch(
            'p',
            undefined,
            5n,
            async (tx) => {
              ran++;
              tx.put(ITEMS, { id: 'a', by: 'h1' });
            },
            { lease: 'L', token: 1n },
          );
          await expect(stale).rejects.toBeInstanceOf(LeaseLost);
          await expect(
            store.advanceCheckpoints(
              new Map([['p', { expected: undefined, position: 5n, fence: { lease: 'L', token: 1n } }]]),
            ),
          ).rejects.toBeInstanceOf(LeaseLost);
          expect(ran).toBe(0);
          expect(await store.getCheckpoint('p')).toBeUndefined();
          await store.commitBatch('p', undefined, 5n, async (tx) => tx.put(ITEMS, { id: 'a', by: 'h2' }), {
            lease: 'L',
            token: 2n,
          });
          expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', by: 'h2' });

          // A released lease is free at once; a forced acquisition (a rebuild) preempts a live holder.
          await store.releaseLease('L', 'h1', 1n); // no longer its lease: changes nothing
          expect(await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 + 220 })).toBeUndefined();
          await store.releaseLease('L', 'h2', 2n);
          expect((await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 + 230 }))?.token).toBe(3n);
          expect(
            (await store.acquireLease({ name: 'L', holder: 'rebuild', ttlMs: 100, now: t0 + 240, force: true }))?.token,
          ).toBe(4n);
          await expect(store.reset('p', [ITEMS], { lease: 'L', token: 3n })).rejects.toBeInstanceOf(LeaseLost);
          expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', by: 'h2' });
          await store.reset('p', [ITEMS], { lease: 'L', token: 4n });
          expect(await store.get(ITEMS, 'a')).toBeUndefined();
        },
      );

      describe('two runners on one store (separate connections, as two processes)', () => {
        let dir: string;
        let events: EventStore;
        let other: ReadModelStore;
        const runners: ProjectionRunner[] = [];
        beforeEach(async () => {
          dir = mkdtempSync(join(tmpdir(), 'read-model-runners-'));
          events = await createEventStore({ kind: 'sqlite', path: join(dir, 'events.db') });
          other = await connect();
        });
        afterEach(async () => {
          for (const r of runners.splice(0)) await r.stop();
          await other.close();
          await events.close();
          rmSync(dir, { recursive: true, force: true });
        });

        const counter: Projection = {
          name: 'counter',
          collections: ['counts'],
          handles: ['Counted'],
          async apply(event, tx) {
            const doc = (await tx.get<{ id: string; n: number; last: number }>('counts', 'total')) ?? {
              id: 'total',
              n: 0,
              last: 0,
            };
            // Each event applied once, in order: `last` only ever grows by one.
            tx.put('counts', {
              id: 'total',
              n: doc.n + 1,
              last: event.data.i as number,
              gaps: doc.last + 1 === event.data.i ? 0 : 1,
            });
          },
        };
        const appendCounted = async (from: number, count: number) => {
          for (let i = from; i < from + count; i += 100) {
            const n = Math.min(100, from + count - i);
            await events.appendToStream(
              `counted-${i}`,
              Array.from({ length: n }, (_, k) => ({ type: 'Counted', data: { i: i + k + 1 } })),
            );
          }
        };
        const settle = async (...rs: ProjectionRunner[]) => {
          const head = await events.headPosition();
          for (let i = 0; i < 500 && (await store.getCheckpoint('counter')) !== head; i++)
            await new Promise((r) => setTimeout(r, 20));
          expect(await store.getCheckpoint('counter')).toBe(head);
          for (const r of rs) expect(await r.waitForPosition(head, 5000)).toBe(true);
        };
        const start = async (readModels: ReadModelStore, options: ProjectionRunnerOptions) => {
          const r = new ProjectionRunner(events, readModels, [counter], {
            batchSize: 37,
            retryDelayMs: 5,
            logger: { error: () => undefined },
            ...options,
          });
          runners.push(r);
          await r.start();
          return r;
        };

        it('two runners counting 2,000 events exactly, both projecting without leases', async () => {
          const a = await start(store, { lease: false });
          const b = await start(other, { lease: false });
          await Promise.all([appendCounted(0, 1000), appendCounted(1000, 1000)]);
          await settle(a, b);
          expect(await store.get('counts', 'total')).toMatchObject({ n: 2000, gaps: 0 });
        });

        it(
          'two runners counting 2,000 events exactly with leases: one projects, the other takes ' +
            'over when it stops',
          async () => {
            const lease = { ttlMs: 400, renewEveryMs: 40 };
            const a = await start(store, { lease });
            const b = await start(other, { lease });
            expect((await store.readLease(projectorLease('counter')))?.holder).toBe(a.leaseHolder);
            await appendCounted(0, 1000);
            await settle(a, b);
            expect(await store.get('counts', 'total')).toMatchObject({ n: 1000, gaps: 0 });
            await a.stop();
            await appendCounted(1000, 1000);
            await settle(b);
            expect((await store.readLease(projectorLease('counter')))?.holder).toBe(b.leaseHolder);
            expect(await store.get('counts', 'total')).toMatchObject({ n: 2000, gaps: 0 });
          },
        );

        it('a rebuild takes the lease from a projecting runner and replays to the same count', async () => {
          const lease = { ttlMs: 400, renewEveryMs: 40 };
          const worker = await start(store, { lease });
          await appendCounted(0, 600);
          await settle(worker);
          const cli = new ProjectionRunner(events, other, [counter], { batchSize: 50, lease });
          const writing = appendCounted(600, 600);
          await cli.rebuild();
          await writing;
          await settle(worker);
          expect(await store.get('counts', 'total')).toMatchObject({ n: 1200, gaps: 0 });
        });
      });
    });

    describe('find', () => {
      beforeEach(async () => {
        await commit(store, 'p', 1n, items);
      });
      const match = async (...filters: Filter[]) =>
        ids((await store.find(ITEMS, { filters, sortBy: 'id', limit: 100 })).data);

      it('eq on strings, numbers, booleans, nested paths, null and id', async () => {
        expect(await match({ field: 'platformId', op: 'eq', value: 'P1' })).toEqual(['i01', 'i02', 'i05']);
        expect(await match({ field: 'n', op: 'eq', value: 10 })).toEqual(['i02']);
        expect(await match({ field: 's', op: 'eq', value: '10' })).toEqual(['i05']);
        expect(await match({ field: 'b', op: 'eq', value: true })).toEqual(['i01', 'i03', 'i05']);
        expect(await match({ field: 'b', op: 'eq', value: false })).toEqual(['i02', 'i04']);
        expect(await match({ field: 'n', op: 'eq', value: 1 })).toEqual([]);
        expect(await match({ field: 'b', op: 'eq', value: 1 })).toEqual([]);
        expect(await match({ field: 'nested.x', op: 'eq', value: 1 })).toEqual(['i01', 'i04']);
        expect(await match({ field: 'opt', op: 'eq', value: null })).toEqual(['i02', 'i03', 'i05', 'i06']);
        expect(await match({ field: 'id', op: 'eq', value: 'i04' })).toEqual(['i04']);
      });

      it('ne includes documents without the field', async () => {
        expect(await match({ field: 'b', op: 'ne', value: true })).toEqual(['i02', 'i04', 'i06']);
        expect(await match({ field: 'platformId', op: 'ne', value: 'P1' })).toEqual(['i03', 'i04', 'i06']);
        expect(await match({ field: 'opt', op: 'ne', value: 'here' })).toEqual(['i02', 'i03', 'i04', 'i05', 'i06']);
        expect(await match({ field: 'opt', op: 'ne', value: null })).toEqual(['i01', 'i04']);
        expect(await match({ field: 'n', op: 'ne', value: 9 })).toEqual(['i02', 'i03', 'i04', 'i05', 'i06']);
      });

      it('compares numbers numerically and strings lexicographically, each within its type', async () => {
        expect(await match({ field: 'n', op: 'gt', value: 9 })).toEqual(['i02', 'i04']);
        expect(await match({ field: 'n', op: 'gte', value: 9 })).toEqual(['i01', 'i02', 'i04']);
        expect(await match({ field: 'n', op: 'lt', value: 2 })).toEqual(['i03', 'i05']);
        expect(await match({ field: 'n', op: 'lte', value: 2 })).toEqual(['i03', 'i05', 'i06']);
        expect(await match({ field: 'n', op: 'gt', value: -1.6 }, { field: 'n', op: 'lt', value: -1.4 })).toEqual([
          'i03',
        ]);
        // '9' > '10' as strings; numbers are never compared with strings.
        expect(await match({ field: 's', op: 'gt', value: '1' })).toEqual(['i01', 'i02', 'i03', 'i04', 'i05', 'i06']);
        expect(await match({ field: 's', op: 'gte', value: '9' })).toEqual(['i01', 'i02', 'i03', 'i04', 'i06']);
        expect(await match({ field: 's', op: 'lt', value: 'a' })).toEqual(['i04', 'i05', 'i06']);
        expect(await match({ field: 'nested.x', op: 'gte', value: 3 })).toEqual(['i03', 'i05']);
        expect(
          await match(
            { field: 'createdAt', op: 'gte', value: '2025-01-03T00:00:00.000Z' },
            { field: 'createdAt', op: 'lt', value: '2025-01-06T00:00:00.000Z' },
          ),
        ).toEqual(['i03', 'i04', 'i05']);
        expect(await match({ field: 'id', op: 'gt', value: 'i04' })).toEqual(['i05', 'i06']);
        expect(await match({ field: 'b', op: 'gt', value: false })).toEqual(['i01', 'i03', 'i05']);
      });

      it('in matches any listed value; an empty list matches nothing', async () => {
        expect(await match({ field: 'platformId', op: 'in', value: ['P2', 'P3'] })).toEqual(['i03', 'i04', 'i06']);
        expect(await match({ field: 'n', op: 'in', value: [0, 100, 7] })).toEqual(['i04', 'i05']);
        expect(await match({ field: 'id', op: 'in', value: ['i01', 'i06', 'nope'] })).toEqual(['i01', 'i06']);
        expect(await match({ field: 'opt', op: 'in', value: ['here', null] })).toEqual([
          'i01',
          'i02',
          'i03',
          'i05',
          'i06',
        ]);
        expect(await match({ field: 'platformId', op: 'in', value: [] })).toEqual([]);
      });

      it('contains matches arrays holding the value, by type', async () => {
        expect(await match({ field: 'tags', op: 'contains', value: 'fruit' })).toEqual(['i01', 'i02', 'i05']);
        expect(await match({ field: 'tags', op: 'contains', value: 'brown' })).toEqual(['i04']);
        expect(await match({ field: 'tags', op: 'contains', value: 1 })).toEqual(['i06']);
        expect(await match({ field: 'tags', op: 'contains', value: '1' })).toEqual(['i05']);
        expect(await match({ field: 's', op: 'contains', value: 'apple' })).toEqual([]);
      });

      it('exists means present and not null', async () => {
        expect(await match({ field: 'opt', op: 'exists', value: true })).toEqual(['i01', 'i04']);
        expect(await match({ field: 'opt', op: 'exists', value: false })).toEqual(['i02', 'i03', 'i05', 'i06']);
        expect(await match({ field: 'b', op: 'exists', value: false })).toEqual(['i06']);
        expect(await match({ field: 'nested.x', op: 'exists', value: false })).toEqual(['i06']);
      });

      it('combines filters with AND and counts all matches', async () => {
        const page = await store.find(ITEMS, {
          filters: [
            { field: 'tags', op: 'contains', value: 'fruit' },
            { field: 'b', op: 'eq', value: true },
          ],
          limit: 1,
          sortBy: 'id',
        });
        expect(ids(page.data)).toEqual(['i01']);
        expect(page.totalCount).toBe(2);
        expect(page.hasMore).toBe(true);
      });

      it('sorts by createdAt by default, asc and desc, ties broken by id in the same direction', async () => {
        expect(ids((await store.find(ITEMS, { limit: 10 })).data)).toEqual(['i01', 'i02', 'i03', 'i04', 'i05', 'i06']);
        expect(ids((await store.find(ITEMS, { limit: 10, sortOrder: 'desc' })).data)).toEqual([
          'i06',
          'i05',
          'i04',
          'i03',
          'i02',
          'i01',
        ]);
        expect(ids((await store.find(ITEMS, { limit: 10, sortBy: 'nested.x', sortOrder: 'asc' })).data)).toEqual([
          'i06',
          'i01',
          'i04',
          'i02',
          'i03',
          'i05',
        ]);
        expect(ids((await store.find(ITEMS, { limit: 10, sortBy: 'nested.x', sortOrder: 'desc' })).data)).toEqual([
          'i05',
          'i03',
          'i02',
          'i04',
          'i01',
          'i06',
        ]);
        expect(ids((await store.find(ITEMS, { limit: 10, sortBy: 'n', sortOrder: 'asc' })).data)).toEqual([
          'i03',
          'i05',
          'i06',
          'i01',
          'i02',
          'i04',
        ]);
      });

      it('applies the limit and reports hasMore', async () => {
        const page = await store.find(ITEMS, { limit: 4 });
        expect(ids(page.data)).toEqual(['i01', 'i02', 'i03', 'i04']);
        expect(page).toMatchObject({ hasMore: true, totalCount: 6 });
        const all = await store.find(ITEMS, { limit: 6 });
        expect(all.data).toHaveLength(6);
        expect(all.hasMore).toBe(false);
        expect(all.nextCursor).toBeUndefined();
        expect((await store.find('empty', { limit: 5 })).totalCount).toBe(0);
        await expect(store.find(ITEMS, { limit: 0 })).rejects.toThrow(RangeError);
        await expect(store.find(ITEMS, { limit: 1001 })).rejects.toThrow(RangeError);
      });

      it('rejects garbage and foreign cursors with InvalidCursor', async () => {
        const query: Query = { filters: [{ field: 'platformId', op: 'eq', value: 'P1' }], limit: 1, sortOrder: 'desc' };
        const { nextCursor } = await store.find(ITEMS, query);
        expect(nextCursor).toEqual(expect.any(String));
        const garbage = [
          '',
          'garbage!',
          'bm90IGpzb24',
          Buffer.from('[1,2]').toString('base64url'),
          Buffer.from('["x",null,"i01"]').toString('base64url'),
        ];
        for (const cursor of garbage)
          await expect(store.find(ITEMS, { ...query, cursor })).rejects.toBeInstanceOf(InvalidCursor);
        const foreign: Query[] = [
          { ...query, filters: [{ field: 'platformId', op: 'eq', value: 'P2' }] },
          { ...query, filters: [] },
          { ...query, sortOrder: 'asc' },
          { ...query, sortBy: 'n' },
        ];
        for (const q of foreign)
          await expect(store.find(ITEMS, { ...q, cursor: nextCursor })).rejects.toBeInstanceOf(InvalidCursor);
        await expect(store.find('other', { ...query, cursor: nextCursor })).rejects.toBeInstanceOf(InvalidCursor);
        // The limit is not part of the query's identity.
        const next = await store.find(ITEMS, { ...query, limit: 5, cursor: nextCursor });
        expect(ids(next.data)).toEqual(['i02', 'i01']);
      });
    });

    describe('cursor pagination', () => {
      // 23 documents with many equal sort values (and some without one), so pages split inside ties.
      const docs: Doc[] = Array.from({ length: 23 }, (_, i) => ({
        id: `d${String((i * 7) % 23).padStart(2, '0')}`,
        platformId: i % 3 === 0 ? 'P1' : 'P2',
        rank: i % 4 === 0 ? undefined : i % 5,
        createdAt: `2025-02-0${1 + (i % 3)}T00:00:00.000Z`,
      }));
      beforeEach(async () => {
        await commit(store, 'p', 1n, docs);
      });

      const expected = (sortBy: string, order: 'asc' | 'desc', filter?: (d: Doc) => boolean) => {
        const key = (d: Doc) => (d[sortBy] ?? null) as number | string | null;
        const sorted = docs.filter(filter ?? (() => true)).sort((a, b) => {
          const ka = key(a);
          const kb = key(b);
          const c = ka === kb ? 0 : ka === null ? -1 : kb === null ? 1 : ka < kb ? -1 : 1;
          return c !== 0 ? c : a.id < b.id ? -1 : 1;
        });
        return ids(order === 'asc' ? sorted : sorted.reverse());
      };

      for (const sortBy of ['createdAt', 'rank', 'id']) {
        for (const order of ['asc', 'desc'] as const) {
          it(`walks every page by ${sortBy} ${order} without gaps or duplicates`, async () => {
            const { pages, total } = await allPages(store, ITEMS, { sortBy, sortOrder: order, limit: 4 });
            expect(total).toBe(23);
            expect(pages.slice(0, -1).every((p) => p.length === 4)).toBe(true);
            expect(ids(pages.flat())).toEqual(expected(sortBy, order));
          });
        }
      }

      it('pages a filtered query with a stable totalCount', async () => {
        const filters: Filter[] = [{ field: 'platformId', op: 'eq', value: 'P2' }];
        const { pages, total } = await allPages(store, ITEMS, { filters, sortOrder: 'desc', limit: 3 });
        const want = expected('createdAt', 'desc', (d) => d.platformId === 'P2');
        expect(total).toBe(want.length);
        expect(ids(pages.flat())).toEqual(want);
      });
    });
  });
}
