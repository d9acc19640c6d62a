import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CheckpointedSubscription } from './checkpointed-subscription.js';
import type { RecordedEvent } from './event-store.js';
import { SqliteEventStore } from './sqlite/event-store.js';

/** Resolves once `check` holds, polling the event loop (no timers on real time beyond immediates). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
}

describe('CheckpointedSubscription (SQLite event store)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let subscription: CheckpointedSubscription | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkpointed-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await subscription?.stop();
    subscription = undefined;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = (n: number, stream = 'thing-1') =>
    store.appendToStream(
      stream,
      Array.from({ length: n }, (_, i) => ({ type: 'ThingHappened', data: { i }, metadata: {} })),
    );

  it('hands batches in log order after the checkpoint, at most batchSize events each', async () => {
    await append(10);
    const checkpoint = (await store.readAll({ maxCount: 3 }))[2].position;
    const batches: RecordedEvent[][] = [];
    subscription = new CheckpointedSubscription(store, {
      resume: async () => ({ after: checkpoint }),
      handle: async (batch) => void batches.push(batch),
      batchSize: 4,
    });
    await subscription.start();
    await until(() => batches.flat().length === 7);
    expect(batches.every((b) => b.length <= 4)).toBe(true);
    expect(batches.flat().map((e) => (e.data as { i: number }).i)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('a failed batch resubscribes from the checkpoint: nothing after it is handled twice or lost', async () => {
    await append(6);
    let saved: bigint | undefined;
    let failOnce = true;
    const handled: number[] = [];
    const failures: unknown[] = [];
    subscription = new CheckpointedSubscription(store, {
      resume: async () => (saved === undefined ? {} : { after: saved }),
      handle: async (batch) => {
        for (const event of batch) {
          const { i } = event.data as { i: number };
          if (i === 3 && failOnce) {
            failOnce = false;
            throw new Error('boom');
          }
          handled.push(i);
          saved = event.position;
        }
      },
      batchSize: 2,
      retryDelayMs: 0,
      onFailure: (error) => void failures.push(error),
    });
    await subscription.start();
    await until(() => handled.length === 6);
    expect(handled).toEqual([0, 1, 2, 3, 4, 5]);
    expect(failures).toHaveLength(1);
  });

  it('a standby handles nothing until restart() finds the work its own', async () => {
    await append(3);
    let active = false;
    let subscribed = 0;
    const handled: RecordedEvent[] = [];
    subscription = new CheckpointedSubscription(store, {
      resume: async () => (active ? {} : undefined),
      handle: async (batch) => void handled.push(...batch),
      onSubscribed: () => void subscribed++,
    });
    await subscription.start();
    await until(() => subscribed === 1);
    await append(1);
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(handled).toHaveLength(0);
    active = true;
    subscription.restart();
    await until(() => handled.length === 4);
  });

  it('stop() handles what was already delivered, and nothing after', async () => {
    await append(5);
    const handled: RecordedEvent[] = [];
    subscription = new CheckpointedSubscription(store, {
      resume: async () => ({}),
      handle: async (batch) => void handled.push(...batch),
    });
    await subscription.start();
    await until(() => handled.length === 5);
    await subscription.stop();
    await append(2);
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(handled).toHaveLength(5);
    expect(subscription.isRunning).toBe(false);
  });
});
