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

/**
 * The addresses `npm start` prints last, for a person to open: the API's base, its reference and guides, and the
 * operations console. `baseUrl` is the local form of the bound address (`http://127.0.0.1:3000/2025-10-13`).
 */
export function startupAddresses(baseUrl: string): string {
  const lines = ['open', `  API:      ${baseUrl}`, `  docs:     ${baseUrl}/docs`, `  console:  ${baseUrl}/dashboard`];
  return lines.join('\n');
}
