import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CommandRunner } from '#application/command-runner.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import type { JobOptions, JobQueue } from '#jobs/job-queue.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { SqliteReadModelStore } from '#read-models/sqlite/read-model-store.js';
import { DISPATCHER_CHECKPOINT, WebhookDispatcher } from './dispatcher.js';

const PLATFORM = 'Platform:7a0c6a2e-3f41-4c55-9d0e-5b8f0e1d2c3a';

/** Resolves once `check` holds, turning the event loop (no waits on real time beyond immediates). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 20_000 && !(await check()); i++) await new Promise((r) => setImmediate(r));
  expect(await check()).toBe(true);
}

/** The dispatcher's only use of a queue is `enqueue`: each call is recorded and answered as `answer` decides. */
function recordingQueue(answer: (id: string, call: number) => Promise<void>) {
  const enqueued = new Set<string>();
  let calls = 0;
  const queue = {
    async enqueue(_queue: string, _name: string, _data: unknown, options: JobOptions = {}) {
      const id = options.id!;
      await answer(id, calls++);
      enqueued.add(id);
      return id;
    },
  } as unknown as JobQueue;
  return { queue, enqueued };
}

describe('WebhookDispatcher: batches recorded and enqueued while the next ones are planned', () => {
  let dir: string;
  let store: SqliteEventStore;
  let readModels: SqliteReadModelStore;
  let dispatcher: WebhookDispatcher | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dispatcher-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    readModels = new SqliteReadModelStore(join(dir, 'read-models.db'));
    // The customers' projection has passed every event these tests append, with none of their documents: the event
    // map shows a customer it does not find by its id alone (a document found missing is read again only once the
    // projection that writes it has passed the batch in the store).
    await readModels.commitBatch('customers', undefined, 1_000_000n, async () => undefined);
    await store.appendToStream(`webhooks-${PLATFORM.slice('Platform:'.length)}`, [
      {
        type: 'WebhookEndpointChanged',
        data: {
          platformId: PLATFORM,
          webhookEndpoint: 'https://hooks.example.com/in',
          updatedAt: '2026-01-01T00:00:00Z',
        },
        metadata: {},
      },
    ]);
  });
  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
    await readModels.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * One KYC change per customer, each its own webhook; returns the position of the last (the deliveries the dispatcher
   * records come after it in the log, so its checkpoint ends past it).
   */
  async function kycChanges(n: number): Promise<{ first: bigint; last: bigint }> {
    const positions: bigint[] = [];
    for (let i = 0; i < n; i++) {
      const customerId = `Customer:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const appended = await store.appendToStream(`customer-${i}`, [
        {
          type: 'CustomerKycStatusChanged',
          data: { platformId: PLATFORM, customerId, kycStatus: 'APPROVED', updatedAt: '2026-01-01T00:00:00Z' },
          metadata: {},
        },
      ]);
      positions.push(appended.position);
    }
    return { first: positions[0], last: positions[n - 1] };
  }

  function start(queue: JobQueue, models: ReadModelStore = readModels) {
    dispatcher = new WebhookDispatcher({
      eventStore: store,
      readModels: models,
      jobs: queue,
      projections: { waitForPosition: async () => true },
      runner: new CommandRunner(store, undefined),
      batchSize: 1,
      retryDelayMs: 0,
      checkpointIntervalMs: 0,
      setAside: { attempts: 3, delaysMs: [0] },
    });
    return dispatcher.start();
  }

  /** The read models, except that reading customer 2 (whose KYC webhook shows it) fails as `fail` decides. */
  function failingCustomer(fail: (call: number) => Error | undefined): ReadModelStore {
    let calls = 0;
    return new Proxy(readModels, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property !== 'get' || typeof value !== 'function') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (collection: string, id: string) => {
          const error = id.endsWith('000000000002') ? fail(calls++) : undefined;
          return error ? Promise.reject(error) : target.get(collection, id);
        };
      },
    });
  }
  const setAside = async () => (await readModels.find(Collections.setAsideEvents, { limit: 10 })).data;

  it('does not checkpoint past a batch whose enqueue is still under way, though later batches finished', async () => {
    const { first, last } = await kycChanges(5);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { queue, enqueued } = recordingQueue((_id, call) => (call === 0 ? held : Promise.resolve()));
    await start(queue);
    try {
      // The first batch's job is held; up to three more batches are enqueued meanwhile, and the checkpoint timer runs.
      await until(() => enqueued.size === 3);
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
      // Written up to the endpoint's event before it, not past the held batch.
      expect((await readModels.getCheckpoint(DISPATCHER_CHECKPOINT)) ?? -1n).toBeLessThan(first);
      expect(dispatcher!.position ?? -1n).toBeLessThan(first);
    } finally {
      release();
    }
    await until(() => enqueued.size === 5);
    await until(async () => ((await readModels.getCheckpoint(DISPATCHER_CHECKPOINT)) ?? -1n) >= last);
  });

  it('a failed enqueue resumes from the checkpoint: every webhook enqueued, the checkpoint past them', async () => {
    const { last } = await kycChanges(6);
    let failed = false;
    const { queue, enqueued } = recordingQueue(async (_id, call) => {
      if (call === 2 && !failed) {
        failed = true;
        throw new Error('queue unavailable');
      }
    });
    await start(queue);
    await until(() => failed && enqueued.size === 6);
    await until(async () => ((await readModels.getCheckpoint(DISPATCHER_CHECKPOINT)) ?? -1n) >= last);
  });

  it('sets aside an event it keeps failing to turn into webhooks, with why, and dispatches the rest', async () => {
    const { first, last } = await kycChanges(5);
    const { queue, enqueued } = recordingQueue(() => Promise.resolve());
    await start(
      queue,
      failingCustomer(() => new RangeError('amount 18014398509481982 does not fit a JSON number')),
    );
    await until(() => enqueued.size === 4);
    await until(async () => ((await readModels.getCheckpoint(DISPATCHER_CHECKPOINT)) ?? -1n) >= last);
    expect(await setAside()).toEqual([
      expect.objectContaining({
        processor: DISPATCHER_CHECKPOINT,
        position: (first + 2n).toString(),
        eventType: 'CustomerKycStatusChanged',
        stream: 'customer-2',
        platformId: PLATFORM,
        error: 'RangeError: amount 18014398509481982 does not fit a JSON number',
        attempts: 3,
      }),
    ]);
  });

  it('resumes from the checkpoint after a transient failure instead of setting the event aside', async () => {
    const { last } = await kycChanges(5);
    const { queue, enqueued } = recordingQueue(() => Promise.resolve());
    const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    await start(
      queue,
      failingCustomer((call) => (call < 5 ? busy() : undefined)),
    );
    await until(() => enqueued.size === 5);
    await until(async () => ((await readModels.getCheckpoint(DISPATCHER_CHECKPOINT)) ?? -1n) >= last);
    expect(await setAside()).toEqual([]);
  });
});
