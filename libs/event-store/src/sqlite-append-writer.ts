import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { SqliteAppender, openForAppends, type AppendReply, type AppendRequest } from './sqlite-appender.js';

/** Commits groups of appends: on the event-loop thread, or on a thread of its own. */
export interface AppendWriter {
  /** Resolves once the group's transaction has committed (durably); rejects if nothing of it was committed. */
  commit(batch: AppendRequest[], recordedAt: string): Promise<AppendReply[]>;
  /** Whatever the first commit would set up, set up now. */
  prepare?(): void;
  close(): Promise<void>;
}

/** The thread's messages: a group to commit, and its answer. */
export interface CommitMessage {
  id: number;
  batch: AppendRequest[];
  recordedAt: string;
}
export type CommitAnswer =
  { id: number; replies: AppendReply[] } | { id: number; failure: { message: string; code?: string } };

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
 * Commits on a worker thread with its own connection to the file, so the event loop keeps serving requests while
 * SQLite writes and the disk syncs (the store queues the next group meanwhile, so groups grow with the load). The
 * thread keeps the process alive only while a commit is in flight, as a synchronous commit would.
 */
export class ThreadWriter implements AppendWriter {
  /** Started with the first commit or by `prepare`: a process that only reads never starts it. */
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve(r: AppendReply[]): void; reject(e: unknown): void }>();
  private nextId = 0;
  private ended: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
    private readonly entry: URL = ENTRY,
  ) {}

  prepare(): void {
    if (!this.ended) this.worker ??= this.start();
  }

  commit(batch: AppendRequest[], recordedAt: string): Promise<AppendReply[]> {
    if (this.ended) return Promise.reject(this.ended);
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.pending.set(id, { resolve, reject });
      worker.ref();
      const message: CommitMessage = { id, batch, recordedAt };
      worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.ended ??= new Error('the event store is closed');
    await this.worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.entry, { workerData: { path: this.path, busyTimeoutMs: this.busyTimeoutMs } });
    // Idle until a commit is in flight: a thread started ahead of its first commit keeps no process alive.
    worker.unref();
    worker.on('message', (answer: CommitAnswer) => {
      const waiter = this.pending.get(answer.id);
      if (!waiter) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('replies' in answer) waiter.resolve(answer.replies);
      else waiter.reject(Object.assign(new Error(answer.failure.message), { code: answer.failure.code }));
    });
    // A thread that fails or ends takes its commits in flight with it: their callers learn that nothing is known of
    // them (as after a lost connection), and later appends are refused.
    const end = (error: Error) => {
      this.ended ??= error;
      for (const waiter of this.pending.values()) waiter.reject(this.ended);
      this.pending.clear();
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`the event store's append thread exited (${code})`)));
    return worker;
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
  if (thread === false || path === ':memory:' || !existsSync(fileURLToPath(ENTRY))) return new InThreadWriter(db);
  return new ThreadWriter(path, busyTimeoutMs);
}

export { openForAppends };
