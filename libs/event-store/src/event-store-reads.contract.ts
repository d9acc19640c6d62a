import { describe, expect, it } from '@jest/globals';
import { SubscriptionEnded, type EventStore, type RecordedEvent } from './event-store.js';

/** Polls an asynchronous condition with a bounded deadline. */
import { event, eventually, expectIncreasing, newStream, useOpenStore } from './event-store.contract.js';

/** The reading half of the EventStore contract: the global log in order, paging, and catch-up subscriptions. */
export function eventStoreReadContract(name: string, open: () => Promise<EventStore>): void {
  describe(`EventStore read contract: ${name}`, () => {
    let store: EventStore;
    useOpenStore(open, (opened) => (store = opened));

    it('readAll returns the global order and pages with after/maxCount', async () => {
      const head = await store.headPosition();
      const [a, b, c] = [newStream(), newStream(), newStream()];
      const order: Array<[string, number]> = [
        [a, 0],
        [b, 1],
        [a, 2],
        [c, 3],
        [b, 4],
        [a, 5],
      ];
      let lastPosition = 0n;
      for (const [stream, n] of order) lastPosition = (await store.appendToStream(stream, [event(n)])).position;
      const ours = new Set([a, b, c]);
      const all = (await store.readAll({ after: head })).filter((e) => ours.has(e.streamName));
      expect(all.map((e) => [e.streamName, (e.data as { n: number }).n])).toEqual(order);
      expectIncreasing(all.map((e) => e.position));
      expect(await store.headPosition()).toBe(lastPosition);

      const paged: RecordedEvent[] = [];
      let cursor = head;
      for (;;) {
        const page = await store.readAll({ after: cursor, maxCount: 2 });
        expect(page.length).toBeLessThanOrEqual(2);
        if (page.length === 0) break;
        paged.push(...page);
        cursor = page[page.length - 1]!.position;
      }
      expect(paged.filter((e) => ours.has(e.streamName)).map((e) => e.id)).toEqual(all.map((e) => e.id));
      expect(await store.readAll({ after: lastPosition })).toEqual([]);
      expect(await store.readAll({ after: head, maxCount: 0 })).toEqual([]);
    });

    it('readAll with types returns only events of those types, maxCount counting only them', async () => {
      const head = await store.headPosition();
      const stream = newStream();
      const kinds = ['Kept', 'Skipped', 'Skipped', 'Also', 'Kept', 'Skipped', 'Also'];
      for (const [n, type] of kinds.entries()) await store.appendToStream(stream, [event(n, { type })]);
      const kept = (events: RecordedEvent[]) =>
        events.filter((e) => e.streamName === stream).map((e) => [e.type, (e.data as { n: number }).n]);
      const all = await store.readAll({ after: head, types: ['Kept', 'Also'] });
      expect(all.every((e) => e.type === 'Kept' || e.type === 'Also')).toBe(true);
      expect(kept(all)).toEqual([
        ['Kept', 0],
        ['Also', 3],
        ['Kept', 4],
        ['Also', 6],
      ]);
      expectIncreasing(all.map((e) => e.position));

      const first = await store.readAll({ after: head, types: ['Kept', 'Also'], maxCount: 2 });
      expect(kept(first)).toEqual([
        ['Kept', 0],
        ['Also', 3],
      ]);
      const rest = await store.readAll({ after: first[1]!.position, types: ['Kept', 'Also'], maxCount: 10 });
      expect(kept(rest)).toEqual([
        ['Kept', 4],
        ['Also', 6],
      ]);
      expect(await store.readAll({ after: head, types: [] })).toEqual([]);
      expect(await store.readAll({ after: rest[1]!.position, types: ['Kept'] })).toEqual([]);
    });

    it('a catch-up subscription delivers events after a position, then live events, one at a time', async () => {
      const stream = newStream();
      const first = await store.appendToStream(stream, [event(0)]);
      await store.appendToStream(stream, [event(1)]);
      await store.appendToStream(stream, [event(2)]);
      const received: RecordedEvent[] = [];
      let running = 0;
      let overlapped = false;
      const subscription = store.subscribeToAll(
        async (e) => {
          running += 1;
          if (running > 1) overlapped = true;
          await new Promise((resolve) => setImmediate(resolve));
          if (e.streamName === stream) received.push(e);
          running -= 1;
        },
        { after: first.position },
      );
      await eventually(() => received.length === 2);
      await store.appendToStream(stream, [event(3), event(4)]);
      await eventually(() => received.length === 4);
      await subscription.stop();
      await subscription.done;
      expect(received.map((e) => e.revision)).toEqual([1n, 2n, 3n, 4n]);
      expectIncreasing(received.map((e) => e.position));
      expect(overlapped).toBe(false);
    });

    it('stop() resolves only once the running handler has finished', async () => {
      const head = await store.headPosition();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      let finished = false;
      const subscription = store.subscribeToAll(
        async () => {
          started = true;
          await gate;
          finished = true;
        },
        { after: head },
      );
      await store.appendToStream(newStream(), [event(0)]);
      await eventually(() => started);
      let stopped = false;
      const stopping = subscription.stop().then(() => (stopped = true));
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(finished).toBe(true);
    });

    it('done rejects when a handler throws', async () => {
      const head = await store.headPosition();
      const subscription = store.subscribeToAll(
        () => {
          throw new Error('handler failed');
        },
        { after: head },
      );
      await store.appendToStream(newStream(), [event(0)]);
      await expect(subscription.done).rejects.toThrow('handler failed');
      await subscription.stop();
    });

    it(
      'an ended subscription rejects: done fails with SubscriptionEnded when the store ends it ' + 'without stop()',
      async () => {
        const own = await open();
        const stream = newStream();
        const head = (await own.appendToStream(stream, [event(0)])).position;
        const seen: number[] = [];
        const ended = own.subscribeToAll((e) => void seen.push((e.data as { n: number }).n), { after: head - 1n });
        const stopped = own.subscribeToAll(() => undefined, { after: head });
        await eventually(() => seen.length === 1);
        await stopped.stop();
        await expect(stopped.done).resolves.toBeUndefined();
        await own.close();
        await expect(ended.done).rejects.toBeInstanceOf(SubscriptionEnded);
        expect(seen).toEqual([0]);
      },
    );
  });
}
