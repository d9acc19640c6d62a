import { open, type FileHandle } from 'node:fs/promises';

/**
 * Makes the commits of a SQLite file in WAL mode durable by syncing its write-ahead log on libuv's thread pool, so
 * the event loop does not wait for the disk. A commit with `synchronous=NORMAL` has written its frames to the log
 * without syncing it; syncing the log's file afterwards (from any descriptor: a sync is of the file) makes that
 * commit and every one before it durable, as `synchronous=FULL` would have at the commit itself. A log that SQLite
 * started again from its beginning after a checkpoint holds only newer commits: the checkpoint synced the database
 * file before that.
 *
 * Callers that ask while a sync is under way share the next one, which starts once it ends: the one under way may
 * have begun before their commit.
 */
export class LogSync {
  private file: Promise<FileHandle> | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  /** `syncFile` is a test's seam; it syncs the file's data by default. */
  constructor(
    private readonly walPath: string,
    private readonly syncFile: (file: FileHandle) => Promise<void> = (file) => file.datasync(),
  ) {}

  /** Resolves once everything committed before the call is on disk. */
  sync(): Promise<void> {
    if (this.running) {
      return (this.next ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.next = undefined;
          return this.sync();
        }));
    }
    this.running = this.syncOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async syncOnce(): Promise<void> {
    // Opened at the first sync: the log exists once something was committed. SQLite removes it only when the last
    // connection to the file closes, and this queue's stays open until close().
    const file = await (this.file ??= open(this.walPath, 'r').catch((error: unknown) => {
      this.file = undefined;
      throw error;
    }));
    await this.syncFile(file);
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await (await file?.catch(() => undefined))?.close();
  }
}
