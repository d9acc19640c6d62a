import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GENESIS_HASH, verifyChain } from './hash-chain.js';
import {
  AppendTooLarge,
  WrongExpectedVersion,
  appendBytes,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from './event-store.js';

/** Polls an asynchronous condition with a bounded deadline. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const event = (n: number, extra: Partial<NewEvent> = {}): NewEvent => ({
  type: 'ContractTested',
  data: { n, text: `event ${n}` },
  metadata: { platformId: 'Platform:contract', correlationId: `corr-${n}` },
  ...extra,
});

export const newStream = () => `contract-${randomUUID()}`;

export async function expectWrongVersion(
  promise: Promise<unknown>,
  streamName: string,
  expected: ExpectedRevision,
  actual: bigint | 'no_stream',
) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersion);
  const wrong = error as WrongExpectedVersion;
  expect(wrong.streamName).toBe(streamName);
  expect(wrong.expected).toBe(expected);
  expect(wrong.actual).toBe(actual);
}

/** Opens a store before the suite's tests (handing it to `opened`) and closes it after them. */
export function useOpenStore(open: () => Promise<EventStore>, opened: (store: EventStore) => void): void {
  let store: EventStore | undefined;
  beforeAll(async () => {
    store = await open();
    opened(store);
  });
  afterAll(async () => {
    await store?.close();
  });
}

export function expectIncreasing(positions: bigint[]) {
  for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).toBe(true);
}

/**
 * The behaviour every EventStore adapter must show. `open` returns a store over the same
 * underlying storage each time it is called (so a store opened after another was closed sees
 * what the first wrote); every test uses fresh stream names, so the storage may be shared.
 */
export function eventStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    useOpenStore(open, (opened) => (store = opened));

    it('appends events and reads them back in revision order', async () => {
      const stream = newStream();
      const id = randomUUID();
      const result = await store.appendToStream(stream, [event(0, { id }), event(1), event(2)], {
        expectedRevision: 'no_stream',
      });
      expect(result.nextExpectedRevision).toBe(2n);
      const events = await store.readStream(stream);
      expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      expect(events[0]).toMatchObject({
        id,
        type: 'ContractTested',
        data: { n: 0, text: 'event 0' },
        metadata: { platformId: 'Platform:contract', correlationId: 'corr-0' },
        streamName: stream,
      });
      expect(events[0]!.recordedAt).toBeInstanceOf(Date);
      expect(Number.isNaN(events[0]!.recordedAt.getTime())).toBe(false);
      expect(new Set(events.map((e) => e.id)).size).toBe(3);
      expectIncreasing(events.map((e) => e.position));
      expect(events[2]!.position).toBe(result.position);
    });

    it('reads an empty array for a stream that does not exist', async () => {
      expect(await store.readStream(newStream())).toEqual([]);
    });

    it("'no_stream' succeeds only while the stream does not exist", async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event(0)], { expectedRevision: 'no_stream' });
      await expectWrongVersion(
        store.appendToStream(stream, [event(1)], { expectedRevision: 'no_stream' }),
        stream,
        'no_stream',
        0n,
      );
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it("'stream_exists' fails on a missing stream and succeeds on an existing one", async () => {
      const stream = newStream();
      await expectWrongVersion(
        store.appendToStream(stream, [event(0)], { expectedRevision: 'stream_exists' }),
        stream,
        'stream_exists',
        'no_stream',
      );
      expect(await store.readStream(stream)).toEqual([]);
      await store.appendToStream(stream, [event(0)], { expectedRevision: 'no_stream' });
      const result = await store.appendToStream(stream, [event(1)], { expectedRevision: 'stream_exists' });
      expect(result.nextExpectedRevision).toBe(1n);
    });

    it('an exact revision must match the last revision of the stream', async () => {
      const stream = newStream();
      await expectWrongVersion(
        store.appendToStream(stream, [event(0)], { expectedRevision: 0n }),
        stream,
        0n,
        'no_stream',
      );
      await store.appendToStream(stream, [event(0)], { expectedRevision: 'no_stream' });
      const second = await store.appendToStream(stream, [event(1), event(2)], { expectedRevision: 0n });
      expect(second.nextExpectedRevision).toBe(2n);
      await expectWrongVersion(store.appendToStream(stream, [event(3)], { expectedRevision: 0n }), stream, 0n, 2n);
      await expectWrongVersion(store.appendToStream(stream, [event(3)], { expectedRevision: 7n }), stream, 7n, 2n);
      const third = await store.appendToStream(stream, [event(3)], { expectedRevision: 2n });
      expect(third.nextExpectedRevision).toBe(3n);
      expect((await store.readStream(stream)).map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2, 3]);
    });

    it("'any' (and no expected revision) appends whatever the stream holds", async () => {
      const stream = newStream();
      expect((await store.appendToStream(stream, [event(0)], { expectedRevision: 'any' })).nextExpectedRevision).toBe(
        0n,
      );
      expect((await store.appendToStream(stream, [event(1)], { expectedRevision: 'any' })).nextExpectedRevision).toBe(
        1n,
      );
      expect((await store.appendToStream(stream, [event(2)])).nextExpectedRevision).toBe(2n);
    });

    it.each([
      ['an exact revision', 0n, true],
      ["'no_stream'", 'no_stream', false],
    ] as const)('two concurrent appends with %s: exactly one wins', async (_label, expected, seed) => {
      const stream = newStream();
      if (seed) await store.appendToStream(stream, [event(0)], { expectedRevision: 'no_stream' });
      const outcomes = await Promise.allSettled([
        store.appendToStream(stream, [event(10)], { expectedRevision: expected }),
        store.appendToStream(stream, [event(20)], { expectedRevision: expected }),
      ]);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(WrongExpectedVersion);
      expect(await store.readStream(stream)).toHaveLength(seed ? 2 : 1);
    });

    it('many concurrent appends to different streams all commit with distinct, ordered positions', async () => {
      const head = await store.headPosition();
      const streams = Array.from({ length: 100 }, newStream);
      const results = await Promise.all(
        streams.map((s, i) => store.appendToStream(s, [event(i)], { expectedRevision: 'no_stream' })),
      );
      expect(new Set(results.map((r) => r.position)).size).toBe(100);
      const ours = new Set(streams);
      const logged = (await store.readAll({ after: head })).filter((e) => ours.has(e.streamName));
      expect(logged).toHaveLength(100);
      expectIncreasing(logged.map((e) => e.position));
      const byStream = new Map(streams.map((s, i) => [s, results[i]!.position]));
      for (const e of logged) expect(e.position).toBe(byStream.get(e.streamName));
    });

    it('reads a large stream whole and from a revision', async () => {
      const stream = newStream();
      const total = 20_000;
      const chunk = 1_000;
      let expected: ExpectedRevision = 'no_stream';
      for (let start = 0; start < total; start += chunk) {
        const events = Array.from({ length: chunk }, (_, i) => event(start + i));
        expected = (await store.appendToStream(stream, events, { expectedRevision: expected })).nextExpectedRevision;
      }
      expect(expected).toBe(BigInt(total - 1));
      const whole = await store.readStream(stream);
      expect(whole).toHaveLength(total);
      expect(whole.every((e, i) => e.revision === BigInt(i) && (e.data as { n: number }).n === i)).toBe(true);
      const tail = await store.readStream(stream, { fromRevision: 19_990n });
      expect(tail.map((e) => e.revision)).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(19_990 + i)));
      const window = await store.readStream(stream, { fromRevision: 5_000n, maxCount: 3 });
      expect(window.map((e) => e.revision)).toEqual([5_000n, 5_001n, 5_002n]);
    });

    it(
      'a repeated event id is appended once: a repeated append at its expected revision returns ' + 'the first result',
      async () => {
        const stream = newStream();
        const first = [event(0, { id: randomUUID() }), event(1, { id: randomUUID() })];
        const original = await store.appendToStream(stream, first, { expectedRevision: 'no_stream' });
        // A retry after a transient error (the first attempt was committed, its answer lost) sends the same ids again.
        expect(await store.appendToStream(stream, first, { expectedRevision: 'no_stream' })).toEqual(original);
        const next = [event(2, { id: randomUUID() })];
        const second = await store.appendToStream(stream, next, { expectedRevision: 1n });
        expect(await store.appendToStream(stream, next, { expectedRevision: 1n })).toEqual(second);
        const events = await store.readStream(stream);
        expect(events.map((e) => e.id)).toEqual([...first, ...next].map((e) => e.id));
        expect(await store.headPosition()).toBe(second.position);
        // At another expected revision the same events are a conflict, not a success.
        await expectWrongVersion(store.appendToStream(stream, next, { expectedRevision: 5n }), stream, 5n, 2n);
      },
    );

    it('refuses an append over maxAppendBytes whole, and accepts one at the limit', async () => {
      const stream = newStream();
      expect(store.maxAppendBytes).toBeGreaterThan(0);
      const sized = (bytes: number): NewEvent => {
        const bare = { type: 'ContractTested', data: { text: '' } };
        return { ...bare, data: { text: 'x'.repeat(bytes - appendBytes([bare])) } };
      };
      const over = [event(0), sized(store.maxAppendBytes - appendBytes([event(0)]) + 1)];
      expect(appendBytes(over)).toBe(store.maxAppendBytes + 1);
      const refused = store.appendToStream(stream, over, { expectedRevision: 'no_stream' });
      const error = await refused.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppendTooLarge);
      expect((error as AppendTooLarge).maxAppendBytes).toBe(store.maxAppendBytes);
      expect(await store.readStream(stream)).toEqual([]);
      const fits = [sized(store.maxAppendBytes)];
      await store.appendToStream(stream, fits, { expectedRevision: 'no_stream' });
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('readLast returns the newest events of the global log, newest first', async () => {
      const stream = newStream();
      const appended = await store.appendToStream(stream, [event(0), event(1), event(2)]);
      const last = await store.readLast(2);
      expect(last.map((e) => [e.streamName, (e.data as { n: number }).n])).toEqual([
        [stream, 2],
        [stream, 1],
      ]);
      expect(last[0]!.position).toBe(appended.position);
      expect(await store.readLast(0)).toEqual([]);
      const many = await store.readLast(50);
      expect(many.length).toBeGreaterThanOrEqual(3);
      expect(many.length).toBeLessThanOrEqual(50);
      expectIncreasing(many.map((e) => e.position).reverse());
      // The same events readAll gives from the oldest of them on (the log may be long on a shared server).
      const all = await store.readAll({ after: many[many.length - 1]!.position - 1n });
      expect(many.map((e) => e.id)).toEqual([...all].reverse().map((e) => e.id));
    });

    it('chains the events of a stream by hash, across appends and with loose expected revisions', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event(0), event(1)], { expectedRevision: 'no_stream' });
      await store.appendToStream(stream, [event(2)], { expectedRevision: 1n });
      await store.appendToStream(stream, [event(3, { metadata: { hash: 'forged', prevHash: 'forged', actor: 'x' } })]);
      await store.appendToStream(stream, [event(4)], { expectedRevision: 'stream_exists' });
      const events = await store.readStream(stream);
      expect(events).toHaveLength(5);
      expect(events[0]!.metadata.prevHash).toBe(GENESIS_HASH);
      expect(events.every((e) => /^[0-9a-f]{64}$/.test(String(e.metadata.hash)))).toBe(true);
      expect(events[3]!.metadata.actor).toBe('x');
      expect(verifyChain(events)).toBeUndefined();
      // The chain detects a changed, a removed and a reordered event.
      const changed = events.map((e) => (e.revision === 2n ? { ...e, data: { ...e.data, n: 99 } } : e));
      expect(verifyChain(changed)).toMatchObject({ streamName: stream, revision: 2n });
      expect(verifyChain(events.filter((e) => e.revision !== 1n))).toMatchObject({ revision: 2n });
      const swapped = [events[0]!, { ...events[2]!, revision: 1n }, { ...events[1]!, revision: 2n }];
      expect(verifyChain(swapped)).toMatchObject({ revision: 1n });
      // Another stream's events cannot be passed off as this one's.
      expect(verifyChain(events.map((e) => ({ ...e, streamName: `${stream}-copy` })))).toMatchObject({ revision: 0n });
    });

    it('keeps everything when the store is closed and opened again', async () => {
      const stream = newStream();
      const first = await open();
      await first.appendToStream(stream, [event(0), event(1)], { expectedRevision: 'no_stream' });
      await first.close();
      const second = await open();
      try {
        const events = await second.readStream(stream);
        expect(events.map((e) => (e.data as { n: number }).n)).toEqual([0, 1]);
        const next = await second.appendToStream(stream, [event(2)], { expectedRevision: 1n });
        expect(next.nextExpectedRevision).toBe(2n);
        expect(await second.headPosition()).toBe(next.position);
      } finally {
        await second.close();
      }
    });
  });
}
