/**
 * The read-model store port: JSON documents by collection, written only by projections, queried
 * by the API. Every document has a string `id`. A projection's document changes and its
 * checkpoint are committed together, so a crash never leaves them apart.
 */
export type Doc = { id: string } & Record<string, unknown>;

export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'contains' | 'exists';

/**
 * `field` is a top-level or dotted path. `contains`: the field is an array that contains `value`.
 * `in`: the field equals one of `value` (an array). `exists`: value true/false. Comparisons on
 * strings are lexicographic (ISO date-times compare correctly), on numbers numeric.
 */
export interface Filter {
  field: string;
  op: FilterOp;
  value: unknown;
}

export interface Query {
  filters?: Filter[];
  /** Sort field (default `createdAt`); ties are broken by `id` in the same direction. */
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  /** 1..1000 */
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface Page<T extends Doc = Doc> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  /** Number of documents matching the filters, regardless of cursor and limit. */
  totalCount: number;
}

export class InvalidCursor extends Error {
  override readonly name = 'InvalidCursor';
  constructor() {
    super('cursor is not valid for this query');
  }
}

/**
 * Thrown by `commitBatch` when the projection's stored checkpoint moved while `work` ran (another
 * writer committed a batch for it in between), so `work` may have read stale documents. Nothing
 * is written; the caller reloads checkpoints and tries again.
 */
export class ConcurrentProjectionUpdate extends Error {
  override readonly name = 'ConcurrentProjectionUpdate';
  constructor(readonly projection: string) {
    super(`checkpoint of projection ${projection} moved while its batch was being applied`);
  }
}

/**
 * Writes buffered during one projection batch. Reads see the batch's own earlier writes.
 */
export interface ProjectionTransaction {
  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined>;
  put(collection: string, doc: Doc): void;
  delete(collection: string, id: string): void;
}

export interface ReadModelStore {
  get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined>;
  find<T extends Doc = Doc>(collection: string, query: Query): Promise<Page<T>>;
  /** Last position committed for a projection, or undefined when it never ran. */
  getCheckpoint(projection: string): Promise<bigint | undefined>;
  /**
   * Runs `work` against a transaction, then commits its writes and the projection's checkpoint
   * (`position`) atomically. A batch whose `position` is not beyond the stored checkpoint is
   * skipped (idempotent replays). Throws ConcurrentProjectionUpdate, writing nothing, when the
   * checkpoint changed to an earlier position while `work` ran.
   */
  commitBatch(projection: string, position: bigint, work: (tx: ProjectionTransaction) => Promise<void>): Promise<void>;
  /**
   * Moves the checkpoints of projections that had nothing to write, all in one write (so idle
   * projections cost one transaction per batch together, not one each). A stored checkpoint
   * never moves backwards.
   */
  advanceCheckpoints(positions: ReadonlyMap<string, bigint>): Promise<void>;
  /** Drops the given collections and the projection's checkpoint (rebuild from zero). */
  reset(projection: string, collections: string[]): Promise<void>;
  close(): Promise<void>;
}
