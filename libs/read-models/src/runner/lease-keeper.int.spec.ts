import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { LeaseKeeper } from './lease-keeper.js';
import { LeasedCheckpoint } from './leased-checkpoint.js';
import { ConcurrentProjectionUpdate, LeaseLost } from '../read-model-store.js';
import { SqliteReadModelStore } from '../sqlite/read-model-store.js';

/** Two processes' keepers on one store: each on its own connection, wall time controlled by the test. */
describe('LeaseKeeper and LeasedCheckpoint (single-active processors)', () => {
  let dir: string;
  let stores: SqliteReadModelStore[];
  let now: number;
  const keepers: { stop(): Promise<void> }[] = [];
  const options = (holder: string) => ({
    holder,
    ttlMs: 1000,
    renewEveryMs: 60_000,
    now: () => now,
    logger: { warn: () => undefined },
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leases-'));
    stores = [new SqliteReadModelStore(join(dir, 'rm.db')), new SqliteReadModelStore(join(dir, 'rm.db'))];
    now = 1_000_000;
  });
  afterEach(async () => {
    for (const k of keepers.splice(0)) await k.stop();
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'one process is active; the other takes over when it stops, or when its lease lapses, and the ' +
      'old one is fenced',
    async () => {
      const changes: string[] = [];
      const first = new LeasedCheckpoint(
        stores[0],
        'dispatcher',
        (active) => changes.push(`first ${active}`),
        options('first'),
      );
      const second = new LeasedCheckpoint(
        stores[1],
        'dispatcher',
        (active) => changes.push(`second ${active}`),
        options('second'),
      );
      keepers.push(first, second);
      await first.start();
      await second.start();
      expect([first.active, second.active]).toEqual([true, false]);
      expect(await first.load()).toBeUndefined();
      await first.save(10n);
      await expect(second.save(20n)).rejects.toBeInstanceOf(LeaseLost);

      // The first process hangs past its TTL: the second takes over from the stored checkpoint.
      now += 1001;
      await second.start(); // competes again: a renewal tick
      expect(second.active).toBe(true);
      expect(await second.load()).toBe(10n);
      await second.save(30n);
      // The first one wakes up: its write is refused, and it learns it is no longer active.
      await expect(first.save(40n)).rejects.toBeInstanceOf(LeaseLost);
      expect(first.active).toBe(false);
      expect(await stores[0].getCheckpoint('dispatcher')).toBe(30n);

      // A graceful stop hands over at once.
      await second.stop();
      await first.start();
      expect(first.active).toBe(true);
      expect(await first.load()).toBe(30n);
      expect(changes).toEqual(['first true', 'second true', 'first false', 'first true']);
    },
  );

  it('refuses a save from a stale checkpoint even while holding the lease', async () => {
    const checkpoint = new LeasedCheckpoint(stores[0], 'reactor', () => undefined, options('only'));
    keepers.push(checkpoint);
    await checkpoint.start();
    await checkpoint.load();
    await checkpoint.save(5n);
    await stores[1].commitBatch('reactor', 5n, 9n, async () => undefined);
    await expect(checkpoint.save(7n)).rejects.toBeInstanceOf(ConcurrentProjectionUpdate);
  });

  it('makes saves issued together one after the other, each from the checkpoint the previous one left', async () => {
    const checkpoint = new LeasedCheckpoint(stores[0], 'dispatcher', () => undefined, options('only'));
    keepers.push(checkpoint);
    await checkpoint.start();
    await checkpoint.load();
    await Promise.all([checkpoint.save(5n), checkpoint.save(9n), checkpoint.save(7n)]);
    expect(checkpoint.position).toBe(9n);
    expect(await stores[1].getCheckpoint('dispatcher')).toBe(9n);
  });

  it('seize takes a live lease (a rebuild) and settle gives up on a live holder after one TTL', async () => {
    const worker = new LeaseKeeper(stores[0], ['projection:p'], () => undefined, options('worker'));
    const cli = new LeaseKeeper(stores[1], ['projection:p'], () => undefined, {
      ...options('cli'),
      ttlMs: 50,
      renewEveryMs: 10,
      now: Date.now,
    });
    keepers.push(worker, cli);
    now = Date.now();
    await worker.start();
    await cli.seize(['projection:p']);
    expect(cli.fence('projection:p')?.token).toBe(2n);
    await expect(
      stores[0].commitBatch('p', undefined, 1n, async () => undefined, worker.fence('projection:p')),
    ).rejects.toBeInstanceOf(LeaseLost);
    const standby = new LeaseKeeper(stores[0], ['projection:p'], () => undefined, {
      ...options('standby'),
      ttlMs: 50,
      renewEveryMs: 10,
      now: Date.now,
    });
    keepers.push(standby);
    await standby.start();
    expect(await standby.settle()).toBe(false);
    await cli.stop();
    expect(await standby.settle()).toBe(true);
  });
});
