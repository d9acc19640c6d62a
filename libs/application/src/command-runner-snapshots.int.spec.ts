import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider } from '#domain/decider.js';
import type { SnapshotCodec } from '#domain/snapshot-codec.js';
import { available, ledgerDecider, transferStatus, type LedgerCommand } from '#domain/ledger/ledger.js';
import type { EventStore, ReadStreamOptions } from '#event-store/event-store.js';
import type { Snapshot } from '#event-store/snapshot-store.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { CommandRunner } from './command-runner.js';

/** A tally per key in a Map (so its snapshot needs a codec); `Add` refuses past a limit per key. */
type Tally = { counts: Map<string, number>; adds: number };
type TallyEvent = { type: 'Added'; data: { key: string; by: number } };
type TallyCommand = { key: string; by: number };
const codec = (version: number): SnapshotCodec<Tally> => ({
  name: 'tally',
  version,
  encode: (s) => ({ counts: [...s.counts], adds: s.adds }),
  decode: (e) => {
    const { counts, adds } = e as { counts: [string, number][]; adds: number };
    return { counts: new Map(counts), adds };
  },
});
const plain: Decider<Tally, TallyCommand, TallyEvent> = {
  initialState: () => ({ counts: new Map(), adds: 0 }),
  evolve: (s, e) => {
    s.counts.set(e.data.key, (s.counts.get(e.data.key) ?? 0) + e.data.by);
    s.adds += 1;
    return s;
  },
  decide: (c, s) => {
    if ((s.counts.get(c.key) ?? 0) + c.by > 1_000_000) throw new Error('over the limit');
    return [{ type: 'Added', data: { key: c.key, by: c.by } }];
  },
};
const tally: Decider<Tally, TallyCommand, TallyEvent> = { ...plain, snapshot: codec(1) };
const metadata = { actor: 'test' };
const add = (runner: CommandRunner, stream: string, n: number, decider = tally) =>
  Promise.all(
    Array.from({ length: n }, (_, i) => runner.run(stream, decider, { key: `k${i % 7}`, by: i }, { metadata })),
  );

const NOW = '2026-01-05T00:00:00.000Z';
const settlement = { id: 'settlement', currency: 'USD', allowNegative: true };
const customer = { id: 'customer', currency: 'USD', allowNegative: false };
const fund = (id: string, amount = 10n): Extract<LedgerCommand, { type: 'CreateTransfer' }> => ({
  type: 'CreateTransfer',
  id,
  debit: settlement,
  credit: customer,
  amount,
  code: 'TEST',
  now: NOW,
});
const hold = (id: string): LedgerCommand => ({ ...fund(id, 5n), debit: customer, credit: settlement, pending: true });

describe('CommandRunner snapshots', () => {
  let dir: string;
  let store: SqliteEventStore;
  /** The first revision of every stream read the runner made, in order. */
  let reads: bigint[];
  let counted: EventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'runner-snapshots-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    reads = [];
    counted = Object.assign(Object.create(store) as EventStore, {
      readStream(stream: string, options?: ReadStreamOptions) {
        reads.push(options?.fromRevision ?? 0n);
        return store.readStream(stream, options);
      },
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('snapshots a stream that grew by `every` events; after a restart a load reads only what follows', async () => {
    const runner = new CommandRunner(counted, undefined, { snapshots: { every: 10 } });
    await add(runner, 'tally-a', 25);
    await runner.snapshotsWritten();
    const snapshot = await store.snapshots.readSnapshot('tally-a');
    expect(snapshot).toMatchObject({ decider: 'tally', version: 1 });
    expect(snapshot!.revision).toBeGreaterThanOrEqual(9n);
    const events = await store.readStream('tally-a');
    expect(snapshot!.eventId).toBe(events[Number(snapshot!.revision)].id);

    const restarted = new CommandRunner(counted, undefined, { snapshots: { every: 10 } });
    reads = [];
    const loaded = await restarted.load('tally-a', tally);
    // One read of the snapshot's own event (to check it), one of the tail after it: never from revision 0.
    expect(reads).toEqual([snapshot!.revision, snapshot!.revision + 1n]);
    const whole = await new CommandRunner(store, undefined, { snapshots: { every: 0 } }).load('tally-a', tally);
    expect(loaded).toEqual(whole);
    expect(loaded.state.adds).toBe(25);
  });

  it('decides on a state restored from a snapshot as on the state folded whole', async () => {
    const runner = new CommandRunner(store, undefined, { snapshots: { every: 5 } });
    await add(runner, 'tally-b', 40);
    await runner.snapshotsWritten();
    const restored = new CommandRunner(store, undefined, { snapshots: { every: 5 } });
    const folded = new CommandRunner(store, undefined, { snapshots: { every: 0 } });
    const [a, b] = await Promise.all([restored.load('tally-b', tally), folded.load('tally-b', tally)]);
    expect(a).toEqual(b);
    expect((await store.snapshots.readSnapshot('tally-b'))!.revision).toBeGreaterThan(0n);
    const next = await restored.run('tally-b', tally, { key: 'k1', by: 3 }, { metadata });
    expect(next.state).toEqual((await folded.load('tally-b', tally)).state);
  });

  it('ignores a snapshot of another codec version and takes a new one', async () => {
    await add(new CommandRunner(store, undefined, { snapshots: { every: 0 } }), 'tally-c', 12);
    const events = await store.readStream('tally-c');
    // A version-1 snapshot claiming a state the stream never had: version 2 must not use it.
    const wrong = JSON.stringify({ counts: [['k0', 999]], adds: 1 });
    await store.snapshots.writeSnapshot({
      streamName: 'tally-c',
      decider: 'tally',
      version: 1,
      revision: 11n,
      eventId: events[11].id,
      state: wrong,
    });
    const v2 = { ...plain, snapshot: codec(2) };
    const runner = new CommandRunner(counted, undefined, { snapshots: { every: 10 } });
    reads = [];
    const { state } = await runner.load('tally-c', v2);
    expect(reads).toEqual([0n]);
    expect(state.adds).toBe(12);
    await runner.snapshotsWritten();
    expect(await store.snapshots.readSnapshot('tally-c')).toMatchObject({ version: 2, revision: 11n });
  });

  it('ignores a snapshot whose event is not the stream event at its revision', async () => {
    await add(new CommandRunner(store, undefined, { snapshots: { every: 0 } }), 'tally-d', 12);
    const forged: Snapshot = {
      streamName: 'tally-d',
      decider: 'tally',
      version: 1,
      revision: 11n,
      eventId: 'not-the-event',
      state: JSON.stringify({ counts: [], adds: 0 }),
    };
    await store.snapshots.writeSnapshot(forged);
    const { state } = await new CommandRunner(store, undefined, { snapshots: { every: 10 } }).load('tally-d', tally);
    expect(state.adds).toBe(12);
  });

  it('never fails a command on a snapshot that cannot be written or read', async () => {
    const failing = Object.assign(Object.create(store) as EventStore, {
      snapshots: {
        readSnapshot: () => Promise.reject(new Error('snapshot read refused')),
        writeSnapshot: () => Promise.reject(new Error('snapshot write refused')),
      },
    });
    const runner = new CommandRunner(failing, undefined, { snapshots: { every: 3 } });
    const results = await add(runner, 'tally-e', 20);
    expect(results.every((r) => r.events.length === 1)).toBe(true);
    await runner.snapshotsWritten();
    const restarted = new CommandRunner(failing, undefined, { snapshots: { every: 3 } });
    expect((await restarted.load('tally-e', tally)).state.adds).toBe(20);
  });

  it('snapshots only deciders that declare a codec', async () => {
    const runner = new CommandRunner(store, undefined, { snapshots: { every: 2 } });
    await add(runner, 'tally-f', 10, plain);
    await runner.snapshotsWritten();
    expect(await store.snapshots.readSnapshot('tally-f')).toBeUndefined();
  });

  it('takes a large state again only once the stream grew by one event per `bytesPerEvent` bytes of it', async () => {
    // Every command adds a key: the state grows with the stream, as a ledger's does.
    const wide = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `key-${from + i}-${'x'.repeat(40)}`, by: 1 }));
    const runner = new CommandRunner(store, undefined, { snapshots: { every: 10, bytesPerEvent: 4 } });
    const run = (cmds: TallyCommand[]) => Promise.all(cmds.map((c) => runner.run('tally-g', tally, c, { metadata })));
    await run(wide(30, 0));
    await runner.snapshotsWritten();
    const first = (await store.snapshots.readSnapshot('tally-g'))!;
    // About 55 bytes a key: the next snapshot waits for about 55 / 4 times as many events as keys it holds.
    const wait = BigInt(Math.ceil(first.state.length / 4));
    expect(wait).toBeGreaterThan(10n);
    await run(wide(Number(wait) - 5, 1000));
    await runner.snapshotsWritten();
    expect((await store.snapshots.readSnapshot('tally-g'))!.revision).toBe(first.revision);
    await run(wide(10, 5000));
    await runner.snapshotsWritten();
    expect((await store.snapshots.readSnapshot('tally-g'))!.revision).toBeGreaterThan(first.revision);
  });

  // A ledger's snapshot keeps its settled transfers as a digest, not as records.
  it('a restored ledger decides repeats, conflicts and resolved holds as one folded whole', async () => {
    const runner = new CommandRunner(store, undefined, { snapshots: { every: 5, bytesPerEvent: 1 } });
    const run = (r: CommandRunner, cmd: LedgerCommand) => r.run('ledger-p', ledgerDecider, cmd, { metadata });
    for (let i = 0; i < 12; i++) await run(runner, fund(`fund-${i}`));
    for (let i = 0; i < 6; i++) await run(runner, hold(`hold-${i}`));
    await run(runner, { type: 'PostPendingTransfer', id: 'post-0', pendingId: 'hold-0', now: NOW });
    await run(runner, { type: 'VoidPendingTransfer', id: 'void-1', pendingId: 'hold-1', now: NOW });
    for (let i = 12; i < 20; i++) await run(runner, fund(`fund-${i}`));
    await runner.snapshotsWritten();
    const snapshot = await store.snapshots.readSnapshot('ledger-p');
    expect(snapshot).toMatchObject({ decider: 'ledger', version: 2 });
    // The runner that wrote the snapshot reads its settled transfers from the snapshot's file, as a restart does.
    const { state: kept } = await runner.load('ledger-p', ledgerDecider);
    expect(kept.settled.size).toBeGreaterThan(0);
    expect(kept.settled.held).toBe(false);

    const restarted = new CommandRunner(store, undefined, { snapshots: { every: 5, bytesPerEvent: 1 } });
    const whole = new CommandRunner(store, undefined, { snapshots: { every: 0 } });
    const { state } = await restarted.load('ledger-p', ledgerDecider);
    expect(state.settled.size).toBeGreaterThan(0);
    expect(state.settled.held).toBe(false);
    expect(available(state.accounts.get('customer')!)).toBe(200n - 5n - 20n);
    for (const r of [runner, restarted, whole]) {
      // a repeat changes nothing; the same id with another amount is refused
      expect((await run(r, fund('fund-3'))).events).toEqual([]);
      await expect(run(r, fund('fund-3', 11n))).rejects.toMatchObject({ code: 'TRANSFER_EXISTS' });
      expect(
        (await run(r, { type: 'PostPendingTransfer', id: 'post-0', pendingId: 'hold-0', now: NOW })).events,
      ).toEqual([]);
      await expect(
        run(r, { type: 'VoidPendingTransfer', id: 'void-0', pendingId: 'hold-0', now: NOW }),
      ).rejects.toMatchObject({ code: 'PENDING_TRANSFER_RESOLVED' });
      await expect(
        run(r, { type: 'PostPendingTransfer', id: 'post-x', pendingId: 'fund-4', now: NOW }),
      ).rejects.toMatchObject({ code: 'PENDING_TRANSFER_NOT_FOUND' });
    }
    const [a, b] = await Promise.all([
      restarted.load('ledger-p', ledgerDecider),
      whole.load('ledger-p', ledgerDecider),
    ]);
    expect(a.state.accounts).toEqual(b.state.accounts);
    for (const id of ['fund-0', 'hold-0', 'hold-1', 'hold-2', 'post-0', 'void-1', 'fund-19', 'none'])
      expect(transferStatus(a.state, id)).toEqual(transferStatus(b.state, id));
    // an open hold is still a record and can be posted
    const posted = await run(restarted, { type: 'PostPendingTransfer', id: 'post-2', pendingId: 'hold-2', now: NOW });
    expect(posted.events.map((e) => e.type)).toEqual(['PendingTransferPosted']);
  });
});
