import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ApplicationModule } from '#application/application.module.js';
import { AuditQueries } from '#application/audit/audit-queries.js';
import { loadConfig } from '#config/config.js';
import { systemClock } from '#domain/clock.js';
import { randomIds } from '#domain/primitives.js';
import { createInfrastructure } from '../../host/src/infrastructure.js';
import { agentCommands } from './cli/agents.js';
import { UsageError, type CliCommand } from './cli/command.js';
import { cardCommands } from './cli/cards.js';
import { customerCommands } from './cli/customers.js';
import { listenCommands } from './cli/listen.js';
import { operationsCommands } from './cli/operations.js';
import { printResult, reportError } from './cli/output.js';
import { platformCommands } from './cli/platforms.js';
import { bankCommands, railCommands } from './cli/rails.js';
import { sandboxCommands } from './cli/sandbox.js';
import { transactionCommands } from './cli/transactions.js';
import { webhookCommands } from './cli/webhooks.js';

/** Every command, one file per area under cli/. */
const COMMANDS: CliCommand[] = [
  ...platformCommands,
  ...operationsCommands,
  ...customerCommands,
  ...cardCommands,
  ...transactionCommands,
  ...webhookCommands,
  ...listenCommands,
  ...sandboxCommands,
  ...railCommands,
  ...bankCommands,
  ...agentCommands,
];

const USAGE = `usage: npm run cli -- <command> [options] [--json]

commands:
${COMMANDS.map((c) => `  ${c.name} ${c.synopsis}`.trimEnd() + `\n${c.description.replace(/^/gm, '      ')}`).join('\n')}

--json (every command): the result as JSON on stdout and nothing else there; without it, readable text.
A failure exits non-zero with the error's code and message on stderr (with --json one JSON object in the API's
error shape): 1 for an error of the service (PLATFORM_NOT_FOUND, CUSTOMER_NOT_FOUND, FORBIDDEN, INVALID_INPUT, ...),
2 for a command line that cannot be run.
Platform-scoped commands act as the platform --platform names, through the same commands and queries as the API:
another platform's resources are not found.
Configuration comes from the same environment variables as the service (DATA_DIR, EVENT_STORE, ...).`;

/** The application the API runs on, plus the API's audit queries (the API module provides those). */
@Module({})
class CliModule {
  static register(deps: Parameters<typeof ApplicationModule.register>[0]): DynamicModule {
    return { module: CliModule, imports: [ApplicationModule.register(deps)], providers: [AuditQueries] };
  }
}

async function main(argv: string[]): Promise<number> {
  const [first, ...args] = argv;
  // `audit verify`: a command with a subcommand.
  const name = first === 'audit' && args[0] && !args[0].startsWith('-') ? `audit ${args[0]}` : first;
  const rest = name === first ? args : args.slice(1);
  if (!name || name === 'help' || name === '--help') {
    console.log(USAGE);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command ${name}`);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { json: { type: 'boolean', default: false }, ...command.options },
    strict: true,
    allowPositionals: true,
  });
  const wanted = command.positionals ?? 0;
  if (positionals.length !== wanted)
    throw new UsageError(
      positionals.length > wanted
        ? `unexpected argument ${positionals[positionals.length - 1]}`
        : `${name} needs ${command.synopsis}`,
    );
  // Other commands append to the log and return; the service's projector picks the events up.
  const loaded = loadConfig();
  const config = {
    ...loaded,
    readYourWritesTimeoutMs: command.readYourWrites ? loaded.readYourWritesTimeoutMs : 0,
    logLevel: 'error' as const,
  };
  const infra = await createInfrastructure(config, systemClock);
  const app = await NestFactory.createApplicationContext(
    CliModule.register({ config, infra, clock: systemClock, ids: randomIds }),
    { logger: ['fatal', 'error'] },
  );
  try {
    const result = await command.run({ app, infra, config, values, positionals });
    printResult(result, values.json === true);
    return result.exitCode ?? 0;
  } finally {
    await app.close();
    await infra.close();
  }
}

const argv = process.argv.slice(2);
main(argv).then(
  (status) => {
    process.exitCode = status;
  },
  // Exit at once: a failure half-way through start-up may leave handles open (stderr to a pipe is written already).
  (error: unknown) => process.exit(reportError(error, argv.includes('--json'), USAGE)),
);
