import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { transformFileSync } from '@swc/core';
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

const srcDir = fileURLToPath(new URL('.', import.meta.url));
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

describe('SqliteJobQueue across processes', () => {
  it('never runs one job in two queue instances at once', async () => {
    const path = join(tempDir('jobs-'), 'jobs.db');
    const clock = new ManualClock();
    const a = new SqliteJobQueue(path, { clock, pollMs: 5 });
    const b = new SqliteJobQueue(path, { clock, pollMs: 5 });
    try {
      const runs = new Map<string, number>();
      const count = async (job: { id: string }) => {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await new Promise((resolve) => setImmediate(resolve));
      };
      a.process('race', count, { concurrency: 4 });
      b.process('race', count, { concurrency: 4 });
      const ids: string[] = [];
      for (let i = 0; i < 60; i += 1) ids.push(await (i % 2 ? a : b).enqueue('race', 'deliver', { i }));
      await waitFor(
        async () =>
          (await Promise.all(ids.map((id) => a.getJob('race', id)))).every((job) => job?.state === 'completed'),
        'all jobs completed',
      );
      expect([...runs.keys()].sort()).toEqual([...ids].sort());
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("wakes a worker for another connection's enqueue at once, not at its next poll", async () => {
    const path = join(tempDir('jobs-'), 'jobs.db');
    const clock = new ManualClock();
    // Polls once a minute: only the commit watch can bring the job to it within the wait below.
    const worker = new SqliteJobQueue(path, { clock, pollMs: 60_000 });
    const producer = new SqliteJobQueue(path, { clock });
    try {
      const ran: unknown[] = [];
      worker.process('elsewhere', async (job) => void ran.push(job.data), { concurrency: 2 });
      await producer.enqueue('elsewhere', 'deliver', { n: 1 });
      await waitFor(async () => ran.length === 1, 'the first job ran');
      await producer.enqueue('elsewhere', 'deliver', { n: 2 });
      await waitFor(async () => ran.length === 2, 'the second job ran');
      expect(ran).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await Promise.all([worker.close(), producer.close()]);
    }
  });

  it('runs a job again after the process holding it was killed and its lease expired', async () => {
    const dir = tempDir('jobs-crash-');
    const path = join(dir, 'jobs.db');
    const clock = new ManualClock();
    const queue = new SqliteJobQueue(path, { clock });
    try {
      const id = await queue.enqueue('crash', 'deliver', { to: 'Webhook:1' }, { id: 'crash-1', attempts: 3 });
      const child = spawnClaimingChild(dir, path, clock.now().getTime(), 300);
      await child.claimed;
      expect((await queue.getJob('crash', id))?.state).toBe('active');
      child.process.kill('SIGKILL');
      await child.exited;

      const seen: number[] = [];
      queue.process('crash', async (job) => {
        seen.push(job.attemptsMade);
      });
      await waitFor(
        async () => (await queue.getJob('crash', id))?.state === 'completed',
        'the job to run again after the lease expired',
      );
      // A crash is not a failed attempt: the job keeps its budget.
      expect(seen).toEqual([0]);
    } finally {
      await queue.close();
    }
  });
});

/**
 * Runs the adapter in a child process. The child cannot load TypeScript, so the adapter's files
 * are compiled to CommonJS next to a small driver script.
 */
function spawnClaimingChild(dir: string, dbPath: string, clockMs: number, leaseMs: number) {
  const libsDir = resolve(srcDir, '../..');
  for (const file of [
    'job-queue.ts',
    'backoff.ts',
    'sqlite/log-sync.ts',
    'sqlite/job-store.ts',
    'sqlite/group-places.ts',
    'sqlite/job-worker.ts',
    'sqlite/job-queue.ts',
    '../../event-store/src/sqlite/commit-watch.ts',
    '../../config/src/private-files.ts',
    '../../sqlite/src/driver.ts',
  ]) {
    const { code } = transformFileSync(join(srcDir, file), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    // Each library's sources under a folder of its name (libs/jobs/src/x.ts as jobs/x.js): the import of another
    // library's file (#event-store/…) becomes a relative one.
    const target = join(dir, relative(libsDir, join(srcDir, file)).replace('/src/', '/').replace(/\.ts$/, '.js'));
    const local = code.replace(/#([a-z-]+)\/([a-z/-]+\.js)/g, (_, lib: string, path: string) => {
      const to = relative(dirname(target), join(dir, lib, path));
      return to.startsWith('.') ? to : `./${to}`;
    });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, local);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}');
  writeFileSync(
    join(dir, 'child.js'),
    `const { SqliteJobQueue } = require('./jobs/sqlite/job-queue.js');
const [path, at, leaseMs] = process.argv.slice(2);
const clock = { now: () => new Date(Number(at)) };
const queue = new SqliteJobQueue(path, { clock, leaseMs: Number(leaseMs), pollMs: 10 });
queue.process('crash', async (job) => {
  process.stdout.write('claimed ' + job.id + '\\n');
  await new Promise(() => {});
});
`,
  );
  const child = spawn(process.execPath, [join(dir, 'child.js'), dbPath, String(clockMs), String(leaseMs)], {
    env: { ...process.env, NODE_OPTIONS: '', NODE_PATH: resolve(srcDir, '../../../node_modules') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const claimed = new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`child did not claim the job:\n${output}`)), 10_000);
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('claimed crash-1')) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`child exited before claiming:\n${output}`));
    });
  });
  return { process: child, claimed, exited };
}

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

describe('SqliteJobQueue groups', () => {
  it("runs a group's first jobs before the rest of another group's backlog, each group's in order", async () => {
    const jobs = new SqliteJobQueue(join(tempDir('jobs-fair-'), 'jobs.db'), { clock: new ManualClock() });
    try {
      await enqueueBacklogs(jobs, { ungrouped: true });
      expect(jobs.places.of('fair')).toEqual({ '': 1, 'Platform:a': 40, 'Platform:b': 2 });
      const order = runOneAtATime(jobs);
      await waitFor(() => order.length === 43, 'every job run');
      // b's jobs and the job without a group were enqueued after all of a's, and run as a's first and second do.
      expect(order.slice(0, 6)).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
      expect(order.filter((job) => job.startsWith('a'))).toEqual(Array.from({ length: 40 }, (_, i) => `a${i}`));
      // A dead job revived goes behind its group's jobs, a later delayed one included.
      await jobs.enqueue('fair', 'deliver', { job: 'a40' }, { id: 'a40', group: 'Platform:a', delayMs: 60_000 });
      expect(await jobs.retryDead('fair', 'a39')).toBe(true);
      expect(jobs.places.of('fair')['Platform:a']).toBe(42);
      await waitFor(() => order.length === 44, 'the revived job run');
      expect(order[43]).toBe('a39');
    } finally {
      await jobs.close();
    }
  });

  it("defers a run to the back of its group, behind another group's first jobs", async () => {
    const jobs = new SqliteJobQueue(join(tempDir('jobs-defer-'), 'jobs.db'), { clock: new ManualClock() });
    try {
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

  it("runs a group's first jobs before the rest of another group's backlog; counts jobs out at their end", async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const jobs = new BullmqJobQueue({ url: redis!.url, clock: new ManualClock(), prefix });
    const redisClient = new Redis(redis!.url);
    try {
      await enqueueBacklogs(jobs, { ungrouped: false });
      const backlogs = () => redisClient.hgetall(`${prefix}:fair:group-backlogs`);
      expect(await backlogs()).toEqual({ 'Platform:a': '40', 'Platform:b': '2' });
      const order = runOneAtATime(jobs);
      await waitFor(() => order.length === 42, 'every job run');
      // b's jobs were enqueued after all of a's, and run as a's first and second do.
      expect(order.slice(0, 5)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
      // Completed and dead jobs alike leave their group's backlog.
      await waitFor(async () => Object.keys(await backlogs()).length === 0, 'the backlogs counted out');
    } finally {
      redisClient.disconnect();
      await jobs.close();
    }
  });
});
