import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

/** What a commit thread is sent, and what it answers: the work's result, or why it failed (errors lose their class). */
export interface CommitThreadMessage<Work> {
  id: number;
  work: Work;
}
export type CommitThreadAnswer<Result, Failure> = { id: number; result: Result } | { id: number; failure: Failure };

/**
 * The entry of the thread to commit on, or undefined to commit on the event-loop thread: `entry` when its compiled
 * file is present (the service runs from `dist/`), the event-loop thread otherwise (sources under a test runner, which
 * cannot start a thread from TypeScript), for an in-memory database or when `thread` is false. `thread` may also name
 * the entry to run (tests run the compiled one).
 */
export function threadEntry(thread: boolean | URL | undefined, path: string, entry: URL): URL | undefined {
  if (thread instanceof URL) return thread;
  if (thread === false || path === ':memory:' || !existsSync(fileURLToPath(entry))) return undefined;
  return entry;
}

/** An error as it crosses from the thread: its message and code (SQLite's), without its class. */
export interface PlainFailure {
  message: string;
  code?: string;
}

export function plainFailureOf(error: unknown): PlainFailure {
  const { message, code } = error as { message?: string; code?: unknown };
  return { message: String(message ?? error), ...(typeof code === 'string' ? { code } : {}) };
}

export const plainError = ({ message, code }: PlainFailure): Error =>
  Object.assign(new Error(message), code ? { code } : {});

/**
 * The event loop's side of a worker thread that commits to SQLite on a connection of its own, one piece of work after
 * the other in the order sent, so the event loop keeps serving requests while SQLite writes and the disk syncs. The
 * thread starts with the first piece of work (or `prepare`), and keeps the process alive only while work is in
 * flight. A thread that fails or ends takes the work in flight with it: those callers learn that nothing is known of
 * it (as after a lost connection), and later work is refused.
 */
export class CommitThread<Work, Result, Failure> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve(r: Result): void; reject(e: unknown): void }>();
  private nextId = 0;
  private ended: Error | undefined;

  constructor(
    private readonly entry: URL,
    private readonly workerData: unknown,
    private readonly options: { name: string; errorOf(failure: Failure): Error },
  ) {}

  prepare(): void {
    if (!this.ended) this.worker ??= this.start();
  }

  send(work: Work): Promise<Result> {
    if (this.ended) return Promise.reject(this.ended);
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.pending.set(id, { resolve, reject });
      worker.ref();
      const message: CommitThreadMessage<Work> = { id, work };
      worker.postMessage(message);
    });
  }

  async close(closed: string): Promise<void> {
    this.ended ??= new Error(closed);
    await this.worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.entry, { workerData: this.workerData });
    // Idle until work is in flight: a thread started ahead of its first piece keeps no process alive.
    worker.unref();
    worker.on('message', (answer: CommitThreadAnswer<Result, Failure>) => {
      const waiter = this.pending.get(answer.id);
      if (!waiter) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('failure' in answer) waiter.reject(this.options.errorOf(answer.failure));
      else waiter.resolve(answer.result);
    });
    const end = (error: Error) => {
      this.ended ??= error;
      for (const waiter of this.pending.values()) waiter.reject(this.ended);
      this.pending.clear();
    };
    worker.on('error', end);
    worker.on('exit', (code) => end(new Error(`${this.options.name} exited (${code})`)));
    return worker;
  }
}

/** The thread's side: does each piece of work it is sent, in order, and answers with its result or its failure. */
export function serveCommits<Work, Result, Failure>(
  perform: (work: Work) => Result,
  failureOf: (error: unknown) => Failure,
): void {
  parentPort!.on('message', ({ id, work }: CommitThreadMessage<Work>) => {
    let answer: CommitThreadAnswer<Result, Failure>;
    try {
      answer = { id, result: perform(work) };
    } catch (error) {
      answer = { id, failure: failureOf(error) };
    }
    parentPort!.postMessage(answer);
  });
}
