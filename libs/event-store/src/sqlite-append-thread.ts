import { parentPort, workerData } from 'node:worker_threads';
import { SqliteAppender, openForAppends } from './sqlite-appender.js';
import type { CommitAnswer, CommitMessage } from './sqlite-append-writer.js';

/** The event store's append thread (see ThreadWriter): commits each group it is sent, in order, and answers. */
const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
const db = openForAppends(path, busyTimeoutMs);
const appender = new SqliteAppender(db);

parentPort!.on('message', ({ id, batch, recordedAt }: CommitMessage) => {
  let answer: CommitAnswer;
  try {
    answer = { id, replies: appender.commit(batch, recordedAt) };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: unknown };
    answer = { id, failure: { message: String(message ?? error), ...(typeof code === 'string' ? { code } : {}) } };
  }
  parentPort!.postMessage(answer);
});
