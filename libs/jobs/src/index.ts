import type { Clock } from '#domain/clock.js';
import type { JobQueue } from './job-queue.js';
import { SqliteJobQueue } from './sqlite/job-queue.js';

export * from './job-queue.js';
export type { BullmqJobQueueOptions } from './bullmq/job-queue.js';
export { SqliteJobQueue, type SqliteJobQueueOptions } from './sqlite/job-queue.js';

export type JobQueueConfig = ({ kind: 'sqlite'; path: string } | { kind: 'bullmq'; url: string }) & {
  clock: Clock;
  /** Errors inside workers and connections that the queue recovers from itself; console.error by default. */
  onError?: (error: unknown) => void;
};

/** The job queue selected by configuration (`JOBS=sqlite|bullmq`). */
export async function createJobQueue(config: JobQueueConfig): Promise<JobQueue> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteJobQueue(config.path, { clock: config.clock, onError: config.onError });
    case 'bullmq': {
      // Loaded only when configured (BullMQ and ioredis weigh tens of megabytes in every process that loads them).
      const { BullmqJobQueue } = await import('./bullmq/job-queue.js');
      const queue = new BullmqJobQueue({ url: config.url, clock: config.clock, onError: config.onError });
      try {
        await queue.ping();
      } catch (error) {
        await queue.close();
        throw error;
      }
      return queue;
    }
  }
}
