import { workerData } from 'node:worker_threads';
import { plainFailureOf, serveCommits } from './commit-thread.js';
import { SqliteAppender, openForAppends } from './appender.js';
import type { AppendWork } from './append-writer.js';

/** The event store's append thread (see ThreadWriter): commits each group it is sent, in order, and answers. */
const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
const appender = new SqliteAppender(openForAppends(path, busyTimeoutMs));

serveCommits(({ batch, recordedAt }: AppendWork) => appender.commit(batch, recordedAt), plainFailureOf);
