import { Logger } from '@nestjs/common';
import { DomainError } from '#domain/errors.js';
import { TIMER_QUEUE, type TimerJob } from '#domain/timers/timers.js';
import type { EventStore } from '#event-store/event-store.js';
import type { Job, JobQueue } from '#jobs/job-queue.js';
import { CommandRunner, type ProjectionWaiter } from '../command-runner.js';
import type { PlatformClocks } from '../platforms/platform-clocks.js';
import { PaymentProcess } from '../transactions/payment-process.js';

export interface TimerDeps {
  eventStore: EventStore;
  jobs: JobQueue;
  clocks: PlatformClocks;
  /** The local projector, so a timer's writes are visible to reads once it finishes. */
  projections?: ProjectionWaiter;
  readYourWritesTimeoutMs?: number;
  concurrency?: number;
}

export interface RunningTimers {
  close(): Promise<void>;
}

/**
 * Handles one timer job; business refusals (the payment moved on) end the job, anything else
 * retries. A payment busy with another step gets that step finished first, then this one is tried.
 */
export async function handleTimer(
  process: PaymentProcess,
  job: TimerJob,
  jobId: string,
  clocks: PlatformClocks,
): Promise<void> {
  try {
    await runTimer(process, job, jobId, clocks);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'PAYMENT_BUSY')) throw error;
    const ref = job.kind === 'QUOTE_DEADLINE' ? { kind: 'quote' as const, id: job.quoteId } : job.ref;
    await process.finishActiveStep(ref, { platformId: job.platformId, actor: 'system:timers', correlationId: jobId });
    await runTimer(process, job, jobId, clocks);
  }
}

async function runTimer(process: PaymentProcess, job: TimerJob, jobId: string, clocks: PlatformClocks): Promise<void> {
  const metadata = { platformId: job.platformId, actor: 'system:timers', correlationId: jobId };
  switch (job.kind) {
    case 'QUOTE_DEADLINE': {
      const ref = { kind: 'quote' as const, id: job.quoteId };
      const { status } = await process.load(ref);
      if (status === 'PENDING') {
        // Due on the platform's clock, read now: a job brought forward early is retried (with backoff) until then.
        await process.expireIfDue(ref, await clocks.now(job.platformId), metadata);
      } else if (status === 'PROCESSING') {
        await process.recover(ref, metadata);
      }
      return;
    }
    case 'PAYMENT_STEP':
      await process.applyStep(job.ref, job.step, metadata);
      return;
    case 'PAYMENT_RECOVERY':
      await process.recover(job.ref, metadata);
      return;
  }
}

/**
 * The worker's timer processor: runs the `timers` queue (quote deadlines, delayed sandbox
 * outcomes, recovery), each on the clock of the platform it belongs to.
 */
export async function startTimerProcessor(deps: TimerDeps): Promise<RunningTimers> {
  const logger = new Logger('Timers');
  const runner = new CommandRunner(deps.eventStore, deps.projections, {
    readYourWritesTimeoutMs: deps.readYourWritesTimeoutMs,
  });
  const process = new PaymentProcess(runner, deps.clocks, deps.jobs);
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
