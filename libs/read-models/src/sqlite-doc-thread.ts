import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { DocCommitter, failureOf } from './sqlite-doc-commit.js';
import type { DocCommitAnswer, DocCommitMessage } from './sqlite-doc-writer.js';

/** The read-model store's commit thread (see ThreadDocWriter): commits each batch it is sent, in order, and answers. */
const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
const db = new Database(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
const committer = new DocCommitter(db);

parentPort!.on('message', ({ id, commit }: DocCommitMessage) => {
  let answer: DocCommitAnswer;
  try {
    committer.commit(commit);
    answer = { id };
  } catch (error) {
    answer = { id, failure: failureOf(error) };
  }
  parentPort!.postMessage(answer);
});
