import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { systemClock, type Clock } from '#domain/clock.js';
import {
  AppendTooLarge,
  DEFAULT_MAX_APPEND_BYTES,
  SubscriptionEnded,
  serializeEvent,
  serializedBytes,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Subscription,
} from '../event-store.js';
import { SharedTail } from './shared-tail.js';
import { BOUND_LIMIT, CHAINED_VERSION, COLUMNS, SCHEMA, limitOf, toRecorded, type EventRow } from './event-rows.js';
import { GENESIS_HASH, chainMetadata } from '../hash-chain.js';
import { refusal, type AppendReply, type AppendRequest } from './appender.js';
import { appendWriter, openForAppends, type AppendWriter } from './append-writer.js';
import { SqliteSnapshotStore } from './snapshots.js';
import { CommitWatch, dataVersionOf, quietOnWalWrites } from './commit-watch.js';
import { subscriptionHandle, type StoreSubscription, type SubscriptionFlags } from '../subscription-handle.js';

export interface SqliteEventStoreOptions {
  /** Source of `recordedAt`; the system clock by default. */
  clock?: Clock;
  /** How long a write waits for another process holding the write lock, in ms. */
  busyTimeoutMs?: number;
  /**
   * How often, while a live subscription waits, the store looks whether another process committed (`CommitWatch`),
   * in ms (default 5); after a second without such a commit, once a second and whenever the write-ahead log is written.
   */
  pollIntervalMs?: number;
  /** Events a subscription reads per query while catching up. */
  subscriptionPageSize?: number;
  /** The most bytes one append may carry; EventStoreDB's default (1 MiB) unless set. */
  maxAppendBytes?: number;
  /**
   * Commit on a thread of its own (the default where the compiled thread exists) or, with false, on the event-loop
   * thread; a URL names the thread's entry (tests run the compiled one).
   */
  appendThread?: boolean | URL;
}

/** Counters that show how well group commit batches appends. */
export interface GroupCommitStats {
  transactions: number;
  appends: number;
  events: number;
}

interface PendingAppend extends AppendRequest {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * The embedded event store: one SQLite file in WAL mode with `synchronous=FULL`.
 * Appends issued in the same tick are group-committed: they are queued and written on the next
 * macrotask in one `BEGIN IMMEDIATE` transaction (SqliteAppender), so many appends share one fsync;
 * the transaction runs on the append thread while the event loop goes on, and appends made
 * meanwhile form the next group. Each append runs in its own savepoint and checks its expected
 * revision against the database inside that transaction, so a failed check rejects only that
 * append, and the check holds even when other processes write to the same file. Every promise
 * settles only after COMMIT has returned. Reads use the event-loop thread's own connection and see
 * every commit that has settled.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly clock: Clock;
  /** Other connections' commits (other processes): what wakes an idle subscription besides this process's own. */
  private readonly watch: CommitWatch;
  private readonly pageSize: number;
  readonly maxAppendBytes: number;
  /** Snapshots of folded state, in a table of the same file. */
  readonly snapshots: SqliteSnapshotStore;
  private queue: PendingAppend[] = [];
  private flushHandle: NodeJS.Immediate | undefined;
  private closed = false;
  /** Bumped on every local commit so a subscription never sleeps through one. */
  private commitSeq = 0;
  private readonly wakers = new Set<() => void>();
  private readonly tail: SharedTail;
  private readonly subscriptions = new Set<StoreSubscription>();
  private readonly counters: GroupCommitStats = { transactions: 0, appends: 0, events: 0 };

  private readonly stmt: {
    readStream: Database.Statement<[string, bigint, number], EventRow>;
    readAll: Database.Statement<[bigint, number], EventRow>;
    readAllOfTypes: Database.Statement<[bigint, string, number], EventRow>;
    head: Database.Statement<[], { position: number | null }>;
    readLast: Database.Statement<[number], EventRow>;
  };
  private readonly writer: AppendWriter;
  /** The group being committed; the next one waits for it (and grows meanwhile). */
  private committing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    options: SqliteEventStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.pageSize = options.subscriptionPageSize ?? 500;
    this.tail = new SharedTail(
      (after, limit) => this.readAllSync(after, limit),
      this.pageSize,
      () => this.watch.current(),
    );
    this.maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    this.db = openForAppends(path, options.busyTimeoutMs ?? 5000);
    this.db.exec(SCHEMA);
    this.upgradeChain();
    this.watch = new CommitWatch(
      dataVersionOf(this.db),
      options.pollIntervalMs ?? 5,
      path === ':memory:' ? undefined : quietOnWalWrites(path),
    );
    this.snapshots = new SqliteSnapshotStore(this.db, path, () => this.clock.now());
    this.stmt = {
      readStream: this.db.prepare<[string, bigint, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision ${BOUND_LIMIT}`,
      ),
      readAll: this.db.prepare<[bigint, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ${BOUND_LIMIT}`,
      ),
      // The types as one JSON array: the subquery is evaluated once into a lookup table, each row is checked in it.
      readAllOfTypes: this.db.prepare<[bigint, string, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE position > ? AND type IN (SELECT value FROM json_each(?)) ` +
          `ORDER BY position ${BOUND_LIMIT}`,
      ),
      head: this.db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events'),
      readLast: this.db.prepare<[number], EventRow>(
        `SELECT ${COLUMNS} FROM events ORDER BY position DESC ${BOUND_LIMIT}`,
      ),
    };
    this.writer = appendWriter(this.db, path, {
      thread: options.appendThread,
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    });
  }

  /**
   * One-time upgrade of a file written before the hash chain: every stream is chained from its first event, in one
   * write transaction (re-checked inside it, so two processes opening the same file upgrade it once). The chain
   * then vouches for the log as it stood at the upgrade; an empty or new file is only marked.
   */
  private upgradeChain(): void {
    if ((this.db.pragma('user_version', { simple: true }) as number) >= CHAINED_VERSION) return;
    const streams = this.db.prepare<[], { stream: string }>('SELECT DISTINCT stream FROM events');
    const events = this.db.prepare<[string], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? ORDER BY revision`,
    );
    const update = this.db.prepare<[string, number]>('UPDATE events SET metadata = ? WHERE position = ?');
    this.db
      .transaction(() => {
        if ((this.db.pragma('user_version', { simple: true }) as number) >= CHAINED_VERSION) return;
        for (const { stream } of streams.all()) {
          let prevHash = GENESIS_HASH;
          for (const row of events.all(stream)) {
            const e = toRecorded(row);
            const metadata = chainMetadata(prevHash, e);
            prevHash = metadata.hash as string;
            update.run(JSON.stringify(metadata), row.position);
          }
        }
        this.db.pragma(`user_version = ${CHAINED_VERSION}`);
      })
      .immediate();
  }

  /** Group-commit counters since this store was opened. */
  stats(): GroupCommitStats {
    return { ...this.counters };
  }

  appendToStream(
    streamName: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('the event store is closed'));
    if (!streamName) return Promise.reject(new TypeError('a stream name is required'));
    if (events.length === 0) return Promise.reject(new TypeError('appendToStream needs at least one event'));
    let rows: PendingAppend['rows'];
    try {
      // Serialized now (unless the caller did already) so that a caller mutating its objects later cannot change
      // what is stored.
      rows = events.map((e) => {
        if (!e.type) throw new TypeError('every event needs a type');
        return { id: e.id ?? randomUUID(), type: e.type, ...serializeEvent(e) };
      });
      const bytes = rows.reduce((sum, row) => sum + serializedBytes(row.type, row.data, row.metadata), 0);
      if (bytes > this.maxAppendBytes) throw new AppendTooLarge(streamName, bytes, this.maxAppendBytes);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamName, expected: options.expectedRevision ?? 'any', rows, resolve, reject });
      this.flushHandle ??= setImmediate(() => this.flush());
    });
  }

  /**
   * Commits the queued appends as one group. While a group is being committed (on the append thread) the next
   * appends queue up and go together as soon as it is done.
   */
  private flush(): void {
    this.flushHandle = undefined;
    if (this.committing || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.committing = this.writer
      .commit(
        batch.map(({ streamName, expected, rows }) => ({ streamName, expected, rows })),
        this.clock.now().toISOString(),
      )
      .then(
        (replies) => this.settle(batch, replies),
        // The transaction was rolled back: nothing in this group is durable.
        (error: unknown) => batch.forEach((append) => append.reject(error)),
      )
      .finally(() => {
        this.committing = undefined;
        if (this.queue.length > 0) this.flush();
      });
  }

  private settle(batch: PendingAppend[], replies: AppendReply[]): void {
    this.counters.transactions += 1;
    let committed = 0;
    batch.forEach((append, i) => {
      const reply = replies[i]!;
      if (!reply.ok) return append.reject(refusal(append, reply));
      committed += 1;
      this.counters.appends += 1;
      this.counters.events += append.rows.length;
      append.resolve(reply.result);
    });
    if (committed > 0) this.notify();
  }

  private notify(): void {
    this.commitSeq += 1;
    this.tail.invalidate();
    for (const wake of [...this.wakers]) wake();
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    return this.stmt.readStream.all(streamName, from < 0n ? 0n : from, limitOf(options.maxCount)).map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? 0n;
    const limit = limitOf(options.maxCount);
    if (options.types === undefined) return this.readAllSync(after, limit);
    return this.stmt.readAllOfTypes.all(after, JSON.stringify(options.types), limit).map(toRecorded);
  }

  async readLast(maxCount: number): Promise<RecordedEvent[]> {
    const limit = limitOf(maxCount);
    return limit === 0 ? [] : this.stmt.readLast.all(limit).map(toRecorded);
  }

  private readAllSync(after: bigint, limit: number): RecordedEvent[] {
    return this.stmt.readAll.all(after, limit).map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    const { position } = this.stmt.head.get()!;
    return position === null ? 0n : BigInt(position);
  }

  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void> | void,
    options: { after?: bigint } = {},
  ): Subscription {
    if (this.closed) throw new Error('the event store is closed');
    const flags: SubscriptionFlags = { stopped: false, endedByStore: false };
    let cursor = options.after ?? 0n;
    let wakeNow: (() => void) | undefined;

    // Waits for a local commit, another connection's (CommitWatch), or stop(); returns at once if one happened since
    // the page was read.
    const idle = (seenSeq: number, seenVersion: number) =>
      new Promise<void>((resolve) => {
        if (flags.stopped || seenSeq !== this.commitSeq) return resolve();
        const wake = () => {
          cancel();
          this.wakers.delete(wake);
          wakeNow = undefined;
          resolve();
        };
        wakeNow = wake;
        this.wakers.add(wake);
        const cancel = this.watch.next(seenVersion, wake);
      });

    const run = async () => {
      // Deliveries start after subscribeToAll has returned, never inside it.
      await null;
      while (!flags.stopped) {
        const seq = this.commitSeq;
        const page = this.tail.next(cursor);
        const version = this.tail.lastVersion;
        for (const event of page) {
          if (flags.stopped) return;
          await handler(event);
          cursor = event.position;
        }
        if (page.length < this.pageSize) await idle(seq, version);
      }
    };

    const done = run()
      .then(() => {
        if (flags.endedByStore) throw new SubscriptionEnded('the event store was closed under the subscription');
      })
      .finally(() => this.subscriptions.delete(subscription));
    const subscription = subscriptionHandle(flags, done, () => wakeNow?.());
    this.subscriptions.add(subscription);
    return subscription;
  }

  prepareWrites(): void {
    if (!this.closed) this.writer.prepare?.();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Appends already accepted are committed (or rejected) before the file is closed.
    if (this.flushHandle) {
      clearImmediate(this.flushHandle);
      this.flush();
    }
    while (this.committing) await this.committing;
    await this.writer.close();
    // Subscribers learn of it through a rejected `done` (they did not stop them).
    await Promise.all([...this.subscriptions].map((s) => s.end()));
    this.watch.stop();
    this.db.close();
  }
}
