/**
 * A bounded cache of the most recently used entries: it holds between half its capacity and its capacity. New entries
 * go into a young map; once that holds half the capacity it becomes the old map and the previous old map is dropped
 * whole; an old entry that is read again moves back into the young map.
 *
 * (A Map kept in recency order, by deleting and setting a key on every use and evicting its first key, cost about a
 * microsecond a use at 10,000 entries on V8: every deletion leaves a slot that later operations step over.)
 */
export class RecentCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.set(key, aged);
    }
    return aged;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /** `undefined` is not a value: it reads as absent. */
  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }
}
