import { describe, expect, it } from '@jest/globals';
import { RecentCache } from './primitives.js';

describe('RecentCache', () => {
  it('keeps at least the newest half of its capacity', () => {
    const cache = new RecentCache<string, number>(4);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    keys.forEach((key, i) => cache.set(key, i));
    expect(cache.get('d')).toBe(3);
    expect(cache.get('e')).toBe(4);
    expect(keys.filter((k) => cache.has(k)).length).toBeLessThanOrEqual(4);
    expect(cache.has('a')).toBe(false);
  });

  it('moves an old entry that is read back among the young ones, so it outlives those not read', () => {
    const cache = new RecentCache<string, number>(4);
    cache.set('a', 1);
    cache.set('b', 2); // young full: a, b become old
    expect(cache.get('a')).toBe(1); // a is young again
    cache.set('c', 3); // young a, c full: they become old, b is dropped
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('answers the newest value of a key, and forgets deleted and cleared keys', () => {
    const cache = new RecentCache<string, number | null>(100);
    cache.set('a', 1);
    cache.set('a', 2);
    cache.set('n', null);
    expect(cache.get('a')).toBe(2);
    expect(cache.get('n')).toBeNull();
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.clear();
    expect(cache.has('n')).toBe(false);
  });

  it('never holds more than its capacity', () => {
    const cache = new RecentCache<number, number>(10);
    for (let i = 0; i < 1000; i++) cache.set(i, i);
    expect(Array.from({ length: 1000 }, (_, i) => i).filter((i) => cache.has(i)).length).toBeLessThanOrEqual(10);
    expect(cache.get(999)).toBe(999);
  });
});
