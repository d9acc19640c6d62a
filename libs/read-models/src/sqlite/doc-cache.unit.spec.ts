import { describe, expect, it } from '@jest/globals';
import type { BufferedWrites } from '../buffered-transaction.js';
import { DocCache } from './doc-cache.js';

const batch = (token: bigint | undefined, projection = 'p') => [
  { projection, expected: undefined, position: 1n, ...(token === undefined ? {} : { fence: { lease: 'L', token } }) },
];
const writes = (...docs: [id: string, n: number | null][]): BufferedWrites =>
  new Map([['items', new Map(docs.map(([id, n]) => [id, n === null ? null : { id, n }]))]]);

describe('DocCache', () => {
  it('answers a batch under the same fence with what the earlier batches committed, deletions included', () => {
    const cache = new DocCache(10);
    expect(cache.admit(batch(1n))).toBe(true);
    cache.remember(writes(['a', 1], ['b', 2]));
    expect(cache.admit(batch(1n))).toBe(true);
    cache.remember(writes(['a', 3], ['b', null]));
    expect(cache.get('items', 'a')).toEqual({ id: 'a', n: 3 });
    expect(cache.get('items', 'b')).toBeNull();
    expect(cache.get('items', 'c')).toBeUndefined();
    expect(cache.get('other', 'a')).toBeUndefined();
  });

  it('forgets everything when a projection comes with another fence, and serves no batch without one', () => {
    const cache = new DocCache(10);
    cache.admit(batch(1n));
    cache.remember(writes(['a', 1]));
    expect(cache.admit(batch(2n))).toBe(true);
    expect(cache.get('items', 'a')).toBeUndefined();
    cache.remember(writes(['a', 2]));
    expect(cache.admit(batch(undefined))).toBe(false);
    expect(cache.get('items', 'a')).toBeUndefined();
    // Another projection's first batch changes nothing for the first one's documents.
    cache.admit(batch(2n));
    cache.remember(writes(['a', 3]));
    expect(cache.admit(batch(7n, 'q'))).toBe(true);
    expect(cache.get('items', 'a')).toEqual({ id: 'a', n: 3 });
  });

  it('keeps at most its capacity, the most recently written at least', () => {
    const cache = new DocCache(4);
    cache.admit(batch(1n));
    cache.remember(writes(['a', 1], ['b', 1], ['c', 1], ['d', 1], ['e', 1]));
    expect(cache.get('items', 'e')).toEqual({ id: 'e', n: 1 });
    expect(cache.get('items', 'd')).toEqual({ id: 'd', n: 1 });
    expect(cache.get('items', 'a')).toBeUndefined();
  });
});
