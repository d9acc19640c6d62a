import { describe, expect, it } from '@jest/globals';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordedEvent } from '../event-store.js';
import { CommitWatch } from './commit-watch.js';
import { SharedTail } from './shared-tail.js';

const event = (position: number): RecordedEvent => ({
  id: `e${position}`,
  type: 'Happened',
  data: { position, nested: { list: [position] } },
  metadata: {},
  streamName: 's',
  revision: BigInt(position - 1),
  position: BigInt(position),
  recordedAt: new Date(0),
});

/** A log of `count` events and the reads made of it. */
function log(count: number) {
  const events = Array.from({ length: count }, (_, i) => event(i + 1));
  const reads: [after: bigint, limit: number][] = [];
  const read = (after: bigint, limit: number) => {
    reads.push([after, limit]);
    return events.filter((e) => e.position > after).slice(0, limit);
  };
  return { events, reads, read };
}

const positions = (events: readonly RecordedEvent[]) => events.map((e) => Number(e.position));

describe('SharedTail', () => {
  it('reads a part of the log once for every subscription that asks for it in the same turn', () => {
    const { reads, read } = log(5);
    const tail = new SharedTail(read, 10);
    expect(positions(tail.next(2n))).toEqual([3, 4, 5]);
    expect(positions(tail.next(2n))).toEqual([3, 4, 5]);
    expect(positions(tail.next(4n))).toEqual([5]);
    expect(positions(tail.next(5n))).toEqual([]);
    expect(reads).toEqual([[2n, 10]]);
  });

  it('reads again for a subscription behind the page, or past a full page', () => {
    const { reads, read } = log(5);
    const tail = new SharedTail(read, 2);
    expect(positions(tail.next(2n))).toEqual([3, 4]);
    expect(positions(tail.next(1n))).toEqual([2, 3]);
    // Past a full page the rest of the log is unknown: [3] alone would end a page early.
    expect(positions(tail.next(2n))).toEqual([3, 4]);
    expect(reads).toEqual([
      [2n, 2],
      [1n, 2],
      [2n, 2],
    ]);
  });

  it('forgets the page when the process commits and when the turn ends', async () => {
    const { events, reads, read } = log(3);
    const tail = new SharedTail(read, 10);
    expect(positions(tail.next(0n))).toEqual([1, 2, 3]);
    events.push(event(4));
    tail.invalidate();
    expect(positions(tail.next(0n))).toEqual([1, 2, 3, 4]);
    events.push(event(5)); // another process's commit: seen once the turn is over
    expect(positions(tail.next(4n))).toEqual([]);
    await nextTurn();
    expect(positions(tail.next(4n))).toEqual([5]);
    expect(reads.map(([after]) => after)).toEqual([0n, 0n, 4n]);
  });

  it('shares a page only while the commit version is the one read before it', () => {
    const { events, reads, read } = log(3);
    let version = 7;
    const tail = new SharedTail(read, 10, () => version);
    expect(positions(tail.next(0n))).toEqual([1, 2, 3]);
    expect(tail.lastVersion).toBe(7);
    expect(positions(tail.next(2n))).toEqual([3]);
    // Another process commits within the turn and this one sees the version move: the page no longer is what a read
    // returns, so it is read again.
    events.push(event(4));
    version = 8;
    expect(positions(tail.next(3n))).toEqual([4]);
    expect(tail.lastVersion).toBe(8);
    expect(reads.map(([after]) => after)).toEqual([0n, 3n]);
  });

  it('lets a subscription woken by a version it has not read reach the end of the log within the turn', () => {
    // A subscription's loop: read the tail; wait past the version read with the page, or go round at once when the
    // watch already reads another one. A watch whose turn's version is read again after another process's commit
    // (its waiters were all cancelled) used to meet a page shared from before that commit, and went round forever in
    // microtasks, so the process served nothing more and ignored SIGTERM.
    const { events, read } = log(3);
    let fileVersion = 1;
    const watch = new CommitWatch(() => fileVersion, 5);
    const tail = new SharedTail(read, 10, () => watch.current());
    try {
      let cursor = 0n;
      const page = tail.next(cursor);
      cursor = page.at(-1)!.position;
      events.push(event(4));
      fileVersion = 2;
      watch.stop();
      let rounds = 0;
      for (; rounds < 100; rounds++) {
        for (const e of tail.next(cursor)) cursor = e.position;
        if (watch.current() === tail.lastVersion) break;
      }
      expect({ rounds, cursor }).toEqual({ rounds: 0, cursor: 4n });
    } finally {
      watch.stop();
    }
  });

  it('hands out frozen events, so no subscriber changes what another sees', () => {
    const tail = new SharedTail(log(1).read, 10);
    const [first] = tail.next(0n);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => ((first.data as { nested: { list: number[] } }).nested.list as number[]).push(2)).toThrow(TypeError);
  });
});
