import { Logger } from '@nestjs/common';
import type { CommandRunner } from '#application/command-runner.js';
import type { PlatformClocks } from '#application/command-context.js';
import { handleTimer } from '#application/payments/timers/timer-handler.js';
import { PaymentProcess } from '#application/payments/transactions/payment-process.js';
import { DomainError } from '#domain/errors.js';
import { TIMER_QUEUE, type TimerJob } from '#domain/payments/transactions/payment-plan.js';
import type { EventStore } from '#event-store/event-store.js';
import type { Job, JobQueue } from '#jobs/job-queue.js';

export interface TimerDeps {
  eventStore: EventStore;
  jobs: JobQueue;
  clocks: PlatformClocks;
  /** The process's runner: a timer's writes are visible to reads once it finishes (its commands wait for them). */
  runner: CommandRunner;
  concurrency?: number;
}

export interface RunningTimers {
  close(): Promise<void>;
}

/**
 * The worker's timer processor: runs the `timers` queue (quote deadlines, delayed sandbox
 * outcomes, recovery), each on the clock of the platform it belongs to.
 */
export async function startTimerProcessor(deps: TimerDeps): Promise<RunningTimers> {
  const logger = new Logger('Timers');
  // The timers' streams are cached apart from the requests' streams.
  const process = new PaymentProcess(deps.runner.for({ cache: { name: 'timers' } }), deps.clocks, deps.jobs);
  const worker = deps.jobs.process<TimerJob>(
    TIMER_QUEUE,
    async (job: Job<TimerJob>) => {
      try {
        await handleTimer(process, job.data, job.id, deps.clocks);
      } catch (error) {
        if (error instanceof DomainError) {
          logger.warn(`timer ${job.id} ended without effect: ${error.code} ${error.message}`);
          return;
        }
        throw error;
      }
    },
    { concurrency: deps.concurrency ?? 8 },
  );
  return {
    async close() {
      await worker.close();
    },
  };
}
