import type { RecordedEvent } from '#event-store/event-store.js';
import type { IndexSpec, ProjectionTransaction } from './read-model-store.js';

/**
 * A projection: folds the events it handles into documents of the collections it owns. It must
 * be deterministic (no clock, no randomness, no I/O besides `tx`) so that a rebuild from position
 * 0 yields the same documents. Each collection belongs to exactly one projection, so resetting a
 * projection never touches another's documents.
 */
export interface Projection {
  /** Stable name; also the checkpoint key. */
  name: string;
  /** Collections this projection owns (dropped on rebuild). */
  collections: string[];
  /** Event types passed to `apply`; the checkpoint still advances over all other events. */
  handles: string[];
  /**
   * Indexes the API's queries on these collections need (beyond `platformId` + `createdAt`, which every collection
   * has), created when a runner starts, so that no query scans a whole collection.
   */
  indexes?: IndexSpec[];
  /**
   * How costly replaying it is next to the others (1 when absent; the weights given are about the milliseconds each
   * took per 10,000 events of the replay benchmark's log): a rebuild that replays in two threads splits its
   * projections into halves of about equal weight.
   */
  replayWeight?: number;
  apply(event: RecordedEvent, tx: ProjectionTransaction): Promise<void>;
}
