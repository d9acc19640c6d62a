import type Database from 'better-sqlite3';
import { CommitThread, entryExists } from './commit-thread.js';
import { SqliteAppender, openForAppends, type AppendReply, type AppendRequest } from './sqlite-appender.js';

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
type AppendFailure = { message: string; code?: string };

/** A failed group's error as it crosses from the thread (a message and SQLite's code). */
export function appendFailureOf(error: unknown): AppendFailure {
  const { message, code } = error as { message?: string; code?: unknown };
  return { message: String(message ?? error), ...(typeof code === 'string' ? { code } : {}) };
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

const ENTRY = new URL('./sqlite-append-thread.js', import.meta.url);

/**
 * Commits on a worker thread with its own connection to the file (see CommitThread), so the event loop keeps serving
 * requests while SQLite writes and the disk syncs (the store queues the next group meanwhile, so groups grow with the
 * load).
 */
export class ThreadWriter implements AppendWriter {
  private readonly thread: CommitThread<AppendWork, AppendReply[], AppendFailure>;

  constructor(path: string, busyTimeoutMs: number, entry: URL = ENTRY) {
    this.thread = new CommitThread(
      entry,
      { path, busyTimeoutMs },
      {
        name: "the event store's append thread",
        errorOf: ({ message, code }) => Object.assign(new Error(message), { code }),
      },
    );
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

/**
 * The append thread when its compiled entry is present (the service runs from `dist/`), and the event-loop thread
 * otherwise (sources under a test runner, which cannot start a thread from TypeScript) or when `thread` is false.
 * `thread` may also name the entry to run (tests run the compiled one).
 */
export function appendWriter(
  db: Database.Database,
  path: string,
  options: { thread?: boolean | URL; busyTimeoutMs: number },
): AppendWriter {
  const { thread, busyTimeoutMs } = options;
  if (thread instanceof URL) return new ThreadWriter(path, busyTimeoutMs, thread);
  if (thread === false || path === ':memory:' || !entryExists(ENTRY)) return new InThreadWriter(db);
  return new ThreadWriter(path, busyTimeoutMs);
}

export { openForAppends };
