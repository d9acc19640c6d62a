import { Inject, Injectable } from '@nestjs/common';
import { bulkImportDecider } from '#domain/customers/bulk-import.js';
import { publicId, streams } from '#domain/primitives.js';
import type { JobQueue } from '#jobs/job-queue.js';
import type { AppConfig } from '#config/config.js';
import { CommandContext } from '../command-context.js';
import { APP_CONFIG, JOB_QUEUE, type Actor } from '../tokens.js';
import { inspectCsv, rowChunks, type OpenFile } from './bulk-import-files.js';
import { ImportSlots } from './import-slots.js';
import { effectId } from '../idempotency/effect-ids.js';

/** The queue of bulk customer imports, run by the worker (each import is one job). */
export const BULK_IMPORT_QUEUE = 'bulk-imports';
const RUN_JOB = 'run';

/** An import interrupted by a transient failure resumes where it stopped; its retries are on the queue clock. */
const RETRIES = { attempts: 50, backoff: { type: 'exponential' as const, delayMs: 1_000, maxDelayMs: 300_000 } };

export interface BulkImportJob {
  jobId: string;
  platformId: string;
}

/**
 * Queues an import's job. The job id dedupes: the upload (at once) and the worker's sweep of
 * unfinished imports (after a crash between the two) may both ask.
 */
export function enqueueBulkImport(jobs: JobQueue, job: BulkImportJob): Promise<string> {
  return jobs.enqueue(BULK_IMPORT_QUEUE, RUN_JOB, job, {
    id: `bulk-import:${job.jobId}`,
    group: job.platformId,
    ...RETRIES,
  });
}

/**
 * Turns an uploaded CSV file into a bulk import job: the file is checked first (header, CSV
 * syntax, row count) so that a refused file writes nothing, then its rows are appended to the
 * import's stream chunk by chunk as they are read again, the import is accepted with its total,
 * and its job is queued.
 */
@Injectable()
export class BulkImports {
  /** Uploads being checked and stored at once (`bulkImports` in the configuration); the others wait their turn. */
  private readonly slots: ImportSlots;

  constructor(
    private readonly ctx: CommandContext,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.slots = new ImportSlots(config.bulkImports.concurrency, config.bulkImports.perPlatform);
  }

  /**
   * Checks the file and creates its import; `open` is called twice. Answers the public API's 202
   * body. `enqueue: false` when the caller runs the job itself (the CLI): the workers' sweep still
   * finishes it should the caller die.
   */
  async submit(open: OpenFile, actor: Actor, options: { enqueue?: boolean } = {}) {
    const release = await this.slots.acquire(actor.platformId);
    try {
      return await this.store(open, actor, options);
    } finally {
      release();
    }
  }

  private async store(open: OpenFile, actor: Actor, options: { enqueue?: boolean }) {
    const { columns } = await inspectCsv(open);
    const jobId = publicId('Job', effectId(actor, this.ctx.ids));
    const stream = streams.bulkImport(jobId);
    const quiet = { metadata: { ...actor }, answersAfter: 'append' as const };
    const now = async () => (await this.ctx.now(actor.platformId)).toISOString();
    const requestedBy = actor.actor;
    const create = { type: 'CreateImport' as const, jobId, platformId: actor.platformId, columns, requestedBy };
    await this.ctx.runner.run(stream, bulkImportDecider, { ...create, now: await now() }, quiet);
    for await (const rows of rowChunks(open))
      await this.ctx.runner.run(stream, bulkImportDecider, { type: 'AddRows', rows }, quiet);
    // Waits for the read models: the job can be read as soon as its id is answered.
    await this.ctx.runner.run(
      stream,
      bulkImportDecider,
      { type: 'AcceptImport', now: await now() },
      { metadata: { ...actor } },
    );
    if (options.enqueue !== false) await enqueueBulkImport(this.jobs, { jobId, platformId: actor.platformId });
    return { jobId, status: 'PENDING' as const };
  }
}
