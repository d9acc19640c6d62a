import { Logger } from '@nestjs/common';
// Types only: at run time @nestjs/throttler 6 (CommonJS) cannot load the ESM-only @nestjs/common 12
// under Jest on Node 20, so the guard is ours; the storages keep the throttler's contract.
import type { ThrottlerStorage } from '@nestjs/throttler';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { AppConfig } from '#config/config.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;
/** A hit as the throttler counts it: key, ttl (ms), limit, block duration (ms, 0: the window) and throttler name. */
type Hit = Parameters<ThrottlerStorage['increment']>;

/**
 * A throttler storage that can also tell whether a key is blocked without counting a hit: the
 * failed-authentication limit must refuse a blocked caller before it checks the secret, and
 * only failures count. Both storages count in fixed windows: the first hit opens a window of
 * `ttl` ms; a hit past `limit` blocks the key for `blockDuration` ms (the window when 0) and the
 * count starts afresh after the block; a blocked key counts no hits.
 */
export interface RateLimitStorage extends ThrottlerStorage {
  /** Seconds until the key's block ends, 0 when it is not blocked. */
  blockedFor(key: string, throttlerName: string): Promise<number>;
  close(): Promise<void>;
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** One process. Expired windows are swept as the map grows, so unknown keys cannot pile up. */
export class MemoryRateLimitStorage implements RateLimitStorage {
  private readonly windows = new Map<string, Window>();

  async increment(...[key, ttl, limit, blockDuration, name]: Hit): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    const id = `${name}:${key}`;
    let w = this.windows.get(id);
    if (w && w.blockedUntil > now) return this.record(limit + 1, w, now);
    if (!w || w.expiresAt <= now || w.blockedUntil > 0) {
      if (this.windows.size >= 10_000) this.sweep(now);
      w = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, w);
    }
    w.hits += 1;
    if (w.hits > limit) {
      w.blockedUntil = now + (blockDuration > 0 ? blockDuration : ttl);
    }
    return this.record(w.hits, w, now);
  }

  private record(totalHits: number, w: Window, now: number): ThrottlerStorageRecord {
    const isBlocked = w.blockedUntil > now;
    return {
      totalHits,
      timeToExpire: seconds(w.expiresAt - now),
      isBlocked,
      timeToBlockExpire: isBlocked ? seconds(w.blockedUntil - now) : 0,
    };
  }

  async blockedFor(key: string, throttlerName: string): Promise<number> {
    const w = this.windows.get(`${throttlerName}:${key}`);
    return w ? seconds(w.blockedUntil - Date.now()) : 0;
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (w.expiresAt <= now && w.blockedUntil <= now) this.windows.delete(id);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

/** KEYS: hits, block. ARGV: ttl ms, limit, block ms. Atomic: INCR + PEXPIRE on the first hit of a window. */
const HIT_SCRIPT = `
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then
  return {tonumber(ARGV[2]) + 1, redis.call('PTTL', KEYS[1]), blocked}
end
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if hits > tonumber(ARGV[2]) then
  local block = tonumber(ARGV[3])
  if block <= 0 then block = tonumber(ARGV[1]) end
  redis.call('SET', KEYS[2], '1', 'PX', block)
  redis.call('DEL', KEYS[1])
  return {hits, ttl, block}
end
return {hits, ttl, 0}
`;

type HitReply = [number, number, number];
type ScriptedRedis = Redis & {
  rateLimitHit(hits: string, block: string, ttl: number, limit: number, blockMs: number): Promise<HitReply>;
};

/**
 * Shared by every API instance, so a limit holds however many instances serve the caller.
 * A Redis outage lets requests through (logged): the limits are a second line of defence
 * behind strong secrets, and must not take the API down with them.
 */
export class RedisRateLimitStorage implements RateLimitStorage {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: ScriptedRedis;

  constructor(
    url: string,
    private readonly prefix = 'ratelimit',
  ) {
    // Required here, not imported: ioredis is loaded only by an installation that runs Redis.
    const { Redis: Client } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.redis = new Client(url, { maxRetriesPerRequest: 1 }) as ScriptedRedis;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis.on('error', (e: Error) => this.logger.warn(`redis: ${e.message}`));
  }

  // The hash tag keeps both keys of one limit in one cluster slot, as a script needs.
  private keys(key: string, throttlerName: string) {
    const base = `${this.prefix}:{${throttlerName}:${key}}`;
    return { hits: `${base}:hits`, block: `${base}:block` };
  }

  async increment(...[key, ttl, limit, blockDuration, name]: Hit): Promise<ThrottlerStorageRecord> {
    const k = this.keys(key, name);
    try {
      const [hits, ttlMs, blockMs] = await this.redis.rateLimitHit(k.hits, k.block, ttl, limit, blockDuration);
      return {
        totalHits: hits,
        timeToExpire: seconds(ttlMs),
        isBlocked: blockMs > 0,
        timeToBlockExpire: seconds(blockMs),
      };
    } catch (e) {
      this.logger.error(`rate limit not applied: ${(e as Error).message}`);
      return { totalHits: 0, timeToExpire: seconds(ttl), isBlocked: false, timeToBlockExpire: 0 };
    }
  }

  async blockedFor(key: string, throttlerName: string): Promise<number> {
    try {
      return seconds(await this.redis.pttl(this.keys(key, throttlerName).block));
    } catch (e) {
      this.logger.error(`rate limit not applied: ${(e as Error).message}`);
      return 0;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Redis when the installation already runs it for jobs (several API instances), memory otherwise. */
export function createRateLimitStorage(config: AppConfig): RateLimitStorage {
  return config.jobs.kind === 'bullmq' ? new RedisRateLimitStorage(config.jobs.url) : new MemoryRateLimitStorage();
}
