import { randomUUID } from 'node:crypto';
import type { SnapshotStore } from './snapshot-store.js';

/**
 * The EventStore port. Streams are named `<aggregate>-<uuid>`; revisions count from 0 within a
 * stream; positions are global, strictly increasing in commit order, and opaque beyond ordering
 * (the embedded store counts 1, 2, 3...; EventStoreDB uses commit positions).
 */
export interface EventMetadata {
  platformId?: string;
  actor?: string;
  correlationId?: string;
  [key: string]: unknown;
}

/** An event to append: a string-literal type and plain JSON data, Emmett style. */
export interface NewEvent<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
  metadata?: EventMetadata;
  /** Optional client-chosen id (uuid); generated when absent. */
  id?: string;
  /**
   * `data` and `metadata` as JSON (`serializeEvent`), when the caller has serialized them already: a store that keeps
   * JSON keeps these strings rather than serializing the objects again.
   */
  serialized?: SerializedEvent;
}

/** An event's data and metadata as stored: `JSON.stringify` of each (metadata `{}` when absent). */
export interface SerializedEvent {
  data: string;
  metadata: string;
}

/**
 * Events to append, each with a fresh id and its serialized form taken now: what is stored is the events as they are
 * at this call, whatever later happens to their objects. All share `metadata` (serialized once).
 */
export function serializedEvents(
  events: readonly { type: string; data: unknown }[],
  metadata: EventMetadata,
  newId: () => string = randomUUID,
): NewEvent[] {
  const metadataJson = JSON.stringify(metadata ?? {});
  return events.map(({ type, data }) => ({
    id: newId(),
    type,
    data: data as Record<string, unknown>,
    metadata,
    serialized: { data: JSON.stringify(data ?? {}), metadata: metadataJson },
  }));
}

/** `data` and `metadata` of `event` as stored, serialized now (or as the event carries them already). */
export function serializeEvent(event: NewEvent): SerializedEvent {
  return event.serialized ?? { data: JSON.stringify(event.data ?? {}), metadata: JSON.stringify(event.metadata ?? {}) };
}

export interface RecordedEvent<Type extends string = string, Data = Record<string, unknown>> {
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  streamName: string;
  revision: bigint;
  position: bigint;
  recordedAt: Date;
}

/**
 * Expected revision sentinels: `'any'` (no check), `'no_stream'` (stream must not exist),
 * `'stream_exists'` (must exist), or the exact revision of the last event in the stream.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface AppendResult {
  /** Revision of the last appended event. */
  nextExpectedRevision: bigint;
  /** Global position of the last appended event. */
  position: bigint;
}

export class WrongExpectedVersion extends Error {
  override readonly name = 'WrongExpectedVersion';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/**
 * Rejects a subscription's `done` when the store ended it without `stop()` (the server closed it,
 * or the store was closed under it): the subscriber must resubscribe from its checkpoint.
 */
export class SubscriptionEnded extends Error {
  override readonly name = 'SubscriptionEnded';
  constructor(reason = 'the event store ended the subscription') {
    super(reason);
  }
}

/** EventStoreDB's default `MaxAppendSize`: the most one append may carry. */
export const DEFAULT_MAX_APPEND_BYTES = 1024 * 1024;

/** Per-event framing counted on top of type, data and metadata (id, revision, content types). */
const EVENT_OVERHEAD_BYTES = 64;

/** What the hash chain adds to every event's stored metadata: `,"prevHash":"<64 hex>","hash":"<64 hex>"`. */
const CHAIN_BYTES = ',"prevHash":"","hash":""'.length + 128;

/** The size an event counts for against an append limit (serialized type, data and metadata with the chain). */
export function eventBytes(event: NewEvent): number {
  const { data, metadata } = serializeEvent(event);
  return serializedBytes(event.type, data, metadata);
}

/** `eventBytes` of an event whose data and metadata are serialized already. */
export function serializedBytes(type: string, data: string, metadata: string): number {
  return (
    EVENT_OVERHEAD_BYTES + CHAIN_BYTES + Buffer.byteLength(type) + Buffer.byteLength(data) + Buffer.byteLength(metadata)
  );
}

export function appendBytes(events: readonly NewEvent[]): number {
  return events.reduce((sum, e) => sum + eventBytes(e), 0);
}

/** An append larger than the store's limit: refused whole, nothing is written. */
export class AppendTooLarge extends Error {
  override readonly name = 'AppendTooLarge';
  constructor(
    readonly streamName: string,
    readonly bytes: number,
    readonly maxAppendBytes: number,
  ) {
    super(`append to ${streamName} is ${bytes} bytes; the event store accepts at most ${maxAppendBytes} per append`);
  }
}

export interface ReadStreamOptions {
  /** First revision to return (inclusive); default 0. */
  fromRevision?: bigint;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Return events strictly after this position; absent means from the beginning. */
  after?: bigint;
  /** At most this many events (of `types`, when given). */
  maxCount?: number;
  /**
   * Only events of these types: the others are stepped over without being decoded (a replay of projections that
   * handle a few types reads the rest of the log for nothing). Absent means every type.
   */
  types?: readonly string[];
}

export interface Subscription {
  /** Stops delivery; resolves once no handler call is running. */
  stop(): Promise<void>;
  /**
   * Settles when the subscription ends: resolves after stop(); rejects on a handler or store
   * error, and with SubscriptionEnded when the store ends it without stop().
   */
  readonly done: Promise<void>;
}

export interface EventStore {
  /** Events of one stream in revision order; an empty array when the stream does not exist. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** The most bytes (by `appendBytes`) one append may carry; larger appends throw AppendTooLarge. */
  readonly maxAppendBytes: number;
  /** Where the store keeps snapshots of folded state beside its streams (see SnapshotStore); absent if none. */
  readonly snapshots?: SnapshotStore;
  /**
   * Appends atomically to one stream; throws WrongExpectedVersion when the check fails. Acknowledged only once durable.
   * Idempotent: repeating an append whose event ids are already in the stream at the expected position returns the
   * original result (so a retry after a transient error cannot write twice).
   */
  appendToStream(
    streamName: string,
    events: NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /** Events of all streams in global order (user events only). */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Catch-up subscription: delivers every event after `after` in global order, then live events,
   * one handler call at a time, awaiting each.
   */
  subscribeToAll(handler: (event: RecordedEvent) => Promise<void> | void, options?: { after?: bigint }): Subscription;
  /** The newest `maxCount` events of the global log, newest first (user events only). */
  readLast(maxCount: number): Promise<RecordedEvent[]>;
  /** Position of the newest event, or 0n when the log is empty. */
  headPosition(): Promise<bigint>;
  /**
   * Sets up the write path now rather than with the first append (the embedded store's append thread), so that a
   * process that writes does not make its first command after a start wait for it. Optional; idempotent.
   */
  prepareWrites?(): void;
  close(): Promise<void>;
}
