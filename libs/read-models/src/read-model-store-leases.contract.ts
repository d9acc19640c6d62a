import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createEventStore } from '#event-store/index.js';
import type { EventStore } from '#event-store/event-store.js';
import { ProjectionRunner, projectorLease, type ProjectionRunnerOptions } from './runner/projection-runner.js';
import type { Projection } from './projection.js';
import { ITEMS } from './read-model-store.fixtures.js';
import type { ReadModelContract } from './read-model-store.contract.js';
import { LeaseLost, type ReadModelStore } from './read-model-store.js';

/** The single-writer half of the ReadModelStore contract: leases, fencing tokens and concurrent runners. */
export const readModelLeaseContract: ReadModelContract = (name, factory, describeFn = describe) =>
  describeFn(`ReadModelStore lease contract: ${name}`, () => {
    let store: ReadModelStore;
    let connect: () => Promise<ReadModelStore>;
    let dispose: () => Promise<void>;

    beforeEach(async () => {
      ({ store, connect, dispose } = await factory());
    });
    afterEach(async () => {
      await dispose();
    });

    describe('single active writer', () => {
      it(
        'fences a lease: one holder at a time, a higher token for every new holder, stale tokens ' + 'refused',
        async () => {
          const t0 = 1_000_000;
          const first = await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 });
          expect(first).toEqual({ token: 1n, expiresAt: t0 + 100 });
          expect(await store.acquireLease({ name: 'L', holder: 'h2', ttlMs: 100, now: t0 + 50 })).toBeUndefined();
          // Re-acquiring a live lease keeps its token; renewing extends it.
          expect(await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 + 60 })).toEqual({
            token: 1n,
            expiresAt: t0 + 160,
          });
          expect(await store.renewLease('L', 'h1', 1n, 100, t0 + 90)).toEqual({ token: 1n, expiresAt: t0 + 190 });
          expect(await store.acquireLease({ name: 'L', holder: 'h2', ttlMs: 100, now: t0 + 150 })).toBeUndefined();

          // h1 stops renewing; after expiry h2 takes over with a higher token and h1 is fenced off.
          const second = await store.acquireLease({ name: 'L', holder: 'h2', ttlMs: 100, now: t0 + 200 });
          expect(second?.token).toBe(2n);
          expect(await store.readLease('L')).toEqual({ holder: 'h2', token: 2n, expiresAt: t0 + 300 });
          expect(await store.renewLease('L', 'h1', 1n, 100, t0 + 210)).toBeUndefined();
          let ran = 0;
          const stale = store.commitBatch(
            'p',
            undefined,
            5n,
            async (tx) => {
              ran++;
              tx.put(ITEMS, { id: 'a', by: 'h1' });
            },
            { lease: 'L', token: 1n },
          );
          await expect(stale).rejects.toBeInstanceOf(LeaseLost);
          await expect(
            store.advanceCheckpoints(
              new Map([['p', { expected: undefined, position: 5n, fence: { lease: 'L', token: 1n } }]]),
            ),
          ).rejects.toBeInstanceOf(LeaseLost);
          expect(ran).toBe(0);
          expect(await store.getCheckpoint('p')).toBeUndefined();
          await store.commitBatch('p', undefined, 5n, async (tx) => tx.put(ITEMS, { id: 'a', by: 'h2' }), {
            lease: 'L',
            token: 2n,
          });
          expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', by: 'h2' });

          // A released lease is free at once; a forced acquisition (a rebuild) preempts a live holder.
          await store.releaseLease('L', 'h1', 1n); // no longer its lease: changes nothing
          expect(await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 + 220 })).toBeUndefined();
          await store.releaseLease('L', 'h2', 2n);
          expect((await store.acquireLease({ name: 'L', holder: 'h1', ttlMs: 100, now: t0 + 230 }))?.token).toBe(3n);
          expect(
            (await store.acquireLease({ name: 'L', holder: 'rebuild', ttlMs: 100, now: t0 + 240, force: true }))?.token,
          ).toBe(4n);
          await expect(store.reset('p', [ITEMS], { lease: 'L', token: 3n })).rejects.toBeInstanceOf(LeaseLost);
          expect(await store.get(ITEMS, 'a')).toEqual({ id: 'a', by: 'h2' });
          await store.reset('p', [ITEMS], { lease: 'L', token: 4n });
          expect(await store.get(ITEMS, 'a')).toBeUndefined();
        },
      );

      it('refuses a batch of several projections when one of their leases passed to another holder', async () => {
        const t0 = 2_000_000;
        for (const name of ['L1', 'L2']) await store.acquireLease({ name, holder: 'h1', ttlMs: 100, now: t0 });
        const taken = await store.acquireLease({ name: 'L2', holder: 'h2', ttlMs: 100, now: t0 + 200 });
        expect(taken?.token).toBe(2n);
        let ran = 0;
        const batch = (l2: bigint) =>
          store.commitBatches(
            [
              { projection: 'q1', expected: undefined, position: 5n, fence: { lease: 'L1', token: 1n } },
              { projection: 'q2', expected: undefined, position: 5n, fence: { lease: 'L2', token: l2 } },
            ],
            async (tx) => {
              ran++;
              tx.put(ITEMS, { id: 'q', by: l2 === 1n ? 'h1' : 'h2' });
            },
          );
        const refused = await batch(1n).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(LeaseLost);
        expect(refused).toMatchObject({ lease: 'L2', token: 1n });
        expect(ran).toBe(0);
        expect(await store.get(ITEMS, 'q')).toBeUndefined();
        expect([await store.getCheckpoint('q1'), await store.getCheckpoint('q2')]).toEqual([undefined, undefined]);
        await batch(2n);
        expect(await store.get(ITEMS, 'q')).toEqual({ id: 'q', by: 'h2' });
        expect([await store.getCheckpoint('q1'), await store.getCheckpoint('q2')]).toEqual([5n, 5n]);
      });

      it('a batch reads what the previous holder of its lease wrote, not what it wrote itself before', async () => {
        const other = await connect();
        try {
          const t0 = 2_000_000;
          const bump = (readModels: ReadModelStore, expected: bigint | undefined, token: bigint) =>
            readModels.commitBatch(
              'p',
              expected,
              (expected ?? 0n) + 1n,
              async (tx) => {
                const doc = await tx.get<{ id: string; n: number }>(ITEMS, 'c');
                tx.put(ITEMS, { id: 'c', n: (doc?.n ?? 0) + 1 });
              },
              { lease: 'L', token },
            );
          const take = async (readModels: ReadModelStore, holder: string, now: number) =>
            (await readModels.acquireLease({ name: 'L', holder, ttlMs: 100, now, force: true }))!.token;
          const mine = await take(store, 'h1', t0);
          await bump(store, undefined, mine);
          await bump(store, 1n, mine);
          await bump(other, 2n, await take(other, 'h2', t0 + 10));
          await bump(store, 3n, await take(store, 'h1', t0 + 20));
          expect(await store.get(ITEMS, 'c')).toEqual({ id: 'c', n: 4 });
        } finally {
          await other.close();
        }
      });

      describe('two runners on one store (separate connections, as two processes)', () => {
        let dir: string;
        let events: EventStore;
        let other: ReadModelStore;
        const runners: ProjectionRunner[] = [];
        beforeEach(async () => {
          dir = mkdtempSync(join(tmpdir(), 'read-model-runners-'));
          events = await createEventStore({ kind: 'sqlite', path: join(dir, 'events.db') });
          other = await connect();
        });
        afterEach(async () => {
          for (const r of runners.splice(0)) await r.stop();
          await other.close();
          await events.close();
          rmSync(dir, { recursive: true, force: true });
        });

        const counter: Projection = {
          name: 'counter',
          collections: ['counts'],
          handles: ['Counted'],
          async apply(event, tx) {
            const doc = (await tx.get<{ id: string; n: number; last: number }>('counts', 'total')) ?? {
              id: 'total',
              n: 0,
              last: 0,
            };
            // Each event applied once, in order: `last` only ever grows by one.
            tx.put('counts', {
              id: 'total',
              n: doc.n + 1,
              last: event.data.i as number,
              gaps: doc.last + 1 === event.data.i ? 0 : 1,
            });
          },
        };
        const appendCounted = async (from: number, count: number) => {
          for (let i = from; i < from + count; i += 100) {
            const n = Math.min(100, from + count - i);
            await events.appendToStream(
              `counted-${i}`,
              Array.from({ length: n }, (_, k) => ({ type: 'Counted', data: { i: i + k + 1 } })),
            );
          }
        };
        const settle = async (...rs: ProjectionRunner[]) => {
          const head = await events.headPosition();
          for (let i = 0; i < 500 && (await store.getCheckpoint('counter')) !== head; i++)
            await new Promise((r) => setTimeout(r, 20));
          expect(await store.getCheckpoint('counter')).toBe(head);
          for (const r of rs) expect(await r.waitForPosition(head, 5000)).toBe(true);
        };
        const start = async (readModels: ReadModelStore, options: ProjectionRunnerOptions) => {
          const r = new ProjectionRunner(events, readModels, [counter], {
            batchSize: 37,
            retryDelayMs: 5,
            logger: { error: () => undefined },
            ...options,
          });
          runners.push(r);
          await r.start();
          return r;
        };

        it('two runners counting 2,000 events exactly, both projecting without leases', async () => {
          const a = await start(store, { lease: false });
          const b = await start(other, { lease: false });
          await Promise.all([appendCounted(0, 1000), appendCounted(1000, 1000)]);
          await settle(a, b);
          expect(await store.get('counts', 'total')).toMatchObject({ n: 2000, gaps: 0 });
        });

        it(
          'two runners counting 2,000 events exactly with leases: one projects, the other takes ' +
            'over when it stops',
          async () => {
            const lease = { ttlMs: 400, renewEveryMs: 40 };
            const a = await start(store, { lease });
            const b = await start(other, { lease });
            expect((await store.readLease(projectorLease('counter')))?.holder).toBe(a.leaseHolder);
            await appendCounted(0, 1000);
            await settle(a, b);
            expect(await store.get('counts', 'total')).toMatchObject({ n: 1000, gaps: 0 });
            await a.stop();
            await appendCounted(1000, 1000);
            await settle(b);
            expect((await store.readLease(projectorLease('counter')))?.holder).toBe(b.leaseHolder);
            expect(await store.get('counts', 'total')).toMatchObject({ n: 2000, gaps: 0 });
          },
        );

        it('a rebuild takes the lease from a projecting runner and replays to the same count', async () => {
          const lease = { ttlMs: 400, renewEveryMs: 40 };
          const worker = await start(store, { lease });
          await appendCounted(0, 600);
          await settle(worker);
          const cli = new ProjectionRunner(events, other, [counter], { batchSize: 50, lease });
          const writing = appendCounted(600, 600);
          await cli.rebuild();
          await writing;
          await settle(worker);
          expect(await store.get('counts', 'total')).toMatchObject({ n: 1200, gaps: 0 });
        });
      });
    });
  });
