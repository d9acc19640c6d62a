import type {
  CheckpointAdvance,
  CheckpointCommit,
  Fence,
  LeaseGrant,
  LeaseRequest,
  ProjectionTransaction,
} from './read-model-store.js';

/** Whether a commit moves its checkpoint forward (a batch the store has seen already changes nothing). */
export const movesCheckpoint = ({ expected, position }: CheckpointAdvance): boolean =>
  expected === undefined || position > expected;

/** A lease as a store keeps it. */
export interface StoredLease {
  holder: string;
  token: bigint;
  expiresAt: number;
}

/**
 * The lease rule both stores apply inside their transaction: the holder renews its live lease with the same
 * token; a live lease of another holder is refused unless forced; otherwise the lease is taken with the next token.
 */
export function leaseDecision(
  stored: StoredLease | undefined,
  { holder, ttlMs, now = Date.now(), force = false }: LeaseRequest,
): (LeaseGrant & { renewed: boolean }) | undefined {
  const expiresAt = now + ttlMs;
  if (stored && stored.holder === holder && stored.expiresAt > now) {
    return { token: stored.token, expiresAt, renewed: true };
  }
  if (stored && stored.expiresAt > now && !force) return undefined;
  return { token: stored ? stored.token + 1n : 1n, expiresAt, renewed: false };
}

/** What the MongoDB and SQLite stores do alike: the checkpoint read and the one-projection commit. */
export abstract class ReadModelStoreBase {
  protected abstract checkpoint(projection: string): Promise<bigint | undefined> | bigint | undefined;

  abstract commitBatches(
    commits: readonly CheckpointCommit[],
    work: (tx: ProjectionTransaction) => Promise<void>,
    options?: { replay?: boolean },
  ): Promise<void>;

  async getCheckpoint(projection: string): Promise<bigint | undefined> {
    return this.checkpoint(projection);
  }

  async commitBatch(
    projection: string,
    expected: bigint | undefined,
    position: bigint,
    work: (tx: ProjectionTransaction) => Promise<void>,
    fence?: Fence,
  ): Promise<void> {
    await this.commitBatches([{ projection, expected, position, fence }], work);
  }
}
