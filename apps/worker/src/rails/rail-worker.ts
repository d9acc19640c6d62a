import { Logger } from '@nestjs/common';
import type { Infrastructure } from '#application/infrastructure.js';
import { FileRail } from '#application/payments/rails/file-rail.js';
import { PaymentProcess } from '#application/payments/transactions/payment-process.js';
import { DomainError } from '#domain/errors.js';
import { RAIL_QUEUE, type RailJob } from '#domain/payments/rails/bank-rails.js';
import type { Job } from '#jobs/job-queue.js';
import { IsoBankFiles } from '#rails/iso-bank-files.js';

export interface RunningRails {
  /** One pass over every rail now (what waits goes out, what arrived is taken). */
  runOnce(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The worker's bank rails: payments that reach PROCESSING on a production platform's rail are queued and written
 * out (the `bank-rails` queue), and every `RAILS_POLL_MS` each rail's inbox is read and its outbox written.
 */
export async function startRails(infra: Infrastructure): Promise<RunningRails> {
  const logger = new Logger('BankRails');
  const runner = infra.runner.for({ cache: { name: 'rails' } });
  const process = new PaymentProcess(runner, infra.clocks, infra.jobs);
  const rail = new FileRail(runner, infra.clocks, process, new IsoBankFiles(infra.config.rails.dir), infra.readModels);
  const worker = infra.jobs.process<RailJob>(
    RAIL_QUEUE,
    async (job: Job<RailJob>) => {
      try {
        await rail.submit(job.data.ref, job.data.platformId, infra.config.rails.pollMs === 0);
      } catch (error) {
        if (error instanceof DomainError) {
          logger.warn(`rail job ${job.id} ended without effect: ${error.code} ${error.message}`);
          return;
        }
        throw error;
      }
    },
    { concurrency: 4 },
  );
  let running: Promise<void> | undefined;
  let closed = false;
  // One pass at a time: a tick that finds one running waits for it instead of queueing another.
  const pass = (): Promise<void> => {
    running ??= rail
      .runOnce()
      .catch((error: unknown) => logger.error(`bank rails: ${String(error)}`))
      .finally(() => (running = undefined));
    return running;
  };
  const pollMs = infra.config.rails.pollMs;
  const timer = pollMs > 0 ? setInterval(() => void (closed || pass()), pollMs) : undefined;
  timer?.unref();
  return {
    runOnce: pass,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running;
      await worker.close();
    },
  };
}
