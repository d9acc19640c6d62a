import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { transformFileSync } from '@swc/core';
import { ManualClock } from '#domain/clock.js';
import { sqliteModule } from '#sqlite/driver.js';
import { DeferredJobError } from '../job-queue.js';
import { waitFor } from '../job-queue.contract.js';
import { SqliteJobQueue } from './job-queue.js';
import { useTempDir } from '../../../../test/support/temp-dir.js';

/** libs/jobs/src, whose files the child processes load. */
const srcDir = fileURLToPath(new URL('..', import.meta.url));
const dir = useTempDir('jobs-');

describe('SqliteJobQueue across processes', () => {
  it('never runs one job in two queue instances at once', async () => {
    const path = join(dir(), 'jobs.db');
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

  it('enqueues, defers and completes jobs while another process commits to the file all the time', async () => {
    const path = join(dir(), 'jobs.db');
    const errors: unknown[] = [];
    const queue = new SqliteJobQueue(path, { clock: new ManualClock(), onError: (error) => errors.push(error) });
    const writer = spawnWriter(path);
    try {
      await writer.writing;
      const deferred = new Set<number>();
      const done = new Set<number>();
      queue.process<{ i: number }>(
        'busy',
        async ({ data: { i } }) => {
          // Every fifth job's first run finds its group at its limit: it is placed again, at the back of its group.
          if (i % 5 === 0 && !deferred.has(i)) throw (deferred.add(i), new DeferredJobError(0));
          done.add(i);
        },
        { concurrency: 4 },
      );
      // Each enqueue is its own transaction, which reads the group's place before it writes the job.
      for (let i = 0; i < 300; i += 1) await queue.enqueue('busy', 'deliver', { i }, { group: `Platform:${i % 3}` });
      await waitFor(() => done.size === 300, 'every job completed');
      expect(errors).toEqual([]);
      expect(deferred.size).toBe(60);
    } finally {
      writer.process.kill('SIGKILL');
      await queue.close();
    }
  });

  it("wakes a worker for another connection's enqueue at once, not at its next poll", async () => {
    const path = join(dir(), 'jobs.db');
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
    const path = join(dir(), 'jobs.db');
    const clock = new ManualClock();
    const queue = new SqliteJobQueue(path, { clock });
    try {
      const id = await queue.enqueue('crash', 'deliver', { to: 'Webhook:1' }, { id: 'crash-1', attempts: 3 });
      const child = spawnClaimingChild(dir(), path, clock.now().getTime(), 300);
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

/** A process that commits to the SQLite file at `path` through the queue's driver without pause, until killed. */
function spawnWriter(path: string) {
  const script = `import Database from '${sqliteModule}';
const db = new Database(process.argv[1]);
db.pragma('busy_timeout = 5000');
db.exec('CREATE TABLE IF NOT EXISTS noise (n INTEGER)');
const insert = db.prepare('INSERT INTO noise VALUES (?)');
let n = 0;
const write = () => { insert.run(n++); if (n === 1) process.stdout.write('writing\\n'); setImmediate(write); };
write();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const writing = new Promise<void>((done, fail) => {
    child.stdout.once('data', () => done());
    child.once('exit', (code) => fail(new Error(`the writer exited (${code})`)));
  });
  return { process: child, writing };
}

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
