import { beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { useTempDir } from '../../../../test/support/temp-dir.js';
import { PlatformClocks } from '../command-context.js';

const START = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;
/** The platform a stream name ends with (`<kind>-<id>`). */
const platformOf = (stream: string) => `Platform:${stream.slice(stream.indexOf('-') + 1)}`;

describe('PlatformClocks', () => {
  let store: SqliteEventStore;
  const dir = useTempDir('clocks-', () => store.close());
  beforeEach(() => {
    store = new SqliteEventStore(join(dir(), 'events.db'));
  });

  const create = (platformId: string, sandbox: boolean) =>
    store.appendToStream(streams.platform(platformId), [
      {
        type: 'PlatformCreated',
        data: {
          platformId,
          name: platformId,
          sandbox,
          umaDomain: 'example.com',
          createdAt: new Date(START).toISOString(),
        },
      },
    ]);
  const advance = (platformId: string, offsetMs: number) =>
    store.appendToStream(streams.sandboxClock(platformId), [
      { type: 'SandboxClockAdvanced', data: { platformId, byMs: offsetMs, offsetMs } },
    ]);

  /** Clocks over the store that count the reads of each kind of stream. */
  function counted() {
    const reads = { clock: 0, platform: 0 };
    const reading = Object.assign(Object.create(store) as EventStore, {
      readStream: (...args: Parameters<EventStore['readStream']>) => {
        if (args[0] === streams.sandboxClock(platformOf(args[0]))) reads.clock++;
        else reads.platform++;
        return store.readStream(...args);
      },
    });
    return { clocks: new PlatformClocks(reading, new ManualClock(START)), reads };
  }

  /** The next turn of the event loop. */
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('reads the clock stream of a sandbox platform in each turn that reads it: advances show at once', async () => {
    await create('Platform:s', true);
    const { clocks, reads } = counted();
    expect((await clocks.now('Platform:s')).getTime()).toBe(START);
    await advance('Platform:s', HOUR);
    await nextTurn();
    expect((await clocks.now('Platform:s')).getTime()).toBe(START + HOUR);
    await nextTurn();
    expect((await clocks.now('Platform:s')).getTime()).toBe(START + HOUR);
    expect(reads).toEqual({ clock: 3, platform: 1 });
  });

  it('shares one read among the reads of a turn, and reads again once this process advanced the clock', async () => {
    // A log whose clock stream this test appends to within the turn (a real append completes in a later one).
    const clockEvents: RecordedEvent[] = [];
    let clockReads = 0;
    const log = {
      readStream: async (stream: string, options: { fromRevision?: bigint } = {}) => {
        if (stream === streams.platform('Platform:t'))
          return [{ type: 'PlatformCreated', data: { platformId: 'Platform:t', sandbox: true } }];
        clockReads++;
        return clockEvents.filter((e) => e.revision >= (options.fromRevision ?? 0n));
      },
    } as unknown as EventStore;
    const advanceNow = (offsetMs: number) =>
      clockEvents.push({ revision: BigInt(clockEvents.length), data: { offsetMs } } as unknown as RecordedEvent);
    const clocks = new PlatformClocks(log, new ManualClock(START));

    const [first, second] = await Promise.all([clocks.now('Platform:t'), clocks.now('Platform:t')]);
    expect([first.getTime(), second.getTime(), clockReads]).toEqual([START, START, 1]);
    advanceNow(HOUR);
    // Another process's advance during this turn shows from the next one.
    expect([(await clocks.now('Platform:t')).getTime(), clockReads]).toEqual([START, 1]);
    // One this process made shows at once.
    clocks.advanced('Platform:t');
    expect([(await clocks.now('Platform:t')).getTime(), clockReads]).toEqual([START + HOUR, 2]);
    advanceNow(2 * HOUR);
    await nextTurn();
    expect([await clocks.offsetMs('Platform:t'), clockReads]).toEqual([2 * HOUR, 3]);
  });

  it('keeps a production platform on the base clock without reading a clock stream', async () => {
    await create('Platform:p', false);
    const { clocks, reads } = counted();
    for (let i = 0; i < 3; i++) expect((await clocks.now('Platform:p')).getTime()).toBe(START);
    // Only a sandbox platform may advance its clock; a stray clock event would not move a production one.
    await advance('Platform:p', HOUR);
    expect((await clocks.now('Platform:p')).getTime()).toBe(START);
    expect(reads).toEqual({ clock: 0, platform: 1 });
  });

  it('looks again for a platform not created yet, and reads its clock stream meanwhile', async () => {
    const { clocks, reads } = counted();
    expect((await clocks.now('Platform:later')).getTime()).toBe(START);
    await create('Platform:later', false);
    expect((await clocks.now('Platform:later')).getTime()).toBe(START);
    expect((await clocks.now('Platform:later')).getTime()).toBe(START);
    expect(reads).toEqual({ clock: 1, platform: 2 });
  });
});
