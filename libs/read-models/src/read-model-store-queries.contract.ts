import { beforeEach, describe, expect, it } from '@jest/globals';
import { ITEMS, allPages, commit, ids, items, useFreshStore } from './read-model-store.fixtures.js';
import type { ReadModelContract } from './read-model-store.contract.js';
import { InvalidCursor, type Doc, type Filter, type Query, type ReadModelStore } from './read-model-store.js';

/** The query half of the ReadModelStore contract: filters, sorting and cursor pagination. */
export const readModelQueryContract: ReadModelContract = (name, factory, describeFn = describe) =>
  describeFn(`ReadModelStore query contract: ${name}`, () => {
    let store: ReadModelStore;
    useFreshStore(factory, (fresh) => (store = fresh));

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
