import { DomainError } from '#domain/errors.js';
import type { Logger } from '@nestjs/common';
import { AppendTooLarge, WrongExpectedVersion, type EventStore, type NewEvent } from '#event-store/event-store.js';

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

/**
 * Appends `events` at the expected `revision`, retrying transient failures with the same event ids (so an attempt
 * that was committed after all is written once): at most `transientRetries` times (default 4), waiting `backoff`.
 */
export async function appendWithRetries(
  store: EventStore,
  logger: Logger,
  options: { transientRetries?: number; backoff?: (retry: number) => Promise<void> },
  append: { streamName: string; events: NewEvent[]; revision: bigint },
) {
  const { streamName, events, revision } = append;
  const retries = options.transientRetries ?? 4;
  const backoff = options.backoff ?? defaultBackoff;
  for (let retry = 0; ; retry++) {
    try {
      const expectedRevision = revision < 0n ? 'no_stream' : revision;
      return await store.appendToStream(streamName, events, { expectedRevision });
    } catch (error) {
      if (isPermanent(error) || retry >= retries) throw error;
      const reason = (error as Error)?.message;
      logger.warn(`append to ${streamName} failed (${reason}); retry ${retry + 1} of ${retries}`);
      await backoff(retry + 1);
    }
  }
}
