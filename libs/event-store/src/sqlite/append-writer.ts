import type Database from 'better-sqlite3';
import { CommitThread, plainError, threadEntry, type PlainFailure } from './commit-thread.js';
import { SqliteAppender, openForAppends, type AppendReply, type AppendRequest } from './appender.js';

/** Commits groups of appends: on the event-loop thread, or on a thread of its own. */
export interface AppendWriter {
  /** Resolves once the group's transaction has committed (durably); rejects if nothing of it was committed. */
  commit(batch: AppendRequest[], recordedAt: string): Promise<AppendReply[]>;
  /** Whatever the first commit would set up, set up now. */
  prepare?(): void;
  close(): Promise<void>;
}

/** A group to commit on the append thread. */
export interface AppendWork {
  batch: AppendRequest[];
  recordedAt: string;
}

/** Commits on the caller's connection, blocking the event loop for the transaction and its fsync. */
export class InThreadWriter implements AppendWriter {
  private readonly appender: SqliteAppender;

  constructor(db: Database.Database) {
    this.appender = new SqliteAppender(db);
  }

  async commit(batch: AppendRequest[], recordedAt: string): Promise<AppendReply[]> {
    return this.appender.commit(batch, recordedAt);
  }

  async close(): Promise<void> {}
}

const ENTRY = new URL('./append-thread.js', import.meta.url);

/**
 * Commits on a worker thread with its own connection to the file (see CommitThread), so the event loop keeps serving
 * requests while SQLite writes and the disk syncs (the store queues the next group meanwhile, so groups grow with the
 * load).
 */
export class ThreadWriter implements AppendWriter {
  private readonly thread: CommitThread<AppendWork, AppendReply[], PlainFailure>;

  constructor(path: string, busyTimeoutMs: number, entry: URL) {
    const name = "the event store's append thread";
    this.thread = new CommitThread(entry, { path, busyTimeoutMs }, { name, errorOf: plainError });
  }

  prepare(): void {
    this.thread.prepare();
  }

  commit(batch: AppendRequest[], recordedAt: string): Promise<AppendReply[]> {
    return this.thread.send({ batch, recordedAt });
  }

  close(): Promise<void> {
    return this.thread.close('the event store is closed');
  }
}

/** The append thread, or the event-loop thread (see threadEntry). */
export function appendWriter(
  db: Database.Database,
  path: string,
  options: { thread?: boolean | URL; busyTimeoutMs: number },
): AppendWriter {
  const entry = threadEntry(options.thread, path, ENTRY);
  return entry ? new ThreadWriter(path, options.busyTimeoutMs, entry) : new InThreadWriter(db);
}

export { openForAppends };
