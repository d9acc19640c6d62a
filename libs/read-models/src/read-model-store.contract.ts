import { describe, expect, it } from '@jest/globals';
import {
  COUNT_CAP,
  ConcurrentProjectionUpdate,
  type Doc,
  type Filter,
  type ProjectionTransaction,
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

import { ITEMS, commit, ids, items, useFreshStore } from './read-model-store.fixtures.js';

/**
 * Registers one suite of the ReadModelStore contract for an adapter. `describeFn` is `describe.skip` when the adapter's
 * server is not reachable (the caller prints why).
 */
export type ReadModelContract = (
  name: string,
  factory: ReadModelStoreFactory,
  describeFn?: (name: string, fn: () => void) => void,
) => void;

export const readModelStoreContract: ReadModelContract = (name, factory, describeFn = describe) =>
  describeFn(`ReadModelStore contract: ${name}`, () => {
    let store: ReadModelStore;
    useFreshStore(factory, (fresh) => (store = fresh));

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

      it('freezes a document put: changing it afterwards throws, and what is stored is what was put', async () => {
        const doc: Doc = { id: 'a', v: 1, list: [1], nested: { n: 1 } };
        await store.commitBatch('p', undefined, 1n, async (tx) => {
          tx.put(ITEMS, doc);
          expect(() => (doc.v = 99)).toThrow(TypeError);
          expect(() => (doc.list as number[]).push(2)).toThrow(TypeError);
          expect(() => ((doc.nested as { n: number }).n = 2)).toThrow(TypeError);
          expect(await tx.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1, list: [1], nested: { n: 1 } });
        });
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1, list: [1], nested: { n: 1 } });
      });

      it('keeps exactly what JSON can say', async () => {
        const at = new Date('2026-01-01T00:00:00.000Z');
        await store.commitBatch('p', undefined, 1n, async (tx) => {
          tx.put(ITEMS, { id: 'a', at, gone: undefined });
        });
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', at: '2026-01-01T00:00:00.000Z' });
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

      it('refuses a batch of several projections when one is stale, writing none of them', async () => {
        await commit(store, 'm1', 10n, [{ id: 'a', v: 1 }]);
        await commit(store, 'm2', 20n, [{ id: 'b', v: 1 }]);
        const batch = (m2: bigint | undefined) => [
          { projection: 'm1', expected: 10n, position: 30n },
          { projection: 'm2', expected: m2, position: 30n },
          { projection: 'm3', expected: undefined, position: 30n },
        ];
        let ran = 0;
        const write = (v: string) => async (tx: ProjectionTransaction) => {
          ran++;
          tx.put(ITEMS, { id: 'a', v });
        };
        for (const m2 of [19n, undefined]) {
          const refused = await store.commitBatches(batch(m2), write('stale')).catch((e: unknown) => e);
          expect(refused).toBeInstanceOf(ConcurrentProjectionUpdate);
          expect(refused).toMatchObject({ projection: 'm2', expected: m2, actual: 20n });
        }
        expect(ran).toBe(0);
        // Checked again inside the write: another writer moves m2 while the work runs.
        const moved = store.commitBatches(batch(20n), async (tx) => {
          tx.put(ITEMS, { id: 'a', v: 'outer' });
          await commit(store, 'm2', 25n, [{ id: 'b', v: 2 }]);
        });
        await expect(moved).rejects.toMatchObject({ projection: 'm2', expected: 20n, actual: 25n });
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 1 });
        expect([await store.getCheckpoint('m1'), await store.getCheckpoint('m3')]).toEqual([10n, undefined]);
        // With every checkpoint as expected, they all move with the documents.
        await store.commitBatches(batch(25n), write('fresh'));
        expect(ran).toBe(1);
        expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', v: 'fresh' });
        for (const m of ['m1', 'm2', 'm3']) expect(await store.getCheckpoint(m)).toBe(30n);
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
  });
