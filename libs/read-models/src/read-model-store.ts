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

/**
 * A compound index on one collection: the fields a query filters by equality first, then the one it
 * sorts or ranges on (dotted paths allowed). Ties are ordered by id, as queries order them.
 */
export interface IndexSpec {
  collection: string;
  /** The fields in order: equality filters first, the sort field (`createdAt`) last. */
  fields: string[];
  /**
   * Boolean fields the collection's queries compare with true or false (a customer's `isDeleted`), kept in the index
   * between the equality fields and the sort field, so that neither a page nor its count reads documents to check
   * them.
   */
  flags?: string[];
  /**
   * Fields the collection's queries test besides the index's own (whether an account has an owner, `customerId`),
   * kept after the sort field and the id, so that a count checks them in the index instead of reading documents.
   */
  covers?: string[];
  /**
   * Keep a count of the collection's documents per key of this index (its equality fields, flags and whether each
   * covered field is present), so that a list asking for one such key answers its exact `totalCount` without walking
   * the index. For filters that take few values (a status, a type, a currency, the whole platform): each distinct key
   * is a row. The MongoDB store counts from the index instead.
   */
  counted?: boolean;
}

/**
 * The most documents a count walks through the index: `totalCount` is exact up to this number and this number beyond
 * it, unless the store keeps a count for the list's filters (IndexSpec `counted`), which is exact at any size.
 */
export const COUNT_CAP = 10_000;

export interface Page<T extends Doc = Doc> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  /** Documents matching the filters, regardless of cursor and limit: exact when counted, else at most COUNT_CAP. */
  totalCount: number;
}

export class InvalidCursor extends Error {
  override readonly name = 'InvalidCursor';
  constructor() {
    super('cursor is not valid for this query');
  }
}

/**
 * Thrown by `commitBatch`, `advanceCheckpoints` and `reset` when the projection's stored checkpoint
 * is not the one the caller's batch was filtered by (another writer committed, or a rebuild reset
 * it). Nothing is written; the caller re-reads the checkpoint and filters its events again.
 */
export class ConcurrentProjectionUpdate extends Error {
  override readonly name = 'ConcurrentProjectionUpdate';
  constructor(
    readonly projection: string,
    readonly expected?: bigint,
    readonly actual?: bigint,
  ) {
    super(`checkpoint of projection ${projection} is ${actual ?? 'unset'}, not the expected ${expected ?? 'unset'}`);
  }
}

/**
 * Thrown, writing nothing, when a write carries a fencing token its lease no longer has (another holder took it over).
 */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
  constructor(
    readonly lease: string,
    readonly token: bigint,
  ) {
    super(`lease ${lease} is no longer held with fencing token ${token}`);
  }
}

/** Proof of holding a lease: checked in the same transaction as the write it guards. */
export interface Fence {
  lease: string;
  token: bigint;
}

export interface LeaseGrant {
  /** Fencing token: rises every time the lease changes holder, never reused. */
  token: bigint;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface LeaseRequest {
  name: string;
  /** Unique per holder instance (a process may hold several). */
  holder: string;
  ttlMs: number;
  /** Epoch milliseconds (default Date.now()); lease holders on one store share wall time. */
  now?: number;
  /** Take the lease even from a live holder (an operator's rebuild): its later writes are fenced off. */
  force?: boolean;
}

/** One projection's part of a `commitBatches` call. */
export interface CheckpointCommit extends CheckpointAdvance {
  projection: string;
}

export interface CheckpointAdvance {
  /** The checkpoint the caller's events were filtered by. */
  expected: bigint | undefined;
  position: bigint;
  fence?: Fence;
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
  /**
   * Creates the indexes that do not exist yet (idempotent; every process may call it at start). With `collections`,
   * only those collections' (a replay that filled them builds their indexes while others are still being filled).
   */
  ensureIndexes(indexes: readonly IndexSpec[], collections?: readonly string[]): Promise<void>;
  /**
   * A replay's batches are over (see `commitBatches`' `replay`): the store returns to its settings for live batches
   * and makes sure what the replay wrote is durable. Stores without replay settings need not have it.
   */
  endReplay?(): Promise<void>;
  /**
   * How the store would answer `find` (the page and its count): `scans` is true when either reads
   * the whole collection instead of searching an index; `plan` is the store's own description.
   */
  explain(collection: string, query: Query): Promise<{ scans: boolean; plan: string[] }>;
  /** Last position committed for a projection, or undefined when it never ran. */
  getCheckpoint(projection: string): Promise<bigint | undefined>;
  /**
   * A number that changes whenever another connection (another process, or this store's commit thread) has
   * committed since it was last read, cheaply: a process that follows checkpoints other processes write reads them
   * only when it changed, and can look often. Stores that cannot tell leave it out; their checkpoints are read at
   * every poll.
   */
  commitVersion?(): number;
  /**
   * Runs `work` against a transaction, then commits its writes and the projection's checkpoint
   * (`position`) atomically, but only if the stored checkpoint is still `expected` (undefined:
   * never ran) and, with a `fence`, that lease still has its token; both are checked before `work`
   * and again inside the write transaction. Otherwise throws ConcurrentProjectionUpdate or
   * LeaseLost and writes nothing. A `position` not beyond `expected` commits nothing (a replay).
   */
  commitBatch(
    projection: string,
    expected: bigint | undefined,
    position: bigint,
    work: (tx: ProjectionTransaction) => Promise<void>,
    fence?: Fence,
  ): Promise<void>;
  /**
   * `commitBatch` for several projections in one store transaction: `work` writes the documents of all of
   * them (their collections are disjoint) and every projection's checkpoint moves to its `position` with
   * them, under the same conditions, all checked before `work` and again inside the write; one failed
   * condition throws and writes nothing. A replay folds thousands of events per call this way. The caller
   * applies to each projection only the events past its `expected` checkpoint.
   */
  commitBatches(
    commits: readonly CheckpointCommit[],
    work: (tx: ProjectionTransaction) => Promise<void>,
    /**
     * `replay`: a rebuild's batch; the store may tune itself for a long run of large writes, and need not freeze the
     * documents put (live batches do).
     */
    options?: { replay?: boolean },
  ): Promise<void>;
  /**
   * Moves the checkpoints of projections that had nothing to write, all in one write (so idle
   * projections cost one transaction per batch together, not one each), each under the same
   * conditions as `commitBatch`: one failed condition throws and moves none of them.
   */
  advanceCheckpoints(advances: ReadonlyMap<string, CheckpointAdvance>): Promise<void>;
  /**
   * Drops the given collections and the projection's checkpoint (rebuild from zero); with a fence, only while it holds.
   */
  reset(projection: string, collections: string[], fence?: Fence): Promise<void>;
  /**
   * Grants the named lease when it is free, expired, already this holder's, or `force`d. A new
   * holder gets a higher token than any before; a holder re-acquiring its live lease keeps its token.
   * Undefined when someone else holds it.
   */
  acquireLease(request: LeaseRequest): Promise<LeaseGrant | undefined>;
  /** Extends a lease still held with `token` (even past its expiry, if nobody took it); undefined when lost. */
  renewLease(name: string, holder: string, token: bigint, ttlMs: number, now?: number): Promise<LeaseGrant | undefined>;
  /** Frees a lease held with `token` so a waiting holder takes it at once; a no-op when lost already. */
  releaseLease(name: string, holder: string, token: bigint): Promise<void>;
  /** The lease's current holder and token (for operations and tests). */
  readLease(name: string): Promise<{ holder: string; token: bigint; expiresAt: number } | undefined>;
  close(): Promise<void>;
}

/** A throw-away store and how to dispose of it (audit verify replays the log into one). */
export interface ScratchReadModels {
  store: ReadModelStore;
  dispose(): Promise<void>;
}
