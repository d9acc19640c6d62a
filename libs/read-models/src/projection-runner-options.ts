import type { LeaseKeeperOptions } from './lease-keeper.js';

export interface ProjectionRunnerOptions {
  /** Most events applied in one commit per projection (default 256). */
  batchSize?: number;
  /** Wait before resubscribing after a failed batch (default 1000 ms). */
  retryDelayMs?: number;
  /**
   * How often stored checkpoints are looked at when this process runs no projector: every 5 ms where the store tells
   * when another connection committed (`commitVersion`, read only then), 25 ms otherwise.
   */
  pollIntervalMs?: number;
  logger?: { error(message: string, error?: unknown): void };
  /**
   * One active projector per projection across processes: a lease per projection (named
   * `projection:<name>`) in the read-model store, its fencing token checked with every batch.
   * `false` runs without leases (the checkpoint comparison alone still prevents double applies).
   */
  lease?: LeaseKeeperOptions | false;
}

/** Lease name of a projection's projector. */
export const projectorLease = (projection: string) => `projection:${projection}`;

/** A checkpoint reads lower than before: a rebuild reset it, and events before this batch are needed again. */
export class CheckpointMovedBack extends Error {
  override readonly name = 'CheckpointMovedBack';
}

export const consoleLogger = { error: (message: string, error?: unknown) => console.error(message, error) };
