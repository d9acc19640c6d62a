import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventStore } from './event-store.js';
import { event, newStream, useOpenStore } from './event-store.contract.js';
import type { Snapshot, SnapshotStore } from './snapshot-store.js';

const snapshotOf = (streamName: string, overrides: Partial<Snapshot> = {}): Snapshot => ({
  streamName,
  decider: 'contract',
  version: 1,
  revision: 2n,
  eventId: randomUUID(),
  state: JSON.stringify({ total: 3, names: ['ä', '€', '😀'] }),
  ...overrides,
});

/**
 * The behaviour every adapter's snapshot store must show (`store.snapshots`): snapshots kept beside a stream, the
 * newest kept, large states whole, and never seen as events.
 */
export function snapshotStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`SnapshotStore contract: ${name}`, () => {
    let store: EventStore;
    let snapshots: SnapshotStore;
    useOpenStore(open, (opened) => {
      store = opened;
      if (!store.snapshots) throw new Error(`${name} keeps no snapshots`);
      snapshots = store.snapshots;
    });

    it('has no snapshot for a stream that never had one', async () => {
      expect(await snapshots.readSnapshot(newStream())).toBeUndefined();
    });

    it('reads back what was written, for its own stream only', async () => {
      const [one, two] = [newStream(), newStream()];
      const first = snapshotOf(one);
      await snapshots.writeSnapshot(first);
      expect(await snapshots.readSnapshot(one)).toEqual(first);
      expect(await snapshots.readSnapshot(two)).toBeUndefined();
    });

    it('keeps the newest: a later revision replaces it, an earlier one from a slower writer does not', async () => {
      const stream = newStream();
      await snapshots.writeSnapshot(snapshotOf(stream, { revision: 5n, state: '"five"' }));
      const newer = snapshotOf(stream, { revision: 9n, state: '"nine"' });
      await snapshots.writeSnapshot(newer);
      await snapshots.writeSnapshot(snapshotOf(stream, { revision: 7n, state: '"seven"' }));
      expect(await snapshots.readSnapshot(stream)).toEqual(newer);
    });

    it('replaces a snapshot of another decider or version, whatever its revision', async () => {
      const stream = newStream();
      await snapshots.writeSnapshot(snapshotOf(stream, { revision: 9n }));
      const rebuilt = snapshotOf(stream, { revision: 4n, version: 2 });
      await snapshots.writeSnapshot(rebuilt);
      expect(await snapshots.readSnapshot(stream)).toEqual(rebuilt);
      const other = snapshotOf(stream, { revision: 3n, decider: 'another' });
      await snapshots.writeSnapshot(other);
      expect(await snapshots.readSnapshot(stream)).toEqual(other);
    });

    it('keeps a state larger than one append whole', async () => {
      const stream = newStream();
      // About 3.7 MB of text with multi-byte characters, over three times the default append limit.
      const big = JSON.stringify(Array.from({ length: 150_000 }, (_, i) => `€ transfer ${i} ${'x'.repeat(i % 7)}`));
      expect(Buffer.byteLength(big)).toBeGreaterThan(3 * store.maxAppendBytes);
      const snapshot = snapshotOf(stream, { revision: 123_456n, state: big });
      await snapshots.writeSnapshot(snapshot);
      const read = await snapshots.readSnapshot(stream);
      expect(read?.state.length).toBe(big.length);
      expect(read).toEqual(snapshot);
      // A second large snapshot of the same stream is read whole too.
      const again = snapshotOf(stream, { revision: 200_000n, state: `${big.slice(0, -1)},"end"]` });
      await snapshots.writeSnapshot(again);
      expect(await snapshots.readSnapshot(stream)).toEqual(again);
    });

    it('keeps a binary part, whole however large, read by range, and none where none was written', async () => {
      const stream = newStream();
      // Bytes of every value, over three times the default append limit, after a state with multi-byte characters.
      const binary = Buffer.alloc(3 * store.maxAppendBytes + 12_345, 0);
      for (let i = 0; i < binary.length; i++) binary[i] = (i * 31 + (i >> 8)) & 0xff;
      const snapshot = snapshotOf(stream, { revision: 77n, binary });
      await snapshots.writeSnapshot(snapshot);
      const read = await snapshots.readSnapshot(stream);
      expect(read?.state).toBe(snapshot.state);
      const part = read!.binary!;
      expect(part.byteLength).toBe(binary.length);
      expect(Buffer.from(part.read(0, part.byteLength)).equals(binary)).toBe(true);
      expect(Buffer.from(part.read(store.maxAppendBytes - 7, 20))).toEqual(
        binary.subarray(store.maxAppendBytes - 7, store.maxAppendBytes + 13),
      );
      expect(() => part.read(binary.length - 1, 2)).toThrow(RangeError);
      // A later snapshot without one leaves none behind.
      await snapshots.writeSnapshot(snapshotOf(stream, { revision: 78n }));
      expect((await snapshots.readSnapshot(stream))?.binary).toBeUndefined();
    });

    it('answers the binary part it keeps, if it reads it by range, with the bytes written; else nothing', async () => {
      const stream = newStream();
      const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) & 0xff));
      const kept = await snapshots.writeSnapshot(snapshotOf(stream, { revision: 10n, binary }));
      if (kept) expect(Buffer.from(kept.read(0, kept.byteLength))).toEqual(binary);
      // not kept (older than the one kept), or without a binary part: nothing to read
      expect(await snapshots.writeSnapshot(snapshotOf(stream, { revision: 9n, binary }))).toBeUndefined();
      expect(await snapshots.writeSnapshot(snapshotOf(stream, { revision: 11n }))).toBeUndefined();
    });

    it('keeps an empty state', async () => {
      const stream = newStream();
      const empty = snapshotOf(stream, { state: '' });
      await snapshots.writeSnapshot(empty);
      expect(await snapshots.readSnapshot(stream)).toEqual(empty);
    });

    it('is not an event: streams, the log and subscriptions never show a snapshot', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event(0), event(1)], { expectedRevision: 'no_stream' });
      const head = await store.headPosition();
      const [last] = await store.readLast(1);
      const written = await store.readStream(stream);
      await snapshots.writeSnapshot(snapshotOf(stream, { revision: 1n, eventId: written[1].id }));
      expect(await store.readStream(stream)).toEqual(written);
      expect(await store.headPosition()).toBe(head);
      expect((await store.readLast(1))[0]?.id).toBe(last?.id);
      const after = await store.readAll({ after: written[0].position - 1n });
      expect(after.every((e) => !e.streamName.includes('snapshot') && e.type !== '$snapshot')).toBe(true);
      // The stream goes on from its own revision: the snapshot took none.
      const next = await store.appendToStream(stream, [event(2)], { expectedRevision: 1n });
      expect(next.nextExpectedRevision).toBe(2n);
      const seen: string[] = [];
      const subscription = store.subscribeToAll((e) => void seen.push(e.streamName), { after: head });
      await new Promise<void>((resolve) => {
        const poll = () => (seen.includes(stream) ? resolve() : setTimeout(poll, 5));
        poll();
      });
      await subscription.stop();
      expect(seen.filter((s) => s.includes('snapshot'))).toEqual([]);
    });
  });
}
