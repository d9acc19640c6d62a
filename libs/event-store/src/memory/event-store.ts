import { randomUUID } from 'node:crypto';
import type { Clock } from '#domain/clock.js';
import { deepFreeze } from '../deep-freeze.js';
import {
  AppendTooLarge,
  DEFAULT_MAX_APPEND_BYTES,
  SubscriptionEnded,
  WrongExpectedVersion,
  appendBytes,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Subscription,
} from '../event-store.js';
import { GENESIS_HASH, chainMetadata, hashOf } from '../hash-chain.js';

/**
 * What an in-memory event store keeps "durably": the global log and its streams. Several `MemoryEventStore`s opened
 * on one log are connections to one store (a process restarted over the same durable state opens a new one).
 */
export class MemoryLog {
  readonly all: RecordedEvent[] = [];
  readonly streams = new Map<string, RecordedEvent[]>();
  /** Every event by id (a repeated append is found without a scan). */
  readonly byId = new Map<string, RecordedEvent>();
  /** Called after every commit (live subscriptions wait on it). */
  readonly listeners = new Set<() => void>();
}

/** The points where a caller (the simulator) decides when an operation completes, and whether it fails. */
export interface MemoryStoreHooks {
  /** Awaited before an operation takes effect; a rejection fails it with nothing written. */
  before?(operation: 'append' | 'read', streamName?: string): Promise<void>;
  /** Awaited after an append took effect (it is durable); a rejection fails the call all the same. */
  afterAppend?(streamName: string, result: AppendResult): Promise<void>;
}

export interface MemoryEventStoreOptions {
  log?: MemoryLog;
  /** Stamps `recordedAt` (default: the system clock). */
  clock?: Clock;
  /** New event ids where an event brings none (default: random uuids). */
  ids?: () => string;
  maxAppendBytes?: number;
  hooks?: MemoryStoreHooks;
}

/**
 * The EventStore port over memory: appends are atomic per call and chained by hash like the other adapters'; the
 * contract suite (`event-store.contract.ts`) holds it to the same rules. For tests and the simulator: nothing is
 * written to disk, and every completion can be held by `hooks` so that a scheduler decides the order.
 */
export class MemoryEventStore implements EventStore {
  readonly maxAppendBytes: number;
  readonly log: MemoryLog;
  private readonly subscriptions = new Set<MemorySubscription>();
  private closed = false;

  constructor(private readonly options: MemoryEventStoreOptions = {}) {
    this.log = options.log ?? new MemoryLog();
    this.maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    await this.options.hooks?.before?.('read', streamName);
    const events = this.log.streams.get(streamName) ?? [];
    const from = Number(options.fromRevision ?? 0n);
    return events.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
  }

  async appendToStream(
    streamName: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const bytes = appendBytes(events);
    if (bytes > this.maxAppendBytes) throw new AppendTooLarge(streamName, bytes, this.maxAppendBytes);
    await this.options.hooks?.before?.('append', streamName);
    if (this.closed) throw new Error('the event store is closed');
    const result = this.commit(streamName, events, options.expectedRevision ?? 'any');
    await this.options.hooks?.afterAppend?.(streamName, result);
    return result;
  }

  /** Checks the expected revision and appends, synchronously: nothing else runs between the check and the write. */
  private commit(streamName: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const stream = this.log.streams.get(streamName) ?? [];
    const last = stream.length === 0 ? ('no_stream' as const) : BigInt(stream.length - 1);
    const repeated = this.repeated(stream, events, expected);
    if (repeated) return repeated;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && last === 'no_stream') ||
      (expected === 'stream_exists' && last !== 'no_stream') ||
      (typeof expected === 'bigint' && last === expected);
    if (!ok) throw new WrongExpectedVersion(streamName, expected, last);
    if (events.length === 0) {
      return { nextExpectedRevision: last === 'no_stream' ? -1n : last, position: BigInt(this.log.all.length) };
    }
    let prevHash = hashOf(stream.at(-1)?.metadata) ?? GENESIS_HASH;
    const now = this.options.clock?.now() ?? new Date();
    for (const event of events) {
      const revision = BigInt(stream.length);
      const data = JSON.parse(JSON.stringify(event.data ?? {})) as Record<string, unknown>;
      const fields = { streamName, revision, type: event.type, data, metadata: event.metadata ?? {} };
      const metadata = JSON.parse(JSON.stringify(chainMetadata(prevHash, fields))) as RecordedEvent['metadata'];
      prevHash = String(metadata.hash);
      const id = event.id ?? this.options.ids?.() ?? randomUUID();
      const position = BigInt(this.log.all.length + 1);
      const recorded = deepFreeze({
        id,
        type: event.type,
        data,
        metadata,
        streamName,
        revision,
        position,
        recordedAt: now,
      });
      stream.push(recorded);
      this.log.all.push(recorded);
      this.log.byId.set(id, recorded);
    }
    this.log.streams.set(streamName, stream);
    for (const listener of [...this.log.listeners]) listener();
    return { nextExpectedRevision: BigInt(stream.length - 1), position: stream.at(-1)!.position };
  }

  /** An append whose event ids are in the stream already, just after the expected revision: its first result. */
  private repeated(stream: RecordedEvent[], events: NewEvent[], expected: ExpectedRevision): AppendResult | undefined {
    const firstId = events[0]?.id;
    if (!firstId) return undefined;
    const first = this.log.byId.get(firstId);
    if (!first || first.streamName !== stream[0]?.streamName) return undefined;
    const at = Number(first.revision);
    if (at + events.length > stream.length) return undefined;
    if (!events.every((e, i) => e.id === stream[at + i].id)) return undefined;
    const startsAt = at === 0 ? 'no_stream' : BigInt(at - 1);
    if (expected !== 'any' && expected !== startsAt && !(expected === 'stream_exists' && at > 0)) return undefined;
    const last = stream[at + events.length - 1];
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    await this.options.hooks?.before?.('read');
    const types = options.types ? new Set(options.types) : undefined;
    const out: RecordedEvent[] = [];
    for (let i = Number(options.after ?? 0n); i < this.log.all.length; i++) {
      if (options.maxCount !== undefined && out.length >= options.maxCount) break;
      const event = this.log.all[i];
      if (!types || types.has(event.type)) out.push(event);
    }
    return out;
  }

  async readLast(maxCount: number): Promise<RecordedEvent[]> {
    return this.log.all.slice(Math.max(0, this.log.all.length - maxCount)).reverse();
  }

  async headPosition(): Promise<bigint> {
    return BigInt(this.log.all.length);
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void> | void, options: { after?: bigint } = {}) {
    const subscription = new MemorySubscription(this.log, handler, options.after ?? 0n, (s) =>
      this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const subscription of [...this.subscriptions]) subscription.end(new SubscriptionEnded());
  }
}

/** Delivers the log after a position, one handler call at a time, then waits for the next commit. */
class MemorySubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private wake: (() => void) | undefined;
  private finish!: (error?: unknown) => void;

  constructor(
    private readonly log: MemoryLog,
    private readonly handler: (event: RecordedEvent) => Promise<void> | void,
    private position: bigint,
    private readonly forget: (s: MemorySubscription) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.finish = (error?: unknown) => (error === undefined ? resolve() : reject(error));
    });
    this.done.catch(() => undefined);
    const listener = () => this.wake?.();
    log.listeners.add(listener);
    void this.loop().then(
      () => this.settle(listener),
      (error: unknown) => this.settle(listener, error),
    );
  }

  private settle(listener: () => void, error?: unknown): void {
    this.log.listeners.delete(listener);
    this.forget(this);
    this.finish(error);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const next = this.log.all[Number(this.position)];
      if (!next) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      await this.handler(next);
      this.position = next.position;
    }
    if (this.ended) throw this.ended;
  }

  private ended: Error | undefined;

  end(error: Error): void {
    this.ended = error;
    this.stopped = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.done.catch(() => undefined);
  }
}
