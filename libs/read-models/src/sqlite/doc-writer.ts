import { CommitThread, threadEntry } from '#event-store/sqlite/commit-thread.js';
import { errorOf, type DocCommit, type DocCommitFailure, type DocCommitter } from './doc-commit.js';

/** Commits the read-model store's live batches: on the event-loop thread, or on a thread of its own. */
export interface DocWriter {
  /** Resolves once the transaction has committed; rejects, with nothing of it written, if it was refused. */
  commit(commit: DocCommit): Promise<void>;
  close(): Promise<void>;
}

/** Commits on the store's own connection, blocking the event loop for the transaction and its writes. */
export class InThreadDocWriter implements DocWriter {
  constructor(private readonly committer: DocCommitter) {}

  async commit(commit: DocCommit): Promise<void> {
    this.committer.commit(commit);
  }

  async close(): Promise<void> {}
}

const ENTRY = new URL('./doc-thread.js', import.meta.url);

/**
 * Commits on a worker thread with its own connection to the file (see CommitThread), in the order the commits were
 * sent, so the event loop keeps serving requests while SQLite writes the pages to the write-ahead log (a write the
 * kernel holds up, as while another thread's fsync commits the file system's journal, held the whole process for
 * milliseconds). A commit lost with the thread is retried by its projection from its checkpoint: it happened whole
 * or not at all.
 */
export class ThreadDocWriter implements DocWriter {
  private readonly thread: CommitThread<DocCommit, null, DocCommitFailure>;

  constructor(path: string, busyTimeoutMs: number, entry: URL) {
    const name = "the read-model store's commit thread";
    this.thread = new CommitThread(entry, { path, busyTimeoutMs }, { name, errorOf });
  }

  async commit(commit: DocCommit): Promise<void> {
    await this.thread.send(commit);
  }

  close(): Promise<void> {
    return this.thread.close('the read-model store is closed');
  }
}

/** The commit thread, or the event-loop thread (see threadEntry). */
export function docWriter(
  committer: DocCommitter,
  path: string,
  options: { thread?: boolean | URL; busyTimeoutMs: number },
): DocWriter {
  const entry = threadEntry(options.thread, path, ENTRY);
  return entry ? new ThreadDocWriter(path, options.busyTimeoutMs, entry) : new InThreadDocWriter(committer);
}
