import { Sqlite } from '#sqlite/driver.js';
import { workerData } from 'node:worker_threads';
import { serveCommits } from '#event-store/sqlite/commit-thread.js';
import { DocCommitter, failureOf, type DocCommit } from './doc-commit.js';

/** The read-model store's commit thread (see ThreadDocWriter): commits each batch it is sent, in order, and answers. */
const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
const db = new Sqlite(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
const committer = new DocCommitter(db);

serveCommits((commit: DocCommit) => (committer.commit(commit), null), failureOf);
