import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createEventStore } from '#event-store/index.js';
import type { EventStore } from '#event-store/event-store.js';
import { ProjectionRunner } from './projection-runner.js';
import type { Projection } from '../projection.js';
import type { ReadModelStore } from '../read-model-store.js';
import { SqliteReadModelStore } from '../sqlite/read-model-store.js';

const projection = (name: string): Projection => ({ name, collections: [], handles: [], apply: async () => undefined });

/**
 * Counts checkpoint reads and holds each one until the test releases it, so that a tick of the
 * shared poller is observed as one group of reads (no timing assumptions).
 */
class GatedCheckpoints {
  reads: string[] = [];
  /** Looks at the store's commit version. */
  looks = 0;
  private held: (() => void)[] = [];
  private onRead?: () => void;
  private onLook?: () => void;

  constructor(private readonly inner: ReadModelStore) {}

  store(): ReadModelStore {
    return new Proxy(this.inner, {
      get: (target, key) => {
        if (key === 'commitVersion')
          return () => {
            this.looks++;
            this.onLook?.();
            return target.commitVersion!();
          };
        if (key !== 'getCheckpoint') return Reflect.get(target, key, target);
        return async (name: string) => {
          this.reads.push(name);
          this.onRead?.();
          await new Promise<void>((resolve) => this.held.push(resolve));
          return target.getCheckpoint(name);
        };
      },
    });
  }

  /** Resolves once `count` reads in total were started. */
  untilReads(count: number): Promise<void> {
    if (this.reads.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      this.onRead = () => {
        if (this.reads.length >= count) {
          this.onRead = undefined;
          resolve();
        }
      };
    });
  }

  /** Resolves once the store's commit version was looked at `count` times in total. */
  untilLooks(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.onLook = () => {
        if (this.looks >= count) {
          this.onLook = undefined;
          resolve();
        }
      };
    });
  }

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

describe('shared checkpoint poller (a process that runs no projector)', () => {
  let dir: string;
  let eventStore: EventStore;
  let readModels: SqliteReadModelStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkpoint-poller-'));
    eventStore = await createEventStore({ kind: 'sqlite', path: join(dir, 'events.db') });
    readModels = new SqliteReadModelStore(join(dir, 'read-models.db'));
  });

  afterEach(async () => {
    await readModels.close();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A runner that is never started: an API process whose projections a worker runs. */
  const waitingRunner = (gate: GatedCheckpoints) =>
    new ProjectionRunner(eventStore, gate.store(), [projection('x'), projection('y')], {
      lease: false,
      pollIntervalMs: 1,
    });

  const advance = async (name: string, position: bigint) =>
    readModels.commitBatch(name, await readModels.getCheckpoint(name), position, async () => undefined);

  it('reads each checkpoint once per tick for any number of waiters; a waiter needs only its projections', async () => {
    const gate = new GatedCheckpoints(readModels);
    const api = waitingRunner(gate);
    const waitersPerKind = 50;
    const settled = { x: 0, all: 0 };
    const forX = Array.from({ length: waitersPerKind }, () =>
      api.waitForPosition(10n, 60_000, ['x']).then((ok) => (settled.x++, ok)),
    );
    const forAll = Array.from({ length: waitersPerKind }, () =>
      api.waitForPosition(10n, 60_000).then((ok) => (settled.all++, ok)),
    );

    // First tick: one read per projection for the 100 waiters.
    await gate.untilReads(2);
    expect(gate.reads.sort()).toEqual(['x', 'y']);
    await advance('x', 10n);
    gate.release();

    // Second tick: the waiters on x alone are released although y lags; the others still wait.
    await gate.untilReads(4);
    expect(await Promise.all(forX)).toEqual(Array(waitersPerKind).fill(true));
    expect(settled.all).toBe(0);
    expect(gate.reads.slice(2).sort()).toEqual(['x', 'y']);

    await advance('y', 12n);
    gate.release();
    expect(await Promise.all(forAll)).toEqual(Array(waitersPerKind).fill(true));
    // Two reads per tick (the two projections), never one per waiter.
    expect(gate.reads.length % 2).toBe(0);
    expect(gate.reads.length).toBeLessThanOrEqual(6);
    expect(api.position).toBe(10n);
  });

  it('reads a checkpoint again only once a connection has committed to the store, however often it looks', async () => {
    const gate = new GatedCheckpoints(readModels);
    const api = waitingRunner(gate);
    const waiting = api.waitForPosition(7n, 60_000, ['x']);
    await gate.untilReads(1);
    gate.release();
    // Twenty ticks with nothing committed: the version is looked at, the checkpoint is not read again.
    await gate.untilLooks(gate.looks + 20);
    expect(gate.reads).toEqual(['x']);
    // A commit on the store's own connection counts too (the version is read on a connection that commits nothing).
    await advance('x', 7n);
    await gate.untilReads(2);
    gate.release();
    expect(await waiting).toBe(true);
    expect(gate.reads).toEqual(['x', 'x']);
  });

  it('polls only the projections waited for, and times a waiter out when they never reach the position', async () => {
    const gate = new GatedCheckpoints(readModels);
    const api = waitingRunner(gate);
    const waiting = api.waitForPosition(5n, 20, ['y']);
    await gate.untilReads(1);
    // Only the projection a waiter reads is polled.
    expect(gate.reads).toEqual(['y']);
    expect(await waiting).toBe(false);
    gate.release();
    await expect(api.waitForPosition(1n, 10, ['nope'])).rejects.toThrow('unknown projection nope');
  });
});
