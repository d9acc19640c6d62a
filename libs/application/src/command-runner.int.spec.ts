import { beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { Decider } from '#domain/decider.js';
import { DomainError } from '#domain/errors.js';
import { appendBytes, type EventStore, type ExpectedRevision, type NewEvent } from '#event-store/event-store.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { useTempDir } from '../../../test/support/temp-dir.js';
import { CommandConflictError, CommandRunner } from './command-runner.js';

/** A bounded counter: a small decider with an invariant that batching must keep. */
type CounterEvent = { type: 'Added'; data: { by: number } };
type CounterCommand = { type: 'Add'; by: number };
const LIMIT = 100;
const counter: Decider<{ total: number }, CounterCommand, CounterEvent> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => {
    state.total += event.data.by; // in place, like the ledger
    return state;
  },
  decide: (command, state) => {
    if (command.by === 0) return [];
    if (state.total + command.by > LIMIT) throw new DomainError('invalid', 'OVER_LIMIT', `total would exceed ${LIMIT}`);
    return [{ type: 'Added', data: { by: command.by } }];
  },
};

const metadata = { actor: 'test' };
const total = async (store: SqliteEventStore, stream: string) =>
  (await store.readStream(stream)).reduce((sum, e) => sum + Number((e.data as { by: number }).by), 0);

/** `store` with every readStream call reported to `onRead` first. */
const countingReads = (store: EventStore, onRead: () => void): EventStore =>
  Object.assign(Object.create(store) as EventStore, {
    readStream: (...args: Parameters<EventStore['readStream']>) => (onRead(), store.readStream(...args)),
  });

describe('CommandRunner', () => {
  let store: SqliteEventStore;
  const dir = useTempDir('runner-', () => store.close());
  beforeEach(() => {
    store = new SqliteEventStore(join(dir(), 'events.db'));
  });

  it('decides queued commands on one stream together and appends them in few writes', async () => {
    const runner = new CommandRunner(store, undefined);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => runner.run('counter-a', counter, { type: 'Add', by: 1 }, { metadata })),
    );
    expect(results.every((r) => r.events.length === 1 && r.position !== undefined)).toBe(true);
    expect(await total(store, 'counter-a')).toBe(50);
    // the first command runs alone, the 49 queued behind it share one append
    expect(store.stats().transactions).toBeLessThanOrEqual(3);
    const { state } = await runner.load('counter-a', counter);
    expect(state.total).toBe(50);
  });

  it('refuses only the commands their decider refuses, on the state their predecessors leave', async () => {
    const runner = new CommandRunner(store, undefined);
    const outcomes = await Promise.allSettled(
      [60, 30, 20, 10, 0, 5].map((by) => runner.run('counter-b', counter, { type: 'Add', by }, { metadata })),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect(((outcomes[2] as PromiseRejectedResult).reason as DomainError).code).toBe('OVER_LIMIT');
    expect((outcomes[4] as PromiseFulfilledResult<{ events: unknown[]; position?: bigint }>).value).toMatchObject({
      events: [],
    });
    expect((outcomes[4] as PromiseFulfilledResult<{ position?: bigint }>).value.position).toBeUndefined();
    expect(await total(store, 'counter-b')).toBe(100);
  });

  it('keeps the invariant when two runners (two processes) append to one stream', async () => {
    const one = new CommandRunner(store, undefined);
    const two = new CommandRunner(store, undefined);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? one : two).run('counter-c', counter, { type: 'Add', by: 2 }, { metadata }),
      ),
    );
    const accepted = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(accepted).toBe(LIMIT / 2);
    expect(
      outcomes
        .filter((o) => o.status === 'rejected')
        .every((o) => ((o as PromiseRejectedResult).reason as DomainError).code === 'OVER_LIMIT'),
    ).toBe(true);
    expect(await total(store, 'counter-c')).toBe(LIMIT);
    expect((await one.load('counter-c', counter)).state.total).toBe(LIMIT);
    expect((await two.load('counter-c', counter)).state.total).toBe(LIMIT);
  });

  it('decides on its cached state without a read, and again on the stream when that was refused', async () => {
    let reads = 0;
    const counted = countingReads(store, () => reads++);
    const one = new CommandRunner(counted, undefined);
    const two = new CommandRunner(store, undefined);
    await one.run('counter-e', counter, { type: 'Add', by: 60 }, { metadata });
    reads = 0;
    await one.run('counter-e', counter, { type: 'Add', by: 40 }, { metadata });
    // The cached state was current: the append at its revision proved it, with no read before.
    expect(reads).toBe(0);
    // Another process takes 50 off; the cached state (100) would refuse +30, the stream's (50) takes it.
    await two.run('counter-e', counter, { type: 'Add', by: -50 }, { metadata });
    const result = await one.run('counter-e', counter, { type: 'Add', by: 30 }, { metadata });
    expect(result.events).toHaveLength(1);
    expect(result.state.total).toBe(80);
    // A refusal that stands on the current state is answered after one look at the stream.
    reads = 0;
    await expect(one.run('counter-e', counter, { type: 'Add', by: 21 }, { metadata })).rejects.toMatchObject({
      code: 'OVER_LIMIT',
    });
    expect(reads).toBe(1);
    expect(await total(store, 'counter-e')).toBe(80);
  });

  it('decides the first command on a stream another component created without reading it back', async () => {
    let reads = 0;
    const counted = countingReads(store, () => reads++);
    const runner = new CommandRunner(counted, undefined);
    const made = [
      { id: 'e-1', type: 'Added', data: { by: 30 } },
      { id: 'e-2', type: 'Added', data: { by: 20 } },
    ];
    await store.appendToStream('counter-f', made, { expectedRevision: 'no_stream' });
    const events = made.map(({ type, data }) => ({ type, data }) as CounterEvent);
    runner.created('counter-f', counter, events, 'e-2');
    const result = await runner.run('counter-f', counter, { type: 'Add', by: 50 }, { metadata });
    expect(reads).toBe(0);
    expect(result.state.total).toBe(100);
    expect(await total(store, 'counter-f')).toBe(100);

    // Told of a creation it already knows newer state of, it keeps its own; a stale one is caught by the append.
    runner.created('counter-f', counter, events, 'e-2');
    await expect(runner.run('counter-f', counter, { type: 'Add', by: 1 }, { metadata })).rejects.toMatchObject({
      code: 'OVER_LIMIT',
    });
    const stale = new CommandRunner(store, undefined);
    stale.created('counter-f', counter, events, 'e-2');
    await expect(stale.run('counter-f', counter, { type: 'Add', by: 1 }, { metadata })).rejects.toMatchObject({
      code: 'OVER_LIMIT',
    });
    expect(await total(store, 'counter-f')).toBe(100);
  });

  it('answers fixed facts from its cache once known, and reads the stream while they are not', async () => {
    let reads = 0;
    const counted = countingReads(store, () => reads++);
    const runner = new CommandRunner(counted, undefined);
    const atLeast = (n: number) => ({
      reads: 'fixed-facts' as const,
      known: (state: { total: number }) => state.total >= n,
    });
    await store.appendToStream('counter-s', [{ type: 'Added', data: { by: 10 } }]);
    expect((await runner.load('counter-s', counter, atLeast(20))).state.total).toBe(10);
    expect(reads).toBe(1);
    await store.appendToStream('counter-s', [{ type: 'Added', data: { by: 15 } }]); // another process
    expect((await runner.load('counter-s', counter, atLeast(20))).state.total).toBe(25);
    expect(reads).toBe(2);
    await store.appendToStream('counter-s', [{ type: 'Added', data: { by: 5 } }]);
    expect((await runner.load('counter-s', counter, atLeast(20))).state.total).toBe(25);
    expect(reads).toBe(2);
    expect((await runner.load('counter-s', counter)).state.total).toBe(30);
  });

  it('applies what a command and a part of the process declare: when to answer, and a cache of its own', async () => {
    let waits = 0;
    const waiter = { waitForPosition: async () => (waits++, true) };
    const runner = new CommandRunner(store, waiter);
    await runner.run('counter-w', counter, { type: 'Add', by: 1 }, { metadata });
    expect(waits).toBe(1);
    await runner.run('counter-w', counter, { type: 'Add', by: 1 }, { metadata, answersAfter: 'append' });
    const part = runner.for({ answersAfter: 'append', cache: { name: 'part', size: 10 } });
    await part.run('counter-w', counter, { type: 'Add', by: 1 }, { metadata });
    await part.projected(10n);
    expect(waits).toBe(1);
    // The part folded the stream into its own cache; the runner's cache keeps what the runner saw.
    const known = { reads: 'fixed-facts' as const, known: () => true };
    expect((await runner.load('counter-w', counter, known)).state.total).toBe(2);
    expect((await part.load('counter-w', counter, known)).state.total).toBe(3);
    expect((await runner.load('counter-w', counter)).state.total).toBe(3);
  });

  /** A store where another writer slips an event in just before each of the next `times` appends. */
  const racing = (inner: SqliteEventStore, times: number): EventStore => {
    let left = times;
    return Object.assign(Object.create(inner) as EventStore, {
      async appendToStream(stream: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }) {
        if (left-- > 0) await inner.appendToStream(stream, [{ type: 'Added', data: { by: 1 } }]);
        return inner.appendToStream(stream, events, options);
      },
    });
  };

  it('decides the whole batch again on the fresh state after a revision conflict', async () => {
    const runner = new CommandRunner(racing(store, 1), undefined);
    const outcomes = await Promise.allSettled(
      [40, 40, 19, 1].map((by) => runner.run('counter-d', counter, { type: 'Add', by }, { metadata })),
    );
    // the competing +1 landed first, so the last +1 no longer fits
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(await total(store, 'counter-d')).toBe(LIMIT);
    expect((await runner.load('counter-d', counter)).state.total).toBe(LIMIT);
  });

  it('retries a hot stream written by several runners until every command is committed', async () => {
    // 25 other writers in a row: more than the 20 retries the runner used to give up after.
    const hot = new CommandRunner(racing(store, 25), undefined);
    const runners = [hot, ...Array.from({ length: 3 }, () => new CommandRunner(store, undefined))];
    const add = (i: number) => runners[i % 4].run('counter-f', counter, { type: 'Add', by: 1 }, { metadata });
    const outcomes = await Promise.allSettled(Array.from({ length: 72 }, (_, i) => add(i)));
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect(await total(store, 'counter-f')).toBe(72 + 25);
  });

  it('gives up with CommandConflictError when the stream keeps changing, committing nothing of the batch', async () => {
    const runner = new CommandRunner(racing(store, 1), undefined, { maxRetries: 0 });
    const failed = await Promise.allSettled(
      [5, 5].map((by) => runner.run('counter-e', counter, { type: 'Add', by }, { metadata })),
    );
    expect(failed.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(CommandConflictError);
    expect(await total(store, 'counter-e')).toBe(1);
    // the failed batch left no trace in the cached state: the next command decides on what is stored
    await runner.run('counter-e', counter, { type: 'Add', by: 5 }, { metadata });
    expect((await runner.load('counter-e', counter)).state.total).toBe(6);
  });

  /** Notes of any size: one event per command, carrying the text. */
  type NoteEvent = { type: 'Noted'; data: { text: string } };
  const notes: Decider<{ count: number }, { text: string }, NoteEvent> = {
    initialState: () => ({ count: 0 }),
    evolve: (state, _event) => ({ count: state.count + 1 }),
    decide: (command) => [{ type: 'Noted', data: { text: command.text } }],
  };
  const noteBytes = (text: string) => appendBytes([{ type: 'Noted', data: { text }, metadata }]);

  /** Records every append the runner makes, after the store has committed it. */
  const recording = (inner: EventStore, appends: NewEvent[][]): EventStore =>
    Object.assign(Object.create(inner) as EventStore, {
      async appendToStream(stream: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }) {
        const result = await inner.appendToStream(stream, events, options);
        appends.push(events);
        return result;
      },
    });

  it('splits a batch of commands too large for one append into several appends within the limit', async () => {
    await store.close();
    const limit = noteBytes('x'.repeat(100)) * 3;
    store = new SqliteEventStore(join(dir(), 'limited.db'), { maxAppendBytes: limit });
    const appends: NewEvent[][] = [];
    const runner = new CommandRunner(recording(store, appends), undefined);
    const texts = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(98)}`);
    const results = await Promise.all(texts.map((text) => runner.run('notes-a', notes, { text }, { metadata })));
    expect(results.every((r) => r.events.length === 1 && r.position !== undefined)).toBe(true);
    const stored = await store.readStream('notes-a');
    // every command's event once, in the order the commands were issued
    expect(stored.map((e) => (e.data as { text: string }).text)).toEqual(texts);
    expect(appends.every((events) => appendBytes(events) <= limit)).toBe(true);
    expect(appends.length).toBeGreaterThanOrEqual(7);
    // still batched: the queued commands share appends of three
    expect(appends.some((events) => events.length === 3)).toBe(true);
    expect((await runner.load('notes-a', notes)).state.count).toBe(20);
  });

  it('refuses a command whose events alone exceed the append limit, and only that one', async () => {
    await store.close();
    store = new SqliteEventStore(join(dir(), 'limited.db'), { maxAppendBytes: noteBytes('x'.repeat(1000)) });
    const runner = new CommandRunner(store, undefined);
    const outcomes = await Promise.allSettled(
      ['small', 'x'.repeat(1001), 'also small'].map((text) => runner.run('notes-b', notes, { text }, { metadata })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const error = (outcomes[1] as PromiseRejectedResult).reason as DomainError;
    expect(error).toBeInstanceOf(DomainError);
    expect([error.kind, error.code]).toEqual(['unprocessable', 'EVENTS_TOO_LARGE']);
    const texts = (await store.readStream('notes-b')).map((e) => (e.data as { text: string }).text);
    expect(texts).toEqual(['small', 'also small']);
  });

  it('stores each event as decided, serialized once for its size and its row, whatever evolve does later', async () => {
    // A decider whose evolve keeps the event's data in its state and changes it there (in place).
    type Kept = { type: 'Kept'; data: { items: string[] } };
    const keeper: Decider<{ last?: { items: string[] } }, { item: string }, Kept> = {
      initialState: () => ({}),
      evolve: (state, event) => {
        event.data.items.push('changed by evolve');
        state.last = event.data;
        return state;
      },
      decide: (command) => [{ type: 'Kept', data: { items: [command.item] } }],
    };
    const appends: NewEvent[][] = [];
    const runner = new CommandRunner(recording(store, appends), undefined);
    await runner.run('keeper-a', keeper, { item: 'decided' }, { metadata });
    const [stored] = await store.readStream('keeper-a');
    expect(stored.data).toEqual({ items: ['decided'] });
    expect(stored.metadata).toMatchObject(metadata);
    // the size was counted on the same JSON the store wrote
    expect(appends[0][0].serialized).toEqual({ data: '{"items":["decided"]}', metadata: JSON.stringify(metadata) });
  });

  /** A store whose next `times` appends fail with a transient error, after committing when `committed`. */
  const flaky = (inner: SqliteEventStore, times: number, committed: boolean, attempts: NewEvent[][]): EventStore =>
    Object.assign(Object.create(inner) as EventStore, {
      async appendToStream(stream: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }) {
        attempts.push(events);
        if (times-- > 0) {
          // The answer is lost on the way back: the caller cannot tell whether the append was written.
          if (committed) await inner.appendToStream(stream, events, options);
          throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
        }
        return inner.appendToStream(stream, events, options);
      },
    });
  const noWait = async () => undefined;

  it('retries an append after a transient error with the same event ids, so it is written once', async () => {
    const attempts: NewEvent[][] = [];
    const runner = new CommandRunner(flaky(store, 2, true, attempts), undefined, { backoff: noWait });
    const result = await runner.run('counter-f', counter, { type: 'Add', by: 7 }, { metadata });
    expect(result.state.total).toBe(7);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((events) => events[0]!.id && events[0]!.id === attempts[0]![0]!.id)).toBe(true);
    const stored = await store.readStream('counter-f');
    expect(stored.map((e) => e.id)).toEqual([attempts[0]![0]!.id]);
    expect(await total(store, 'counter-f')).toBe(7);
  });

  it('gives up after a bounded number of transient retries, backing off between them', async () => {
    const attempts: NewEvent[][] = [];
    const waits: number[] = [];
    const backoff = async (retry: number) => void waits.push(retry);
    const runner = new CommandRunner(flaky(store, 100, false, attempts), undefined, { transientRetries: 3, backoff });
    const run = runner.run('counter-g', counter, { type: 'Add', by: 1 }, { metadata });
    await expect(run).rejects.toThrow('connection reset');
    expect(attempts).toHaveLength(4);
    expect(waits).toEqual([1, 2, 3]);
    expect(await store.readStream('counter-g')).toEqual([]);
  });
});
