import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Nest's start-up chatter (one line per module and route) that hides what matters on start. */
const NOISY_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/**
 * The console logger with Nest's per-module and per-route start-up lines shown only at
 * `LOG_LEVEL=debug`, so the sandbox credentials and the listening address stand out.
 */
export class ServiceLogger extends ConsoleLogger {
  constructor(private readonly levels: LogLevel[]) {
    super({ logLevels: levels });
  }

  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && NOISY_CONTEXTS.has(context) && !this.levels.includes('debug')) return;
    super.log(message, ...(rest as [string?]));
  }
}
