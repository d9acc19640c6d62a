import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { ManualClock } from '#domain/clock.js';
import { Sqlite } from '#sqlite/driver.js';
import { findRedisServer, startRedis, type RedisHandle } from '../../../test/support/redis-server.js';
import { BullmqJobQueue, decodeJobId, encodeJobId } from './bullmq/job-queue.js';
import { createJobQueue } from './index.js';
import { DeferredJobError, UnrecoverableJobError, type JobQueue } from './job-queue.js';
import { jobQueueContract, waitFor } from './job-queue.contract.js';
import { jobQueueDueContract } from './job-queue-due.contract.js';
import { SqliteJobQueue } from './sqlite/job-queue.js';

const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sqliteQueue = async (clock: ManualClock) => new SqliteJobQueue(join(tempDir('jobs-'), 'jobs.db'), { clock });
jobQueueContract('sqlite', sqliteQueue);
jobQueueDueContract('sqlite', sqliteQueue);

/**
 * Queue `fair` gets 40 jobs of group a, then 2 of group b, then (`ungrouped`) one without a group, then a0 again:
 * enqueueing an existing job changes nothing, its group's count included.
 */
async function enqueueBacklogs(jobs: JobQueue, { ungrouped }: { ungrouped: boolean }): Promise<void> {
  for (let i = 0; i < 40; i += 1)
    await jobs.enqueue('fair', 'deliver', { job: `a${i}` }, { id: `a${i}`, group: 'Platform:a' });
  for (let i = 0; i < 2; i += 1) await jobs.enqueue('fair', 'deliver', { job: `b${i}` }, { group: 'Platform:b' });
  if (ungrouped) await jobs.enqueue('fair', 'deliver', { job: 'c0' });
  await jobs.enqueue('fair', 'deliver', { job: 'a0' }, { id: 'a0', group: 'Platform:a' });
}

/** Runs queue `fair` one job at a time (a39 is refused, so it dies): the jobs in the order they ran. */
function runOneAtATime(jobs: JobQueue): string[] {
  const order: string[] = [];
  jobs.process<{ job: string }>(
    'fair',
    async ({ data }) => {
      order.push(data.job);
      if (data.job === 'a39') throw new UnrecoverableJobError('refused');
    },
    { concurrency: 1 },
  );
  return order;
}

/**
 * Runs `enqueueBacklogs` one job at a time and checks the order: b's jobs and the job without a group, enqueued after
 * all of a's, run as a's first and second do; then a dead job revived runs behind its group's jobs, a later delayed
 * one included. `places` reads each group's next place.
 */
async function expectFairOrder(jobs: JobQueue, places: () => Promise<Record<string, number>>): Promise<void> {
  await enqueueBacklogs(jobs, { ungrouped: true });
  expect(await places()).toEqual({ '': 1, 'Platform:a': 40, 'Platform:b': 2 });
  const order = runOneAtATime(jobs);
  await waitFor(() => order.length === 43, 'every job run');
  expect(order.slice(0, 6)).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  expect(order.filter((job) => job.startsWith('a'))).toEqual(Array.from({ length: 40 }, (_, i) => `a${i}`));
  await jobs.enqueue('fair', 'deliver', { job: 'a40' }, { id: 'a40', group: 'Platform:a', delayMs: 60_000 });
  expect(await jobs.retryDead('fair', 'a39')).toBe(true);
  expect((await places())['Platform:a']).toBe(42);
  await waitFor(() => order.length === 44, 'the revived job run');
  expect(order[43]).toBe('a39');
}

/** A deferred run goes to the back of its group, behind another group's job that came meanwhile. */
async function expectDeferredToBack(jobs: JobQueue): Promise<void> {
  for (let i = 0; i < 3; i += 1)
    await jobs.enqueue('held', 'deliver', { job: `a${i}` }, { id: `a${i}`, group: 'Platform:a' });
  const order: string[] = [];
  let deferred = false;
  jobs.process<{ job: string }>(
    'held',
    async ({ data }) => {
      order.push(data.job);
      // a0's first run finds its group at its limit: it runs again at once, behind a's other jobs.
      if (data.job === 'a0' && !deferred) {
        deferred = true;
        await jobs.enqueue('held', 'deliver', { job: 'b0' }, { id: 'b0', group: 'Platform:b' });
        throw new DeferredJobError(0);
      }
    },
    { concurrency: 1 },
  );
  await waitFor(() => order.length === 5, 'every job run');
  // b0 came when a1 was a's first waiting job, and takes a1's place: after a1, before a2.
  expect(order).toEqual(['a0', 'a1', 'b0', 'a2', 'a0']);
}

describe('SqliteJobQueue groups', () => {
  it("runs a group's first jobs before the rest of another group's backlog, each group's in order", async () => {
    const jobs = new SqliteJobQueue(join(tempDir('jobs-fair-'), 'jobs.db'), { clock: new ManualClock() });
    try {
      await expectFairOrder(jobs, async () => jobs.places.of('fair'));
    } finally {
      await jobs.close();
    }
  });

  it("defers a run to the back of its group, behind another group's first jobs", async () => {
    const jobs = new SqliteJobQueue(join(tempDir('jobs-defer-'), 'jobs.db'), { clock: new ManualClock() });
    try {
      await expectDeferredToBack(jobs);
    } finally {
      await jobs.close();
    }
  });

  it('opens a file from before places: its jobs take place 0 and run', async () => {
    const path = join(tempDir('jobs-old-'), 'jobs.db');
    const old = new Sqlite(path);
    old.exec(`CREATE TABLE jobs (queue TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL,
      state TEXT NOT NULL, attempts_made INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL, backoff TEXT,
      due_at INTEGER NOT NULL, lease_until INTEGER, lease_token TEXT, last_error TEXT, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL, finished_at INTEGER, grp TEXT, PRIMARY KEY (queue, id))`);
    old.exec(`INSERT INTO jobs (queue, id, name, data, state, max_attempts, due_at, created_at, updated_at, grp)
      VALUES ('q', 'old', 'n', '{"job":"old"}', 'waiting', 1, 0, 0, 0, 'Platform:a')`);
    old.close();
    const jobs = new SqliteJobQueue(path, { clock: new ManualClock() });
    try {
      await jobs.enqueue('q', 'n', { job: 'new' }, { group: 'Platform:a' });
      const order: string[] = [];
      jobs.process<{ job: string }>('q', async ({ data }) => void order.push(data.job), { concurrency: 1 });
      await waitFor(() => order.length === 2, 'both jobs run');
      expect(order).toEqual(['old', 'new']);
    } finally {
      await jobs.close();
    }
  });
});

describe('createJobQueue', () => {
  it('opens the embedded adapter on the configured file', async () => {
    const jobs = await createJobQueue({
      kind: 'sqlite',
      path: join(tempDir('jobs-'), 'nested', 'jobs.db'),
      clock: new ManualClock(),
    });
    try {
      expect(jobs).toBeInstanceOf(SqliteJobQueue);
    } finally {
      await jobs.close();
    }
  });

  it('fails at start when Redis is unreachable', async () => {
    const unused = await new Promise<number>((done) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      });
    });
    await expect(
      createJobQueue({
        kind: 'bullmq',
        url: `redis://127.0.0.1:${unused}`,
        clock: new ManualClock(),
        onError: () => {},
      }),
    ).rejects.toThrow();
  });
});

describe('BullMQ job ids', () => {
  it('encodes ids reversibly without colons or integer forms', () => {
    for (const id of ['Webhook:1:2', '42', '%3A', 'a%b:c', '', 'j_x']) {
      const encoded = encodeJobId(id);
      expect(encoded).not.toContain(':');
      expect(`${parseInt(encoded, 10)}`).not.toBe(encoded);
      expect(decodeJobId(encoded)).toBe(id);
    }
  });
});

// In CI a missing redis-server is an error (startRedis throws); elsewhere the suite is skipped.
const redisMissing = !findRedisServer() && !process.env.CI;
if (redisMissing) console.warn('Skipping the BullMQ job-queue contract: redis-server is not on PATH');
(redisMissing ? describe.skip : describe)('BullMQ against a local redis-server', () => {
  let redis: RedisHandle | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  it('createJobQueue connects to the configured Redis', async () => {
    const jobs = await createJobQueue({ kind: 'bullmq', url: redis!.url, clock: new ManualClock() });
    expect(jobs).toBeInstanceOf(BullmqJobQueue);
    await jobs.close();
  });

  // A fresh key prefix per queue instance keeps tests apart in one Redis.
  const bullmqQueue = async (clock: ManualClock) =>
    new BullmqJobQueue({ url: redis!.url, clock, prefix: `t${randomUUID().slice(0, 8)}` });
  jobQueueContract('bullmq', bullmqQueue);
  jobQueueDueContract('bullmq', bullmqQueue);

  it("runs a group's first jobs before the rest of another group's backlog, each group's in order", async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const jobs = new BullmqJobQueue({ url: redis!.url, clock: new ManualClock(), prefix });
    const redisClient = new Redis(redis!.url);
    try {
      const places = async () => {
        const nexts = await redisClient.hgetall(`${prefix}:fair:group-places`);
        return Object.fromEntries(Object.entries(nexts).map(([group, next]) => [group, Number(next)]));
      };
      await expectFairOrder(jobs, places);
    } finally {
      redisClient.disconnect();
      await jobs.close();
    }
  });

  it('moves every place down by the floor once it reaches the threshold, and the jobs keep their order', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const jobs = new BullmqJobQueue({ url: redis!.url, clock: new ManualClock(), prefix, placesRebaseAt: 10 });
    const redisClient = new Redis(redis!.url);
    try {
      for (let i = 0; i < 12; i += 1)
        await jobs.enqueue('rebase', 'deliver', { job: `a${i}` }, { id: `a${i}`, group: 'Platform:a' });
      const order: string[] = [];
      let release = () => {};
      const held = new Promise<void>((done) => (release = done));
      jobs.process<{ job: string }>(
        'rebase',
        async ({ data }) => {
          order.push(data.job);
          if (data.job === 'a10') await held;
        },
        { concurrency: 1 },
      );
      await waitFor(() => order.length === 11, 'a0 to a10 run');
      // a11 (place 11) is the first waiting job: the floor reaches 11, and every place moves down by 11.
      await jobs.enqueue('rebase', 'deliver', { job: 'b0' }, { id: 'b0', group: 'Platform:b' });
      const key = (suffix: string) => `${prefix}:rebase:${suffix}`;
      expect(await redisClient.hgetall(key('group-places'))).toEqual({ 'Platform:a': '1', 'Platform:b': '1' });
      expect(await redisClient.get(key('group-floor'))).toBe('0');
      expect(await redisClient.hget(key(encodeJobId('a11')), 'priority')).toBe('1');
      release();
      await waitFor(() => order.length === 13, 'every job run');
      expect(order.slice(10)).toEqual(['a10', 'a11', 'b0']);
    } finally {
      redisClient.disconnect();
      await jobs.close();
    }
  });

  it("defers a run to the back of its group, behind another group's first jobs", async () => {
    const jobs = new BullmqJobQueue({
      url: redis!.url,
      clock: new ManualClock(),
      prefix: `t${randomUUID().slice(0, 8)}`,
    });
    try {
      await expectDeferredToBack(jobs);
    } finally {
      await jobs.close();
    }
  });
});
