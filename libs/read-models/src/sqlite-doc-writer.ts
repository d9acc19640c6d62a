import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { errorOf, type DocCommit, type DocCommitFailure, type DocCommitter } from './sqlite-doc-commit.js';

/** Commits the read-model store's live batches: on the event-loop thread, or on a thread of its own. */
export interface DocWriter {
  /** Resolves once the transaction has committed; rejects, with nothing of it written, if it was refused. */
  commit(commit: DocCommit): Promise<void>;
  close(): Promise<void>;
}

/** The commit thread's messages: a commit to make, and its answer. */
export interface DocCommitMessage {
  id: number;
  commit: DocCommit;
}
export type DocCommitAnswer = { id: number } | { id: number; failure: DocCommitFailure };

/** Commits on the store's own connection, blocking the event loop for the transaction and its writes. */
export class InThreadDocWriter implements DocWriter {
  constructor(private readonly committer: DocCommitter) {}

  async commit(commit: DocCommit): Promise<void> {
    this.committer.commit(commit);
  }

  async close(): Promise<void> {}
}

const ENTRY = new URL('./sqlite-doc-thread.js', import.meta.url);

/**
 * Commits on a worker thread with its own connection to the file, in the order the commits were sent, so the event
 * loop keeps serving requests while SQLite writes the pages to the write-ahead log (a write the kernel holds up, as
 * while another thread's fsync commits the file system's journal, held the whole process for milliseconds). The
 * thread keeps the process alive only while a commit is in flight.
 */
export class ThreadDocWriter implements DocWriter {
  /** Started with the first commit: a process that only reads (or only replays) never starts it. */
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve(): void; reject(e: unknown): void }>();
  private nextId = 0;
  private ended: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
    private readonly entry: URL = ENTRY,
  ) {}

  commit(commit: DocCommit): Promise<void> {
    if (this.ended) return Promise.reject(this.ended);
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.pending.set(id, { resolve, reject });
      worker.ref();
      const message: DocCommitMessage = { id, commit };
      worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.ended ??= new Error('the read-model store is closed');
    await this.worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.entry, { workerData: { path: this.path, busyTimeoutMs: this.busyTimeoutMs } });
    worker.unref();
    worker.on('message', (answer: DocCommitAnswer) => {
      const waiter = this.pending.get(answer.id);
      if (!waiter) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('failure' in answer) waiter.reject(errorOf(answer.failure));
      else waiter.resolve();
    });
    // A thread that fails or ends takes its commits in flight with it: their projections retry them from their
    // checkpoints (a commit either happened whole or not at all), and later commits are refused.
    const end = (error: Error) => {
      this.ended ??= error;
      for (const waiter of this.pending.values()) waiter.reject(this.ended);
      this.pending.clear();
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`the read-model store's commit thread exited (${code})`)));
    return worker;
  }
}

/**
 * The commit thread when its compiled entry is present (the service runs from `dist/`), and the event-loop thread
 * otherwise (sources under a test runner, which cannot start a thread from TypeScript) or when `thread` is false.
 * `thread` may also name the entry to run (tests run the compiled one).
 */
export function docWriter(
  committer: DocCommitter,
  path: string,
  options: { thread?: boolean | URL; busyTimeoutMs: number },
): DocWriter {
  const { thread, busyTimeoutMs } = options;
  if (thread instanceof URL) return new ThreadDocWriter(path, busyTimeoutMs, thread);
  if (thread === false || path === ':memory:' || !existsSync(fileURLToPath(ENTRY)))
    return new InThreadDocWriter(committer);
  return new ThreadDocWriter(path, busyTimeoutMs);
}
