/**
 * What every example shares: the connection settings from the environment, a platform client, a little
 * output, and `run`, which turns any failure into a message on stderr and a non-zero exit code.
 *
 *   PAYMENTS_API_URL        the versioned base URL, e.g. http://127.0.0.1:3000/2025-10-13
 *   PAYMENTS_TOKEN_ID       the platform's API token id      (`npm start` prints the sandbox's)
 *   PAYMENTS_CLIENT_SECRET  the platform's API token secret
 *
 * The client is the `@payments-platform/client` package (packages/client); your own code imports it the same way.
 */
import { randomUUID } from 'node:crypto';
import { PaymentsApiError, PaymentsClient } from '@payments-platform/client';

export { PaymentsApiError, PaymentsClient };

export interface Settings {
  baseUrl: string;
  tokenId: string;
  clientSecret: string;
}

/** The connection settings; throws naming every missing variable. */
export function settings(env: NodeJS.ProcessEnv = process.env): Settings {
  const names = ['PAYMENTS_API_URL', 'PAYMENTS_TOKEN_ID', 'PAYMENTS_CLIENT_SECRET'] as const;
  const missing = names.filter((name) => !env[name]?.trim());
  if (missing.length > 0) throw new Error(`set ${missing.join(', ')} (see examples/README.md)`);
  return {
    baseUrl: env.PAYMENTS_API_URL!.trim(),
    tokenId: env.PAYMENTS_TOKEN_ID!.trim(),
    clientSecret: env.PAYMENTS_CLIENT_SECRET!.trim(),
  };
}

/** A client authenticated as the platform (HTTP Basic with the API token). */
export function platformClient(): PaymentsClient {
  return new PaymentsClient(settings());
}

/** A short unique suffix, so that every run creates its own customer (`platformCustomerId` is unique). */
export function uniqueRef(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Prints one step of the example. */
export function step(text: string): void {
  console.log(`\n→ ${text}`);
}

/** Prints one fact learned in the current step. */
export function show(label: string, value: unknown): void {
  console.log(`  ${label.padEnd(14)} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

/** Throws unless `condition` holds: the examples check what they rely on and stop otherwise. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Runs an example: on success prints the ids it created as one JSON line (for scripts that run it), on any
 * failure prints the error (with the service's code and reason) and sets exit code 1.
 */
export function run(name: string, main: () => Promise<Record<string, unknown>>): void {
  main().then(
    (result) => {
      console.log(`\n✓ ${name} done`);
      console.log(JSON.stringify(result));
    },
    (error: unknown) => {
      console.error(`\n✗ ${name} failed: ${errorMessage(error)}`);
      process.exitCode = 1;
    },
  );
}

export function errorMessage(error: unknown): string {
  if (error instanceof PaymentsApiError) {
    const reason = error.reason ? ` (${error.reason})` : '';
    const fields = error.details?.errors?.map((e) => `${e.field}: ${e.message}`).join('; ');
    return `${error.status} ${error.code}: ${error.message}${reason}${fields ? ` [${fields}]` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
