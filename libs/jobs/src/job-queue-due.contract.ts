import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import type { JobQueue } from './job-queue.js';
import { waitFor } from './job-queue.contract.js';

/** What every JobQueue adapter must tell of how far behind its workers are (`oldestDue`). */
export function jobQueueDueContract(name: string, factory: (clock: ManualClock) => Promise<JobQueue>): void {
  describe(`JobQueue contract, oldest due job: ${name}`, () => {
    const open: JobQueue[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((queue) => queue.close()));
    });

    it('tells when the longest-waiting runnable job became due, on the queue clock', async () => {
      const clock = new ManualClock();
      const jobs = await factory(clock);
      open.push(jobs);
      const queue = `q-${randomUUID().slice(0, 8)}`;
      expect(await jobs.oldestDue(queue)).toBeUndefined();
      const first = clock.now();
      await jobs.enqueue(queue, 'now', {});
      clock.advance(5_000);
      await jobs.enqueue(queue, 'now', {});
      await jobs.enqueue(queue, 'later', {}, { delayMs: 60_000 });
      expect(await jobs.oldestDue(queue)).toEqual(first);
      expect(await jobs.oldestDue(`${queue}-empty`)).toBeUndefined();
      jobs.process(queue, async () => undefined);
      await waitFor(async () => (await jobs.depth(queue)).waiting === 0, 'the runnable jobs to run');
      // The delayed job is not due yet: nothing waits.
      expect(await jobs.oldestDue(queue)).toBeUndefined();
    });
  });
}
