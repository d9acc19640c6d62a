import type { INestApplicationContext } from '@nestjs/common';
import { createReadStream, existsSync } from 'node:fs';
import { BulkImportProcessor } from '#application/customers/bulk-import-processor.js';
import { BulkImports } from '#application/customers/bulk-imports.js';
import type { Infrastructure } from '#application/infrastructure.js';
import type { Actor } from '#application/tokens.js';
import { progressOf } from '#domain/customer/bulk-import.js';
import { DomainError } from '#domain/errors.js';
import { validateCreateCustomer } from '../customers/customer.dto.js';
import { importProgress } from '../customers/import-progress.js';
import { platformActor, platformOption, type CliCommand } from './command.js';
import { fields } from './format.js';

/** Customers: the bulk import. */
export const customerCommands: CliCommand[] = [
  {
    name: 'customers:import',
    synopsis: '--platform Platform:<uuid> FILE',
    description:
      'imports the customers of a CSV file (the format of POST /customers/bulk/csv) as a bulk import job\n' +
      'of that platform, run in this process; progress on stderr (exit 1 when no row created a customer)',
    options: platformOption,
    positionals: 1,
    async run(ctx) {
      const actor = await platformActor(ctx, 'customers:import');
      const [file] = ctx.positionals;
      const outcome = await importCustomers(ctx.app, ctx.infra, actor, file);
      return {
        data: outcome,
        exitCode: outcome.status === 'FAILED' ? 1 : 0,
        text: () =>
          [
            fields([
              ['job', outcome.jobId],
              ['status', outcome.status],
              ['rows', outcome.progress.total],
              ['created', outcome.progress.successful],
              ['failed', outcome.progress.failed],
            ]),
            ...outcome.errors.map((e) => `line ${e.line}: ${e.code}: ${e.message}`),
            ...(outcome.allErrors ? [`more errors: ${outcome.allErrors}`] : []),
          ].join('\n'),
      };
    },
  },
];

/** Runs a bulk import of `file` in this process (the same job a POST /customers/bulk/csv queues) with progress. */
async function importCustomers(app: INestApplicationContext, infra: Infrastructure, actor: Actor, file: string) {
  if (!existsSync(file)) throw new DomainError('not_found', 'FILE_NOT_FOUND', `no file ${file}`);
  let jobId: string;
  try {
    ({ jobId } = await app.get(BulkImports).submit(() => createReadStream(file), actor, { enqueue: false }));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError(error.kind, error.code, `${file} cannot be imported: ${error.message}`, error.details);
  }
  console.error(`customers:import: job ${jobId}`);
  const progress = importProgress();
  const processor = new BulkImportProcessor({
    eventStore: infra.eventStore,
    clocks: infra.clocks,
    validate: validateCreateCustomer,
  });
  const job = await processor.run(jobId, (p) => progress.update(p)).finally(() => progress.stop());
  return {
    jobId,
    status: job.status,
    progress: progressOf(job),
    errors: job.errorSample,
    ...(job.errorsTruncated ? { errorsTruncated: true, allErrors: `GET /customers/bulk/jobs/${jobId}` } : {}),
  };
}
