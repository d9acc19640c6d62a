import type { Job, Worker } from '../job-queue.js';
import type { JobRow } from './job-store.js';

/** A run that ended, to be recorded with the others of its turn. */
export interface Finished {
  worker: SqliteWorker;
  row: JobRow;
  token: string;
  failure: { error: unknown } | undefined;
}

/** What a worker needs of its queue. */
export interface WorkerOwner {
  claim(queue: string, limit: number): { rows: JobRow[]; token: string };
  renew(queue: string, id: string, token: string): void;
  readonly renewEveryMs: number;
  finish(outcome: Finished): void;
  onError(error: unknown): void;
}

/** Runs the handlers of one queue with a concurrency limit, claiming jobs as slots free up. */
export class SqliteWorker implements Worker {
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;
  onClosed: () => void = () => {};

  constructor(
    private readonly owner: WorkerOwner,
    readonly queue: string,
    private readonly handler: (job: Job<unknown>) => Promise<void>,
    private readonly concurrency: number,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.pump(), this.pollMs);
    this.pump();
  }

  pump(): void {
    if (this.closing) return;
    const free = this.concurrency - this.running.size;
    if (free <= 0) return;
    let claimed: { rows: JobRow[]; token: string };
    try {
      claimed = this.owner.claim(this.queue, free);
    } catch (error) {
      // A busy or failing database is retried at the next poll.
      this.owner.onError(error);
      return;
    }
    const { rows, token } = claimed;
    for (const row of rows) {
      // The outcome is recorded by the queue, with the other runs that end in the same turn (SqliteJobQueue.finish).
      const run = this.run(row, token).then((failure) => {
        this.running.delete(run);
        this.owner.finish({ worker: this, row, token, failure });
      });
      this.running.add(run);
    }
  }

  /** Runs the handler; resolves with its failure, if it failed (never rejects). */
  private async run(row: JobRow, token: string): Promise<{ error: unknown } | undefined> {
    const renewal = setInterval(() => {
      try {
        this.owner.renew(row.queue, row.id, token);
      } catch (error) {
        this.owner.onError(error);
      }
    }, this.owner.renewEveryMs);
    try {
      await this.handler({
        id: row.id,
        queue: row.queue,
        name: row.name,
        data: JSON.parse(row.data),
        attemptsMade: row.attempts_made,
        maxAttempts: row.max_attempts,
      });
      return undefined;
    } catch (error) {
      return { error };
    } finally {
      clearInterval(renewal);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
      this.onClosed();
    })();
    return this.closing;
  }
}
