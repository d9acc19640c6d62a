import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { createReadStream, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ApplicationModule } from '#application/application.module.js';
import { CommandRunner } from '#application/command-runner.js';
import { BulkImportProcessor } from '#application/customers/bulk-import-processor.js';
import { BulkImports } from '#application/customers/bulk-imports.js';
import type { Infrastructure } from '#application/infrastructure.js';
import { createInfrastructure } from '../../host/src/infrastructure.js';
import {
  CreateApiTokenCommand,
  CreatePlatformCommand,
  type IssuedToken,
} from '#application/platforms/platform-commands.js';
import { ConfigError, loadConfig } from '#config/config.js';
import { systemClock } from '#domain/clock.js';
import { progressOf } from '#domain/customer/bulk-import.js';
import { DomainError } from '#domain/errors.js';
import { isPublicId, randomIds, streams } from '#domain/ids.js';
import { platformDecider } from '#domain/platform/platform.js';
import { createScratchReadModelStore } from '#read-models/index.js';
import { allProjections } from '#read-models/projections/index.js';
import { verifyAudit } from '#application/audit/audit-verify.js';
import { verifyProgress } from './audit/verify-progress.js';
import { importProgress } from './customers/import-progress.js';
import { validateCreateCustomer } from './customers/customer.dto.js';

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  platform:create --name NAME [--sandbox] [--uma-domain DOMAIN]
      creates a platform with settlement accounts and its first API token (secret printed once)
  token:create --platform Platform:<uuid> [--name NAME]
      creates another API token for a platform (secret printed once)
  read-models:rebuild [--projection NAME ...]
      drops the read models (all, or the named projections) and replays the event log from position 0;
      safe while workers run: it takes their projector leases (their later writes are refused) and
      hands them back when done
  platforms:list
      lists platforms known to the read models
  customers:import --platform Platform:<uuid> FILE
      imports the customers of a CSV file (the format of POST /customers/bulk/csv) as a bulk import job
      of that platform, run in this process; progress on stderr, the job's outcome as JSON on stdout
      (exit 1 when no row created a customer)
  audit verify
      replays the whole log into scratch read models and compares them with the live ones (a digest per
      collection, then the first differing document), and proves the ledger invariants; exits 1 naming
      every finding (progress on stderr)

Configuration comes from the same environment variables as the service (DATA_DIR, EVENT_STORE, ...).`;

class UsageError extends Error {}
/** A command that could not do its work (exit 1, no usage text). */
class CommandError extends Error {}

async function main(argv: string[]) {
  const [first, ...args] = argv;
  // `audit verify`: a command with a subcommand.
  const command = first === 'audit' && args[0] && !args[0].startsWith('-') ? `audit ${args[0]}` : first;
  const rest = command === first ? args : args.slice(1);
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      'uma-domain': { type: 'string' },
      platform: { type: 'string' },
      projection: { type: 'string', multiple: true },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length > (command === 'customers:import' ? 1 : 0))
    throw new UsageError(`unexpected argument ${positionals[positionals.length - 1]}`);
  // Commands append to the log and return; the service's projector picks the events up.
  const config = { ...loadConfig(), readYourWritesTimeoutMs: 0, logLevel: 'error' as const };
  const clock = systemClock;
  const infra = await createInfrastructure(config, clock);
  const ctx = await NestFactory.createApplicationContext(
    ApplicationModule.register({ config, infra, clock, ids: randomIds }),
    { logger: ['fatal', 'error'] },
  );
  try {
    const commands = ctx.get(CommandBus);
    switch (command) {
      case 'platform:create': {
        if (!values.name) throw new UsageError('platform:create needs --name');
        const created: { platformId: string; token: IssuedToken } = await commands.execute(
          new CreatePlatformCommand(
            {
              name: values.name,
              sandbox: values.sandbox ?? false,
              umaDomain: values['uma-domain'] ?? config.umaDomain,
            },
            'cli',
          ),
        );
        print({ platformId: created.platformId, tokenId: created.token.id, clientSecret: created.token.clientSecret });
        break;
      }
      case 'token:create': {
        if (!values.platform || !isPublicId('Platform', values.platform))
          throw new UsageError('token:create needs --platform Platform:<uuid>');
        const token: IssuedToken = await commands.execute(
          new CreateApiTokenCommand(
            { name: values.name ?? 'cli' },
            { platformId: values.platform, actor: 'cli', correlationId: randomIds.uuid() },
          ),
        );
        print({ platformId: values.platform, tokenId: token.id, clientSecret: token.clientSecret });
        break;
      }
      case 'read-models:rebuild': {
        const names = values.projection ?? allProjections.map((p) => p.name);
        const unknown = names.filter((n) => !allProjections.some((p) => p.name === n));
        if (unknown.length)
          throw new UsageError(
            `unknown projection(s): ${unknown.join(', ')}; known: ${allProjections.map((p) => p.name).join(', ')}`,
          );
        const started = Date.now();
        await infra.projections.rebuild(names);
        await infra.projections.stop();
        print({ rebuilt: names, position: infra.projections.position.toString(), ms: Date.now() - started });
        break;
      }
      case 'audit verify': {
        const progress = verifyProgress();
        const report = await verifyAudit({
          events: infra.eventStore,
          live: infra.readModels,
          projections: allProjections,
          scratch: createScratchReadModelStore,
          progress,
        }).finally(() => progress.stop());
        print({ ok: report.findings.length === 0, ...report });
        for (const finding of report.findings) console.error(`finding: ${finding}`);
        if (report.findings.length) process.exitCode = 1;
        break;
      }
      case 'customers:import': {
        const [file] = positionals;
        if (!values.platform || !isPublicId('Platform', values.platform) || !file)
          throw new UsageError('customers:import needs --platform Platform:<uuid> and a FILE');
        const outcome = await importCustomers(ctx, infra, values.platform, file);
        print(outcome);
        if (outcome.status === 'FAILED') process.exitCode = 1;
        break;
      }
      case 'platforms:list': {
        const page = await infra.readModels.find('platforms', { limit: 1000, sortBy: 'createdAt', sortOrder: 'asc' });
        print(page.data);
        break;
      }
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } finally {
    await ctx.close();
    await infra.close();
  }
}

/** Runs a bulk import of `file` in this process (the same job a POST /customers/bulk/csv queues) with progress. */
async function importCustomers(ctx: INestApplicationContext, infra: Infrastructure, platformId: string, file: string) {
  const { state: platform } = await ctx.get(CommandRunner).load(streams.platform(platformId), platformDecider);
  if (!platform.exists) throw new CommandError(`no platform ${platformId}`);
  if (!existsSync(file)) throw new CommandError(`no file ${file}`);
  const actor = { platformId, actor: 'cli', correlationId: randomIds.uuid() };
  let jobId: string;
  try {
    ({ jobId } = await ctx.get(BulkImports).submit(() => createReadStream(file), actor, { enqueue: false }));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const reasons = error.details?.errors?.map((e) => e.message) ?? [];
    throw new CommandError([`${file} cannot be imported: ${error.message}`, ...reasons.slice(1)].join('\n  '));
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

function print(value: unknown) {
  console.log(JSON.stringify(value, null, 2));
}

main(process.argv.slice(2)).catch((error) => {
  if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')
  ) {
    console.error(`error: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof CommandError) {
    console.error(`error: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
