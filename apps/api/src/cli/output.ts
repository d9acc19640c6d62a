import { ConfigError } from '#config/config.js';
import { toErrorBody, type ErrorBody } from '../http/errors.js';
import { UsageError, type CliResult } from './command.js';

/** The result on stdout: JSON with --json (nothing else goes to stdout), readable text otherwise. */
export function printResult(result: CliResult, json: boolean): void {
  console.log(json ? JSON.stringify(result.data, null, result.compact ? undefined : 2) : result.text());
}

const isUsage = (error: unknown) =>
  error instanceof UsageError ||
  error instanceof ConfigError ||
  Boolean((error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS'));

/**
 * Reports a failure on stderr and returns the exit status: 2 for a command line that cannot be run (with the usage
 * text), 1 otherwise. Application errors carry the code and message the API would answer (`CUSTOMER_NOT_FOUND`,
 * `FORBIDDEN`, `INVALID_INPUT` with its field errors); with --json they are one JSON object in the API's error shape.
 */
export function reportError(error: unknown, json: boolean, usage: string): number {
  if (isUsage(error)) {
    const message = (error as Error).message;
    console.error(json ? JSON.stringify({ code: 'USAGE', message }) : `error: ${message}\n\n${usage}`);
    return 2;
  }
  const body: ErrorBody = toErrorBody(error).body;
  if (body.status >= 500) {
    // An operator's own tool: say what went wrong instead of the API's opaque message.
    const message = error instanceof Error ? error.message : String(error);
    if (json) console.error(JSON.stringify({ ...body, message }));
    else console.error(error);
    return 1;
  }
  if (json) {
    console.error(JSON.stringify(body));
    return 1;
  }
  const fieldErrors = Array.isArray(body.details?.errors) ? (body.details.errors as { message: string }[]) : [];
  const more = fieldErrors.filter((e) => !body.message.includes(e.message));
  const lines = [`error: ${body.code}: ${body.message}`, ...more.map((e) => `  ${e.message}`)];
  if (body.reason) lines.push(`  reason: ${body.reason}`);
  console.error(lines.join('\n'));
  return 1;
}
