import { afterEach, beforeEach, expect } from '@jest/globals';
import type { Doc, Query, ReadModelStore } from './read-model-store.js';

/** Documents, helpers and expectations shared by the read-model store contract suites. */

export const ITEMS = 'items';

/** A document of `platformId` created at midnight UTC of day `day` of January 2025. */
const item = (id: string, platformId: string, day: number, fields: Omit<Doc, 'id'>): Doc => ({
  id,
  platformId,
  ...fields,
  createdAt: `2025-01-0${day}T00:00:00.000Z`,
});

/**
 * Varied field types: numbers that sort differently as strings, ISO dates, booleans, arrays, nesting, missing and null
 * fields.
 */
export const items: Doc[] = [
  item('i01', 'P1', 1, { n: 9, s: 'apple', b: true, tags: ['red', 'fruit'], nested: { x: 1 }, opt: 'here' }),
  item('i02', 'P1', 2, { n: 10, s: 'banana', b: false, tags: ['yellow', 'fruit'], nested: { x: 2 } }),
  item('i03', 'P2', 3, { n: -1.5, s: 'cherry', b: true, tags: [], nested: { x: 3 }, opt: null }),
  item('i04', 'P2', 3, { n: 100, s: 'Date', b: false, tags: ['brown'], nested: { x: 1 }, opt: 'also' }),
  item('i05', 'P1', 5, { n: 0, s: '10', b: true, tags: ['1', 'fruit'], nested: { x: 10 } }),
  item('i06', 'P3', 6, { n: 2, s: '9', tags: [1, 2], nested: {} }),
];

export const ids = (docs: Doc[]) => docs.map((d) => d.id);

export async function commit(
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
export async function allPages(
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

/** A fresh store from `factory` for every test (handed to `use` before it runs), disposed after it. */
export function useFreshStore(
  factory: () => Promise<{ store: ReadModelStore; dispose(): Promise<void> }>,
  use: (store: ReadModelStore) => void,
): void {
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    const made = await factory();
    dispose = made.dispose;
    use(made.store);
  });
  afterEach(async () => {
    await dispose();
  });
}
