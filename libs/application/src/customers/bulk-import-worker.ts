import { Logger } from '@nestjs/common';
import { DeferredJobError, type Job, type Worker } from '#jobs/job-queue.js';
import type { BulkImportDoc } from '#read-models/projections/customers/bulk-import-projection.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Infrastructure } from '../infrastructure.js';
import { BulkImportProcessor, type CustomerBodyValidator } from './bulk-import-processor.js';
import { BULK_IMPORT_QUEUE, enqueueBulkImport, type BulkImportJob } from './bulk-imports.js';
import { ImportSlots } from './import-slots.js';

/** How often the worker looks for accepted imports whose job was never queued (the uploader died in between). */
const SWEEP_EVERY_MS = 60_000;
/** How long an import of a platform already running its share waits before it asks for a slot again. */
const DEFER_MS = 1_000;

export interface RunningBulkImports {
  close(): Promise<void>;
}

/**
 * The worker side of bulk imports: runs the import jobs (each on one worker at a time; a job whose
 * worker died is taken over when its queue lease runs out and resumes after the last recorded
 * batch), and queues again, at start and every minute, any unfinished import (the job id dedupes).
 */
export async function startBulkImports(
  infra: Infrastructure,
  validate: CustomerBodyValidator,
): Promise<RunningBulkImports> {
  const logger = new Logger('BulkImports');
  const processor = new BulkImportProcessor({
    eventStore: infra.eventStore,
    runner: infra.runner,
    clocks: infra.clocks,
    validate,
  });
  const { concurrency, perPlatform } = infra.config.bulkImports;
  const slots = new ImportSlots(concurrency, perPlatform);
  const worker: Worker = infra.jobs.process<BulkImportJob>(
    BULK_IMPORT_QUEUE,
    async (job: Job<BulkImportJob>) => {
      // A platform already running its share goes back to the queue without using an attempt, leaving the slot to
      // other platforms' imports.
      const release = slots.tryAcquire(job.data.platformId);
      if (!release) throw new DeferredJobError(DEFER_MS, `platform runs ${perPlatform} bulk imports already`);
      try {
        const state = await processor.run(job.data.jobId);
        logger.log(
          `bulk import ${job.data.jobId} ${state.status}: ${state.successful} created, ${state.failed} failed`,
        );
      } finally {
        release();
      }
    },
    { concurrency },
  );
  const sweep = async () => {
    try {
      for (const status of ['PENDING', 'PROCESSING']) {
        const unfinished = await infra.readModels.find<BulkImportDoc>(Collections.bulkImports, {
          filters: [{ field: 'status', op: 'eq', value: status }],
          sortBy: 'createdAt',
          sortOrder: 'asc',
          limit: 1000,
        });
        for (const doc of unfinished.data)
          await enqueueBulkImport(infra.jobs, { jobId: doc.id, platformId: doc.platformId });
      }
    } catch (error) {
      logger.warn(`could not look for unfinished bulk imports: ${String(error)}`);
    }
  };
  await sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await worker.close();
    },
  };
}
