import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { LogSync } from './log-sync.js';

/** A sync the test ends by hand. */
function manualSyncs() {
  const started: { file: FileHandle; end(error?: Error): void }[] = [];
  const syncFile = (file: FileHandle) =>
    new Promise<void>((resolve, reject) => started.push({ file, end: (error) => (error ? reject(error) : resolve()) }));
  return { started, syncFile };
}

const settled = (promise: Promise<unknown>) => {
  const state = { done: false, error: undefined as unknown };
  promise.then(
    () => (state.done = true),
    (error: unknown) => ((state.done = true), (state.error = error)),
  );
  return state;
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits (turns of the event loop, not time) until `n` syncs have started: opening the file takes the thread pool,
 * which a busy machine may not reach for many turns, so only the test's timeout bounds the wait.
 */
async function syncsStarted(started: unknown[], n: number) {
  while (started.length < n) await turn();
  expect(started).toHaveLength(n);
}

describe('LogSync', () => {
  let dir: string;
  let wal: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'log-sync-'));
    wal = join(dir, 'jobs.db-wal');
    writeFileSync(wal, 'frames');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A LogSync on the test's log whose syncs the test ends, and its first call, once that call's sync has started. */
  const firstSync = async () => {
    const { started, syncFile } = manualSyncs();
    const log = new LogSync(wal, syncFile);
    const first = settled(log.sync());
    await syncsStarted(started, 1);
    return { started, log, first };
  };

  it('resolves once the log file was synced', async () => {
    const { started, log, first } = await firstSync();
    expect(first.done).toBe(false);
    started[0]!.end();
    await turn();
    expect(first).toEqual({ done: true, error: undefined });
    await log.close();
  });

  it('gives the callers who ask while a sync is under way one more sync, started after it', async () => {
    const { started, log, first } = await firstSync();
    const second = settled(log.sync());
    const third = settled(log.sync());
    await turn();
    expect(started).toHaveLength(1);
    started[0]!.end();
    await turn();
    expect(first.done).toBe(true);
    // The first sync may have begun before their commits: they wait for the next one.
    await syncsStarted(started, 2);
    expect([second.done, third.done]).toEqual([false, false]);
    started[1]!.end();
    await turn();
    expect([second.done, third.done]).toEqual([true, true]);
    expect(started).toHaveLength(2);
    await log.close();
  });

  it('rejects the callers of a sync that failed, and syncs again at the next call', async () => {
    const { started, log, first: failed } = await firstSync();
    started[0]!.end(new Error('EIO'));
    await turn();
    expect(failed.error).toEqual(new Error('EIO'));
    const next = settled(log.sync());
    await syncsStarted(started, 2);
    started[1]!.end();
    await turn();
    expect(next).toEqual({ done: true, error: undefined });
    await log.close();
  });

  it('syncs the real file with its default', async () => {
    const log = new LogSync(wal);
    await expect(log.sync()).resolves.toBeUndefined();
    await log.close();
  });

  it('fails while the log does not exist, and opens it once it does', async () => {
    const log = new LogSync(join(dir, 'other.db-wal'));
    await expect(log.sync()).rejects.toMatchObject({ code: 'ENOENT' });
    writeFileSync(join(dir, 'other.db-wal'), 'frames');
    await expect(log.sync()).resolves.toBeUndefined();
    await log.close();
  });
});
