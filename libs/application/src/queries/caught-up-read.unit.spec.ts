import { describe, expect, it } from '@jest/globals';
import type { Doc } from '#read-models/read-model-store.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { Collections } from '#read-models/projections/collections.js';
import { caughtUpReads, getCaughtUp, type CatchUpTime } from './caught-up-read.js';

/** A store whose projection is `checkpoint` far and whose document appears once it passes `writtenAt`. */
function fixture(options: { checkpoint?: bigint; head: bigint; writtenAt?: bigint }) {
  const state = { checkpoint: options.checkpoint, reads: 0, checks: 0, slept: 0, now: 0 };
  const store = {
    get: async <T extends Doc>(_collection: string, id: string) => {
      state.reads += 1;
      const written = options.writtenAt !== undefined && (state.checkpoint ?? -1n) >= options.writtenAt;
      return (written ? { id } : undefined) as T | undefined;
    },
    getCheckpoint: async () => {
      state.checks += 1;
      return state.checkpoint;
    },
  };
  const events = { headPosition: async () => options.head };
  // Each pause lets the projection apply ten more events and moves the clock by the pause.
  const time: CatchUpTime = {
    now: () => state.now,
    sleep: async (ms) => {
      state.slept += 1;
      state.now += ms;
      state.checkpoint = (state.checkpoint ?? -1n) + 10n;
    },
  };
  return { state, read: () => getCaughtUp(store, events, 'p', 'docs', 'Doc:1', time) };
}

describe('getCaughtUp', () => {
  it('answers a document the read models hold at once', async () => {
    const { state, read } = fixture({ checkpoint: 50n, head: 50n, writtenAt: 10n });
    expect(await read()).toEqual({ id: 'Doc:1' });
    expect(state).toMatchObject({ reads: 1, checks: 0, slept: 0 });
  });

  it('answers a missing document after one check when the projection is at the head', async () => {
    const { state, read } = fixture({ checkpoint: 50n, head: 50n });
    expect(await read()).toBeUndefined();
    expect(state).toMatchObject({ reads: 2, checks: 1, slept: 0 });
  });

  it('waits for a projection that is replaying, then finds the document', async () => {
    const { state, read } = fixture({ checkpoint: undefined, head: 40n, writtenAt: 25n });
    expect(await read()).toEqual({ id: 'Doc:1' });
    expect(state.checkpoint).toBeGreaterThanOrEqual(40n);
    expect(state.reads).toBe(2);
  });

  it('gives up after two seconds of a projection that does not reach the head', async () => {
    const { state, read } = fixture({ checkpoint: 0n, head: 1_000_000n, writtenAt: 5n });
    expect(await read()).toBeUndefined();
    expect(state.now).toBe(2_000);
    expect(state.reads).toBe(1);
  });
});

describe('caughtUpReads', () => {
  /** A store that records the checkpoints asked for and answers every read as missing. */
  function recording() {
    const asked: string[] = [];
    const store = {
      name: 'store',
      get: async () => undefined,
      getCheckpoint: async (projection: string) => (asked.push(projection), 7n),
      describe() {
        return `the ${this.name}`;
      },
    };
    const reads = caughtUpReads(store as unknown as ReadModelStore, { headPosition: async () => 7n });
    return { asked, reads: reads as unknown as typeof store & ReadModelStore };
  }

  it('checks the checkpoint of the projection that writes the collection of a missing document', async () => {
    const { asked, reads } = recording();
    expect(await reads.get(Collections.internalAccounts, 'InternalAccount:1')).toBeUndefined();
    expect(await reads.get(Collections.customers, 'Customer:1')).toBeUndefined();
    expect(await reads.get(Collections.apiTokens, 'ApiToken:1')).toBeUndefined();
    expect(asked).toEqual(['internal-accounts', 'customers', 'platforms']);
  });

  it('reads a collection no projection writes once, and leaves every other member to the store', async () => {
    const { asked, reads } = recording();
    expect(await reads.get('not_a_collection', 'x')).toBeUndefined();
    expect(asked).toEqual([]);
    expect(reads.describe()).toBe('the store');
    expect(await reads.getCheckpoint('p')).toBe(7n);
  });
});
