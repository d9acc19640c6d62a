import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { findRedisServer, startRedis, type RedisHandle } from '../../../../test/support/redis-server.js';
import { MemoryRateLimitStorage, RedisRateLimitStorage, type RateLimitStorage } from './rate-limit-storage.js';

/** One contract for both storages: fixed windows, a block past the limit, blocked keys count nothing. */
function contract(name: string, make: () => RateLimitStorage) {
  describe(name, () => {
    let storage: RateLimitStorage;
    beforeAll(() => {
      storage = make();
    });
    afterAll(async () => storage?.close());

    it('counts hits in the window and blocks past the limit for the block duration', async () => {
      const key = randomUUID();
      const first = await storage.increment(key, 60_000, 2, 30_000, 'test');
      expect(first).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
      expect((await storage.increment(key, 60_000, 2, 30_000, 'test')).isBlocked).toBe(false);
      expect(await storage.blockedFor(key, 'test')).toBe(0);
      const third = await storage.increment(key, 60_000, 2, 30_000, 'test');
      expect(third).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 30 });
      expect(await storage.blockedFor(key, 'test')).toBe(30);
      expect((await storage.increment(key, 60_000, 2, 30_000, 'test')).isBlocked).toBe(true);
    });

    it('keeps keys apart per key and per limit name', async () => {
      const key = randomUUID();
      await storage.increment(key, 60_000, 0, 60_000, 'a');
      expect(await storage.blockedFor(key, 'a')).toBe(60);
      expect(await storage.blockedFor(key, 'b')).toBe(0);
      expect(await storage.blockedFor(randomUUID(), 'a')).toBe(0);
    });

    it('starts a fresh count when the block ends', async () => {
      const key = randomUUID();
      await storage.increment(key, 60_000, 1, 150, 'short');
      expect((await storage.increment(key, 60_000, 1, 150, 'short')).isBlocked).toBe(true);
      // A block of 150 ms: waiting it out is the behaviour under test, bounded and short.
      await new Promise((r) => setTimeout(r, 250));
      expect(await storage.blockedFor(key, 'short')).toBe(0);
      expect(await storage.increment(key, 60_000, 1, 150, 'short')).toMatchObject({ totalHits: 1, isBlocked: false });
    });
  });
}

contract('in-memory rate-limit storage', () => new MemoryRateLimitStorage());

const redisMissing = !findRedisServer() && !process.env.CI;
if (redisMissing) console.warn('Skipping the Redis rate-limit storage: redis-server is not on PATH');
(redisMissing ? describe.skip : describe)('Redis rate-limit storage against a local redis-server', () => {
  let redis: RedisHandle | undefined;
  const storages: RedisRateLimitStorage[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(storages.map((s) => s.close()));
    await redis?.stop();
  });

  contract('one instance', () => new RedisRateLimitStorage(redis!.url));

  it('holds a limit across instances', async () => {
    const a = new RedisRateLimitStorage(redis!.url);
    const b = new RedisRateLimitStorage(redis!.url);
    storages.push(a, b);
    const key = randomUUID();
    await a.increment(key, 60_000, 1, 60_000, 'shared');
    expect((await b.increment(key, 60_000, 1, 60_000, 'shared')).isBlocked).toBe(true);
    expect(await a.blockedFor(key, 'shared')).toBe(60);
  });
});
