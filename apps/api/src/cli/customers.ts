import type { INestApplicationContext } from '@nestjs/common';
import { createReadStream, existsSync } from 'node:fs';
import { BulkImportProcessor } from '#application/customers/bulk-import-processor.js';
import { BulkImports } from '#application/customers/bulk-imports.js';
import type { Infrastructure } from '#application/infrastructure.js';
import { Queries } from '#application/queries/queries.js';
import type { Actor } from '#application/tokens.js';
import { progressOf } from '#domain/customers/bulk-import.js';
import { DomainError } from '#domain/errors.js';
import type { Doc } from '#read-models/read-model-store.js';
import { ListCustomersQuery, validateCreateCustomer } from '../customers/customer.dto.js';
import { importProgress } from '../customers/import-progress.js';
import { idParam } from '../http/id-pipe.js';
import { asRequest, kebab, platformActor, platformOption, type CliCommand, type OptionSpecs } from './command.js';
import { fields, pageFooter, table } from './format.js';

/** The query parameters of GET /customers, as options spelled in kebab case (`--platform-customer-id`). */
const LIST_PARAMETERS = [
  'platformCustomerId',
  'customerType',
  'createdAfter',
  'createdBefore',
  'updatedAfter',
  'updatedBefore',
  'region',
  'currency',
  'umaAddress',
  'limit',
  'cursor',
];
const listOptions: OptionSpecs = {
  ...Object.fromEntries(LIST_PARAMETERS.map((name) => [kebab(name), { type: 'string' as const }])),
  'is-including-deleted': { type: 'boolean' },
};

const customerTable = (customers: Record<string, unknown>[]) =>
  table(
    ['customer', 'platformCustomerId', 'type', 'kyc/kyb', 'email', 'umaAddress', 'created', 'deleted'],
    customers.map((c) => [
      c.id as string,
      c.platformCustomerId as string,
      c.customerType as string,
      (c.kycStatus ?? c.kybStatus) as string,
      c.email as string,
      c.umaAddress as string,
      c.createdAt as string,
      c.isDeleted ? 'yes' : '',
    ]),
  );

/** Customers: the bulk import, the list with the API's filters, and the console's search. */
export const customerCommands: CliCommand[] = [
  {
    name: 'customers:list',
    synopsis: '--platform Platform:<uuid> [--limit N] [--cursor C] [FILTERS]',
    description:
      'one page of the platform’s customers, newest first, as GET /customers answers it (the query validated\n' +
      'as the API validates it; limit 1-100, default 20). FILTERS are its query parameters in kebab case:\n' +
      '--platform-customer-id ID, --customer-type INDIVIDUAL|BUSINESS, --created-after/--created-before T,\n' +
      '--updated-after/--updated-before T (RFC 3339), --region CC, --currency CODE, --uma-address ADDRESS,\n' +
      '--is-including-deleted',
    options: { ...platformOption, ...listOptions },
    async run(ctx) {
      const actor = await platformActor(ctx, 'customers:list');
      const query: Record<string, unknown> = {};
      for (const name of LIST_PARAMETERS)
        if (ctx.values[kebab(name)] !== undefined) query[name] = ctx.values[kebab(name)];
      if (ctx.values['is-including-deleted']) query.isIncludingDeleted = 'true';
      const q = await asRequest(ListCustomersQuery, query, 'query');
      const page = await ctx.app.get(Queries).listCustomers(actor.platformId, q);
      return { data: page, text: () => `${customerTable(page.data)}\n\n${pageFooter(page)}` };
    },
  },
  {
    name: 'customers:search',
    synopsis: '--platform Platform:<uuid> TEXT',
    description:
      'the operations console’s customer search: a Customer:<uuid> id (CUSTOMER_NOT_FOUND unless it is the\n' +
      'platform’s), a UMA address ($…), an email (any case; every page of the platform’s customers) or a\n' +
      'platformCustomerId; deleted customers only by id',
    options: platformOption,
    positionals: 1,
    async run(ctx) {
      const actor = await platformActor(ctx, 'customers:search');
      const [term = ''] = ctx.positionals;
      const data = await searchCustomers(ctx.app.get(Queries), actor.platformId, term.trim());
      return { data: { data }, text: () => (data.length ? customerTable(data) : `no customer matches ${term}`) };
    },
  },
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

/** What the console's search finds for a term (apps/dashboard/public/ops.js), through the query service. */
async function searchCustomers(queries: Queries, platformId: string, term: string) {
  if (term.startsWith('Customer:')) {
    return [await queries.customer(platformId, idParam('Customer', 'customerId').transform(term))];
  }
  if (term.startsWith('$')) return (await queries.listCustomers(platformId, { umaAddress: term, limit: 100 })).data;
  if (!term.includes('@')) {
    return (await queries.listCustomers(platformId, { platformCustomerId: term, limit: 100 })).data;
  }
  // No email filter (emails compare in any case): every page of the platform's customers.
  const found: Doc[] = [];
  let cursor: string | undefined;
  do {
    const page = await queries.listCustomers(platformId, { limit: 1000, cursor });
    found.push(...page.data.filter((c) => String(c.email ?? '').toLowerCase() === term.toLowerCase()));
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return found;
}

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
    runner: infra.runner,
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
