import type { SetAsidePolicy } from '#event-store/set-aside.js';
import type { LeaseKeeperOptions } from './lease-keeper.js';
import type { Projection } from '../projection.js';
import type { Fence } from '../read-model-store.js';

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
  /** When an event that keeps failing in a projection is set aside (see SetAsidePolicy). */
  setAside?: SetAsidePolicy;
  /** The time a set-aside record is stamped with (default: the system clock). */
  now?: () => Date;
}

/** Lease name of a projection's projector. */
export const projectorLease = (projection: string) => `projection:${projection}`;

/** A checkpoint reads lower than before: a rebuild reset it, and events before this batch are needed again. */
export class CheckpointMovedBack extends Error {
  override readonly name = 'CheckpointMovedBack';
}

export const consoleLogger = { error: (message: string, error?: unknown) => console.error(message, error) };

/**
 * Replays some of a rebuild's projections elsewhere (another thread) while the runner replays the others: the
 * named projections are already reset; it resolves once their checkpoints are at `head` (their writes carry
 * `fences`, the leases the rebuild took), and rejects if that replay fails.
 */
export interface ReplayDelegate {
  replay(names: string[], head: bigint, fences: ReadonlyMap<string, Fence>): Promise<void>;
  /** Replays both halves (each call in a thread of its own), the runner none. */
  both?: boolean;
}

export function namesOf(projections: readonly Projection[]): string[] {
  return projections.map((p) => p.name);
}

/** Splits projections into two halves of about equal replay weight (the heaviest first, each to the lighter half). */
export function halves(projections: readonly Projection[]): [Projection[], Projection[]] {
  const sides: [Projection[], Projection[]] = [[], []];
  const weights = [0, 0];
  const weight = (p: Projection) => p.replayWeight ?? 1;
  for (const projection of [...projections].sort((a, b) => weight(b) - weight(a))) {
    const side = weights[0] <= weights[1] ? 0 : 1;
    sides[side].push(projection);
    weights[side] += weight(projection);
  }
  return sides;
}
