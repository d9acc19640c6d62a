import { RecentCache } from '#domain/primitives.js';
import type { BufferedWrites } from '../buffered-transaction.js';
import type { CheckpointCommit, Doc } from '../read-model-store.js';

/**
 * The documents a store's live batches have committed, read back by the next batches without a query (a webhook's
 * delivery document, an account's balance: a busy projection changes the same few documents again and again).
 *
 * Only projections that hold a lease write their collections, so what a batch committed under a lease is what the
 * store holds until that lease changes hands. The cache keeps, per projection, the fence its documents were written
 * under, and forgets everything when a batch comes with another one (or with none: without a lease another process
 * may write too), when a commit fails, and on a reset or a replay (written by other connections). A stale read could
 * not be committed anyway: every batch's fence is checked again inside its write.
 *
 * Documents are kept as they were put (deeply frozen), deletions as null; the least recently used go first.
 */
export class DocCache {
  private readonly docs: RecentCache<string, Readonly<Doc> | null>;
  private readonly fences = new Map<string, bigint>();

  constructor(capacity: number) {
    this.docs = new RecentCache(capacity);
  }

  /** Whether a batch of these projections may read the cache (forgetting it when their fences changed). */
  admit(commits: readonly CheckpointCommit[]): boolean {
    if (commits.some(({ fence }) => fence === undefined)) {
      this.clear();
      return false;
    }
    if (commits.some(({ projection, fence }) => (this.fences.get(projection) ?? fence!.token) !== fence!.token))
      this.clear();
    for (const { projection, fence } of commits) this.fences.set(projection, fence!.token);
    return true;
  }

  /** The committed document (null: deleted), or undefined when the cache does not know it. */
  get(collection: string, id: string): Readonly<Doc> | null | undefined {
    return this.docs.get(key(collection, id));
  }

  /** Keeps what a batch admitted by `admit` has just committed. */
  remember(writes: BufferedWrites): void {
    for (const [collection, docs] of writes) for (const [id, doc] of docs) this.docs.set(key(collection, id), doc);
  }

  clear(): void {
    this.docs.clear();
    this.fences.clear();
  }
}

const key = (collection: string, id: string) => `${collection}\u0000${id}`;
