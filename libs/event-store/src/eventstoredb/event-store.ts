import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  MaxAppendSizeExceededError,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendExpectedRevision,
  type JSONType,
  type Position,
  type ReadPosition,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  AppendTooLarge,
  DEFAULT_MAX_APPEND_BYTES,
  appendBytes,
  SubscriptionEnded,
  WrongExpectedVersion,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Subscription,
} from '../event-store.js';
import { consume } from './reads.js';
import { EventStoreDbSnapshotStore } from './snapshots.js';
import { GENESIS_HASH, chainMetadata, hashOf } from '../hash-chain.js';
import { subscriptionHandle, type StoreSubscription, type SubscriptionFlags } from '../subscription-handle.js';

/** How often an append with a loose expected revision re-links after another writer got in first. */
const LINK_ATTEMPTS = 5;

/** What a value becomes once stored as JSON: the chain hashes that form, which is what readers get back. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

/** Events per request when paging through $all. */
const PAGE = 1000;

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

function limitOf(maxCount: number | undefined): number {
  if (maxCount === undefined) return -1;
  if (!Number.isInteger(maxCount) || maxCount < 0)
    throw new RangeError(`maxCount must be a non-negative integer; got ${maxCount}`);
  return maxCount;
}

/** System events ($stats, $metadata, links, ...) belong to the server, not to our log; nor do `$snapshot-` streams. */
const isSystem = (e: EsdbRecordedEvent) => e.type.startsWith('$') || e.streamId.startsWith('$');

/** Exact read position of an event we saw; reading from it includes that event again. */
const at = (position: bigint): ReadPosition => (position > 0n ? { commit: position, prepare: position } : START);

const after = (p: Position, than: Position) =>
  p.commit > than.commit || (p.commit === than.commit && p.prepare > than.prepare);

function toRecorded(e: EsdbRecordedEvent, position: bigint): RecordedEvent {
  if (!e.isJson) throw new Error(`event ${e.id} in ${e.streamId} is not a JSON event`);
  const meta = e.metadata;
  const metadata =
    meta && typeof meta === 'object' && !Array.isArray(meta) && !(meta instanceof Uint8Array)
      ? (meta as EventMetadata)
      : {};
  return {
    id: e.id,
    type: e.type,
    data: e.data as Record<string, unknown>,
    metadata,
    streamName: e.streamId,
    revision: e.revision,
    position,
    // EventStoreDB stamps events itself; the server's time is the recording time.
    recordedAt: e.created,
  };
}

/**
 * The EventStore port on EventStoreDB through one long-lived gRPC client. Our `position` is the
 * commit position in the transaction log; system events are never returned.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<StoreSubscription>();

  /** Must not exceed the server's `MaxAppendSize` (1 MiB unless the server was configured otherwise). */
  readonly maxAppendBytes: number;
  /** Snapshots of folded state, in a `$snapshot-<stream>` stream beside each stream. */
  readonly snapshots: EventStoreDbSnapshotStore;

  constructor(connectionString: string, options: { maxAppendBytes?: number } = {}) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    this.snapshots = new EventStoreDbSnapshotStore(this.client, this.maxAppendBytes);
  }

  async appendToStream(
    streamName: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    if (!streamName) throw new TypeError('a stream name is required');
    if (events.length === 0) throw new TypeError('appendToStream needs at least one event');
    const expected = options.expectedRevision ?? 'any';
    // Refused here like the embedded store does, rather than by the server after sending a large request.
    const bytes = appendBytes(events);
    if (bytes > this.maxAppendBytes) throw new AppendTooLarge(streamName, bytes, this.maxAppendBytes);
    for (let attempt = 1; ; attempt++) {
      const last = await this.lastEvent(streamName);
      const link = this.linkFor(expected, last, events);
      try {
        const result = await this.client.appendToStream(
          streamName,
          events.map((e, i) => {
            const revision = (last ? last.revision : -1n) + 1n + BigInt(i);
            const base = {
              streamName,
              revision,
              type: e.type,
              data: stored(e.data),
              metadata: stored(e.metadata ?? {}),
            };
            const metadata = link.prevHashes ? link.prevHashes(i, base) : base.metadata;
            return jsonEvent({ id: e.id, type: e.type, data: base.data as JSONType, metadata: metadata as JSONType });
          }),
          { expectedRevision: link.expected },
        );
        if (!result.position)
          throw new Error('EventStoreDB returned no log position for an append; a newer server is required');
        // The append result carries the position of the last event written.
        return { nextExpectedRevision: result.nextExpectedRevision, position: result.position.commit };
      } catch (error) {
        // Another writer appended between reading the last event and this append: link to the new last event.
        if (error instanceof WrongExpectedVersionError && link.relinked && attempt < LINK_ATTEMPTS) continue;
        if (error instanceof WrongExpectedVersionError)
          throw new WrongExpectedVersion(streamName, expected, error.actualVersion);
        if (error instanceof MaxAppendSizeExceededError)
          throw new AppendTooLarge(streamName, bytes, error.maxAppendSize);
        throw error;
      }
    }
  }

  /** The stream's last event (revision, id, hash), or undefined when the stream does not exist. */
  private async lastEvent(streamName: string): Promise<{ revision: bigint; id: string; hash: string } | undefined> {
    let last: { revision: bigint; id: string; hash: string } | undefined;
    try {
      await consume(
        this.client.readStream(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
        (resolved) => {
          const e = resolved.event;
          if (e) last = { revision: e.revision, id: e.id, hash: hashOf(toRecorded(e, -1n).metadata) ?? '' };
          return false;
        },
      );
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    return last;
  }

  /**
   * How to link an append to the chain. Hashes are computed against the last event read, and the append is sent with
   * that event's revision as its expected revision, so a concurrent writer makes it fail instead of forking the chain
   * (`relinked`: the caller did not ask for that revision, so the append is retried). When the caller's expected
   * revision does not match the stream, the append is sent as asked: the server then refuses it, or recognises a
   * retried append and writes nothing.
   */
  private linkFor(
    expected: ExpectedRevision,
    last: { revision: bigint; id: string; hash: string } | undefined,
    events: NewEvent[],
  ): {
    expected: AppendExpectedRevision;
    relinked: boolean;
    prevHashes?: (i: number, e: Parameters<typeof chainMetadata>[1]) => EventMetadata;
  } {
    const matches =
      expected === 'any'
        ? true
        : expected === 'no_stream'
          ? !last
          : expected === 'stream_exists'
            ? !!last
            : last?.revision === expected;
    // A retry of an append already in the stream: the server deduplicates it by event id.
    const retried = last !== undefined && events.some((e) => e.id === last.id);
    if (!matches || retried) return { expected: toEsdbExpected(expected), relinked: false };
    let prevHash = last ? last.hash : GENESIS_HASH;
    return {
      expected: last ? last.revision : NO_STREAM,
      relinked: typeof expected !== 'bigint' && expected !== 'no_stream',
      prevHashes: (_i, e) => {
        const metadata = chainMetadata(prevHash, e);
        prevHash = metadata.hash as string;
        return metadata;
      },
    };
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = limitOf(options.maxCount);
    if (limit === 0) return [];
    const from = options.fromRevision ?? 0n;
    const out: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamName, {
        fromRevision: from > 0n ? from : START,
        ...(limit > 0 ? { maxCount: limit } : {}),
      });
      await consume(read, (resolved) => {
        // Servers older than 22.6 give no position on stream reads: -1n marks it unknown.
        if (resolved.event)
          out.push(toRecorded(resolved.event, resolved.event.position?.commit ?? resolved.commitPosition ?? -1n));
        return true;
      });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = limitOf(options.maxCount);
    const floor = options.after ?? 0n;
    const types = options.types && new Set(options.types);
    const out: RecordedEvent[] = [];
    let from = at(floor);
    let last: Position | undefined;
    while (limit < 0 || out.length < limit) {
      const seen = await consume(this.client.readAll({ fromPosition: from, maxCount: PAGE }), (resolved) => {
        const e = resolved.event;
        if (!e) return true;
        // Reading from a position includes the event at it: skip what the caller or the previous page already has.
        if (e.position.commit <= floor || (last && !after(e.position, last))) return true;
        last = e.position;
        if (isSystem(e) || (types && !types.has(e.type))) return true;
        out.push(toRecorded(e, e.position.commit));
        return out.length !== limit;
      });
      if (seen < PAGE || !last || out.length === limit) break;
      from = last;
    }
    return out;
  }

  async readLast(maxCount: number): Promise<RecordedEvent[]> {
    const limit = limitOf(maxCount);
    const out: RecordedEvent[] = [];
    if (limit === 0) return out;
    let from: ReadPosition = END;
    let last: Position | undefined;
    // Usually the newest records are ours; system records ($stats, ...) are stepped over page by page.
    let pageSize = Math.min(limit, PAGE);
    for (;;) {
      const read = this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: pageSize });
      const seen = await consume(read, (resolved) => {
        const e = resolved.event;
        // Reading backwards from a position includes the event at it again.
        if (!e || (last && !after(last, e.position))) return true;
        last = e.position;
        if (!isSystem(e)) out.push(toRecorded(e, e.position.commit));
        return out.length < limit;
      });
      if (out.length >= limit || seen < pageSize || !last) return out;
      from = last;
      pageSize = PAGE;
    }
  }

  async headPosition(): Promise<bigint> {
    const [newest] = await this.readLast(1);
    return newest?.position ?? 0n;
  }

  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void> | void,
    options: { after?: bigint } = {},
  ): Subscription {
    const floor = options.after ?? 0n;
    // A subscription from a position delivers what comes after it.
    const source = this.client.subscribeToAll({ fromPosition: at(floor), filter: excludeSystemEvents() });
    const flags: SubscriptionFlags = { stopped: false, endedByStore: false };
    const run = async () => {
      try {
        // The async iterator pulls one event at a time, so handler calls never overlap.
        for await (const resolved of source) {
          if (flags.stopped) break;
          const e = resolved.event;
          if (!e || isSystem(e) || e.position.commit <= floor) continue;
          await handler(toRecorded(e, e.position.commit));
        }
      } catch (error) {
        if (!flags.stopped) throw error;
      }
      // The server (or a dropped connection) ended the stream without an error: not a stop.
      if (!flags.stopped || flags.endedByStore) throw new SubscriptionEnded();
    };
    const done = run().finally(() => {
      this.subscriptions.delete(subscription);
      if (!flags.stopped) void source.unsubscribe().catch(() => undefined);
    });
    const subscription = subscriptionHandle(flags, done, () => source.unsubscribe().catch(() => undefined));
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    // Subscribers learn of it through a rejected `done` (they did not stop them).
    await Promise.all([...this.subscriptions].map((s) => s.end()));
    await this.client.dispose();
  }
}
