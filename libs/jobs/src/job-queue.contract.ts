import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { DeferredJobError, UnrecoverableJobError, type Job, type JobQueue } from './job-queue.js';

/** Polls a condition at short intervals; fails after a bounded real-time deadline. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Gate {
  open(): void;
  opened: Promise<void>;
}

function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * The behaviour every JobQueue adapter must show. Time moves only on the ManualClock handed to
 * the factory; real time is used only to wait (bounded) for asynchronous work.
 */
export function jobQueueContract(name: string, factory: (clock: ManualClock) => Promise<JobQueue>): void {
  describe(`JobQueue contract: ${name}`, () => {
    const open: JobQueue[] = [];

    afterEach(async () => {
      await Promise.all(open.splice(0).map((queue) => queue.close()));
    });

    async function setup() {
      const clock = new ManualClock();
      const jobs = await factory(clock);
      open.push(jobs);
      const queue = `q-${randomUUID().slice(0, 8)}`;
      const state = async (id: string) => (await jobs.getJob(queue, id))?.state;
      const until = (id: string, expected: string) =>
        waitFor(async () => (await state(id)) === expected, `${id} to be ${expected}`);
      /**
       * Enqueues a job and waits for it to complete: with one handler at a time, everything that
       * was runnable before it has been looked at by the worker.
       */
      const sentinel = async () => {
        const id = await jobs.enqueue(queue, 'sentinel', null);
        await until(id, 'completed');
      };
      /** Processes the queue, keeping `pick` of every job but the sentinels, in the order they ran. */
      const collect = <T>(pick: (job: Job<unknown>) => T): T[] => {
        const seen: T[] = [];
        jobs.process(queue, async (job) => {
          if (job.name !== 'sentinel') seen.push(pick(job));
        });
        return seen;
      };
      /** A delayed job has not run (`seen` is empty) until the queue clock moves `ms` on: then it is due and runs. */
      const runsOnlyAfter = async (id: string, seen: string[], ms: number) => {
        await sentinel();
        expect(seen).toEqual([]);
        expect(await state(id)).toBe('delayed');
        clock.advance(ms);
        expect(await jobs.promoteDue()).toBe(1);
        await until(id, 'completed');
        expect(seen).toEqual([id]);
      };
      /** Processes the queue, failing every job but the sentinels with `error()`; answers how many runs failed. */
      const failing = (error: () => Error) => {
        let runs = 0;
        jobs.process(queue, async (job) => {
          if (job.name === 'sentinel') return;
          runs += 1;
          throw error();
        });
        return () => runs;
      };
      return { clock, jobs, queue, state, until, sentinel, collect, runsOnlyAfter, failing };
    }

    it('runs an enqueued job once', async () => {
      const { jobs, queue, until, sentinel, collect } = await setup();
      const seen = collect((job) => job);
      const id = await jobs.enqueue(queue, 'deliver', { amount: 125, to: 'Webhook:1' });
      await until(id, 'completed');
      await sentinel();
      expect(seen).toHaveLength(1);
      expect(seen[0]).toEqual({
        id,
        queue,
        name: 'deliver',
        data: { amount: 125, to: 'Webhook:1' },
        attemptsMade: 0,
        maxAttempts: 1,
      });
      expect(await jobs.getJob(queue, id)).toMatchObject({
        id,
        queue,
        name: 'deliver',
        state: 'completed',
        data: { amount: 125, to: 'Webhook:1' },
      });
      expect(await jobs.getJob(queue, 'no-such-job')).toBeUndefined();
    });

    it('dedupes by id while pending and after completion', async () => {
      const { jobs, queue, until, sentinel, collect } = await setup();
      const id = 'Webhook:7f6c:attempt:1';
      expect(await jobs.enqueue(queue, 'deliver', { n: 1 }, { id })).toBe(id);
      expect(await jobs.enqueue(queue, 'deliver', { n: 2 }, { id })).toBe(id);
      const seen = collect((job) => job.data);
      await until(id, 'completed');
      expect(await jobs.enqueue(queue, 'deliver', { n: 3 }, { id })).toBe(id);
      await sentinel();
      expect(seen).toEqual([{ n: 1 }]);
      expect(await jobs.getJob(queue, id)).toMatchObject({ id, state: 'completed', data: { n: 1 } });
    });

    it('runs a delayed job only once the queue clock has passed its due time', async () => {
      const { clock, jobs, queue, state, collect, runsOnlyAfter } = await setup();
      const seen = collect((job) => job.id);
      const id = await jobs.enqueue(queue, 'timer', { expires: 'Card:1' }, { id: 'expire-1', delayMs: 60_000 });
      expect(await state(id)).toBe('delayed');

      clock.advance(59_999);
      expect(await jobs.promoteDue()).toBe(0);
      await runsOnlyAfter(id, seen, 1);
    });

    it("brings one clock group's delayed jobs forward and leaves other groups alone", async () => {
      const { jobs, queue, state, until, sentinel, collect } = await setup();
      const seen = collect((job) => job.id);
      const soon = await jobs.enqueue(queue, 'timer', {}, { id: 'b-soon', delayMs: 60_000, group: 'Platform:b' });
      const later = await jobs.enqueue(
        queue,
        'timer',
        {},
        { id: 'b-later', delayMs: 3 * 86_400_000, group: 'Platform:b' },
      );
      const other = await jobs.enqueue(queue, 'timer', {}, { id: 'a-soon', delayMs: 60_000, group: 'Platform:a' });
      const ungrouped = await jobs.enqueue(queue, 'timer', {}, { id: 'none', delayMs: 60_000 });

      expect(await jobs.advanceGroup('Platform:b', 2 * 86_400_000)).toBe(1);
      await until(soon, 'completed');
      await sentinel();
      expect(seen).toEqual([soon]);
      for (const id of [later, other, ungrouped]) expect(await state(id)).toBe('delayed');

      // The remaining day of the later job is still measured: another day makes it due.
      expect(await jobs.advanceGroup('Platform:b', 86_400_000 - 60_000)).toBe(0);
      expect(await state(later)).toBe('delayed');
      expect(await jobs.advanceGroup('Platform:b', 60_000)).toBe(1);
      await until(later, 'completed');
      expect(await jobs.advanceGroup('Platform:c', 86_400_000)).toBe(0);
      for (const id of [other, ungrouped]) expect(await state(id)).toBe('delayed');
    });

    it('measures delays on the queue clock, not on real time', async () => {
      const { jobs, queue, collect, runsOnlyAfter } = await setup();
      const seen = collect((job) => job.id);
      const id = await jobs.enqueue(queue, 'timer', {}, { delayMs: 50 });
      // Real time passes beyond the delay while the queue clock stands still.
      await new Promise((resolve) => setTimeout(resolve, 250));
      await runsOnlyAfter(id, seen, 50);
    });

    it('retries with exponential backoff on the queue clock, capped, then dead-letters', async () => {
      const { clock, jobs, queue, state, until } = await setup();
      const attempts: number[] = [];
      jobs.process(queue, async (job) => {
        attempts.push(job.attemptsMade);
        throw new Error(`endpoint answered 503 (attempt ${job.attemptsMade + 1})`);
      });
      const id = await jobs.enqueue(
        queue,
        'deliver',
        {},
        { attempts: 4, backoff: { type: 'exponential', delayMs: 60_000, maxDelayMs: 90_000 } },
      );
      await waitFor(async () => (await jobs.getJob(queue, id))?.attemptsMade === 1, 'first failure recorded');
      expect(await jobs.getJob(queue, id)).toMatchObject({
        state: 'delayed',
        attemptsMade: 1,
        maxAttempts: 4,
        lastError: 'endpoint answered 503 (attempt 1)',
      });

      // 60 s, then 120 s capped to 90 s, then 240 s capped to 90 s.
      for (const [index, delay] of [60_000, 90_000, 90_000].entries()) {
        clock.advance(delay - 1);
        expect(await jobs.promoteDue()).toBe(0);
        expect(await state(id)).toBe('delayed');
        expect(attempts).toHaveLength(index + 1);
        clock.advance(1);
        expect(await jobs.promoteDue()).toBe(1);
        await waitFor(
          async () => (await jobs.getJob(queue, id))?.attemptsMade === index + 2,
          `failure ${index + 2} recorded`,
        );
      }
      await until(id, 'dead');
      expect(attempts).toEqual([0, 1, 2, 3]);
      expect(await jobs.getJob(queue, id)).toMatchObject({
        state: 'dead',
        attemptsMade: 4,
        lastError: 'endpoint answered 503 (attempt 4)',
      });
    });

    it('holds a deferred job for its delay in real time, then runs it again without using an attempt', async () => {
      const { clock, jobs, queue, until } = await setup();
      const runs: { attemptsMade: number; at: number }[] = [];
      let deferredAt = 0;
      jobs.process(queue, async (job) => {
        runs.push({ attemptsMade: job.attemptsMade, at: Date.now() });
        if (runs.length === 1) throw new Error('endpoint answered 503');
        if (runs.length === 2) {
          deferredAt = Date.now();
          throw new DeferredJobError(300);
        }
      });
      const retried = { attempts: 3, backoff: { type: 'fixed', delayMs: 60_000 }, group: 'Platform:a' } as const;
      const id = await jobs.enqueue(queue, 'deliver', {}, retried);
      await waitFor(async () => (await jobs.getJob(queue, id))?.attemptsMade === 1, 'first failure recorded');
      clock.advance(60_000);
      expect(await jobs.promoteDue()).toBe(1);
      await waitFor(() => runs.length === 2, 'the second run');
      await until(id, 'delayed');
      expect(await jobs.getJob(queue, id)).toMatchObject({
        state: 'delayed',
        attemptsMade: 1,
        lastError: 'endpoint answered 503',
      });
      expect(await jobs.depth(queue)).toMatchObject({ delayed: 1, active: 0 });
      // Held in real time: moving the queue clock or its group's clock and promoting do not bring it forward.
      clock.advance(86_400_000);
      await jobs.advanceGroup('Platform:a', 86_400_000);
      await jobs.promoteDue();
      await until(id, 'completed');
      expect(runs.map((run) => run.attemptsMade)).toEqual([0, 1, 1]);
      expect(runs[2].at - deferredAt).toBeGreaterThanOrEqual(300);
      expect(await jobs.getJob(queue, id)).toMatchObject({ state: 'completed', attemptsMade: 2, maxAttempts: 3 });
    });

    it('dead-letters a job after its last attempt', async () => {
      const { jobs, queue, until, sentinel, failing } = await setup();
      const runs = failing(() => new Error('connection refused'));
      const id = await jobs.enqueue(queue, 'deliver', { to: 'a' }, { id: 'd-1', attempts: 2 });
      await until(id, 'dead');
      await sentinel();
      expect(runs()).toBe(2);
      expect(await jobs.getJob(queue, id)).toMatchObject({
        id,
        state: 'dead',
        attemptsMade: 2,
        maxAttempts: 2,
        lastError: 'connection refused',
        data: { to: 'a' },
      });
      const dead = await jobs.deadLetters(queue);
      expect(dead.map((job) => job.id)).toEqual([id]);
      expect(dead[0]).toMatchObject({ state: 'dead', name: 'deliver', lastError: 'connection refused' });
    });

    it('dead-letters at once on UnrecoverableJobError', async () => {
      const { jobs, queue, until, sentinel, failing } = await setup();
      const runs = failing(() => new UnrecoverableJobError('webhook endpoint not configured'));
      const id = await jobs.enqueue(queue, 'deliver', {}, { attempts: 5, backoff: { type: 'fixed', delayMs: 1000 } });
      await until(id, 'dead');
      await sentinel();
      expect(runs()).toBe(1);
      expect(await jobs.getJob(queue, id)).toMatchObject({
        state: 'dead',
        attemptsMade: 1,
        maxAttempts: 5,
        lastError: 'webhook endpoint not configured',
      });
    });

    it('counts waiting, delayed and dead jobs, all of them or one group’s', async () => {
      const { jobs, queue, until } = await setup();
      await jobs.enqueue(queue, 'later', {}, { delayMs: 60_000, group: 'platform-a' });
      await jobs.enqueue(queue, 'later', {}, { delayMs: 60_000, group: 'platform-b' });
      await jobs.enqueue(queue, 'now', {}, { group: 'platform-a' });
      await jobs.enqueue(queue, 'now', {}, { group: 'platform-a' });
      expect(await jobs.depth(queue)).toEqual({ waiting: 2, delayed: 2, active: 0, dead: 0 });
      expect(await jobs.depth(queue, 'platform-a')).toEqual({ waiting: 2, delayed: 1, active: 0, dead: 0 });
      expect(await jobs.depth(queue, 'platform-b')).toEqual({ waiting: 0, delayed: 1, active: 0, dead: 0 });
      jobs.process(queue, async (job) => {
        if (job.name === 'now') throw new UnrecoverableJobError('refused');
      });
      const dead = await jobs.enqueue(queue, 'now', {}, { id: 'dead-b', group: 'platform-b' });
      await until(dead, 'dead');
      await waitFor(async () => {
        const { waiting, active } = await jobs.depth(queue);
        return waiting + active === 0;
      }, 'the runnable jobs to end');
      expect(await jobs.depth(queue, 'platform-a')).toEqual({ waiting: 0, delayed: 1, active: 0, dead: 2 });
      expect(await jobs.depth(queue, 'platform-b')).toEqual({ waiting: 0, delayed: 1, active: 0, dead: 1 });
      expect(await jobs.depth(`${queue}-empty`)).toEqual({ waiting: 0, delayed: 0, active: 0, dead: 0 });
    });

    it('retryDead puts a dead job back with a fresh attempt budget', async () => {
      const { jobs, queue, until } = await setup();
      let failing = true;
      const seen: number[] = [];
      jobs.process(queue, async (job) => {
        seen.push(job.attemptsMade);
        if (failing) throw new Error('down');
      });
      const id = await jobs.enqueue(queue, 'deliver', { n: 1 }, { id: 'r-1', attempts: 2 });
      await until(id, 'dead');
      expect(await jobs.retryDead(queue, 'unknown')).toBe(false);

      failing = false;
      expect(await jobs.retryDead(queue, id)).toBe(true);
      await until(id, 'completed');
      expect(seen).toEqual([0, 1, 0]);
      expect(await jobs.deadLetters(queue)).toEqual([]);
      expect(await jobs.retryDead(queue, id)).toBe(false);
      const info = await jobs.getJob(queue, id);
      expect(info).toMatchObject({ state: 'completed', attemptsMade: 1, maxAttempts: 2 });
      expect(info?.lastError).toBeUndefined();
    });

    it('never runs more handlers at once than the concurrency allows, and runs every job', async () => {
      const { jobs, queue } = await setup();
      const gates: Gate[] = [];
      let running = 0;
      let maxRunning = 0;
      let done = 0;
      jobs.process(
        queue,
        async () => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          const g = gate();
          gates.push(g);
          await g.opened;
          running -= 1;
          done += 1;
        },
        { concurrency: 3 },
      );
      const total = 9;
      try {
        for (let i = 0; i < total; i += 1) await jobs.enqueue(queue, 'deliver', { i });
        for (let released = 0; released < total; released += 1) {
          const expected = Math.min(3, total - released);
          await waitFor(
            () => running === expected && gates.length === released + expected,
            `${expected} handlers running`,
          );
          gates[released]!.open();
        }
        await waitFor(() => done === total, 'all jobs done');
        expect(maxRunning).toBe(3);
      } finally {
        // Let close() finish even when an expectation failed.
        for (const g of gates) g.open();
      }
    });

    it('close waits for running handlers', async () => {
      const { jobs, queue } = await setup();
      const release = gate();
      let started = false;
      let finished = false;
      jobs.process(queue, async () => {
        started = true;
        await release.opened;
        finished = true;
      });
      await jobs.enqueue(queue, 'deliver', {});
      try {
        await waitFor(() => started, 'handler started');
        let closed = false;
        const closing = jobs.close().then(() => {
          closed = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(closed).toBe(false);
        expect(finished).toBe(false);
        release.open();
        await closing;
        expect(finished).toBe(true);
      } finally {
        release.open();
      }
    });
  });
}
