import { DomainError } from '#domain/errors.js';
import { AppendTooLarge, WrongExpectedVersion } from '#event-store/event-store.js';

/** One command whose events alone exceed what the event store accepts in one append. */
export const tooLarge = (streamName: string, bytes: number, limit: number) =>
  new DomainError(
    'unprocessable',
    'EVENTS_TOO_LARGE',
    `the command's events (${bytes} bytes) exceed the event store's append limit of ${limit} bytes`,
    { reason: `stream ${streamName}` },
  );

/**
 * Wait before deciding again after a revision conflict: full jitter over an exponentially growing
 * window (2 ms doubling, at most 100 ms), so processes writing one hot stream stop colliding in step.
 */
export const conflictBackoff = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));

export const defaultBackoff = (retry: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 50 * 2 ** (retry - 1)));

/** Errors that say something about the request rather than the connection: retrying cannot help. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof WrongExpectedVersion ||
    error instanceof AppendTooLarge ||
    error instanceof TypeError ||
    error instanceof RangeError
  );
}

export class CommandConflictError extends Error {
  override readonly name = 'CommandConflictError';
}

/** What a batch's commands are refused with once its append failed for good (`attempt` counted from 0). */
export const finalAppendError = (error: unknown, streamName: string, attempt: number): unknown =>
  error instanceof WrongExpectedVersion
    ? new CommandConflictError(`stream ${streamName} kept changing; gave up after ${attempt + 1} attempts`)
    : error;
