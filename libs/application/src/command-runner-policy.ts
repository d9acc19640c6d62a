import { DomainError } from '#domain/errors.js';
import { AppendTooLarge, type EventMetadata, type EventStore, WrongExpectedVersion } from '#event-store/event-store.js';
import type { ProjectionWaiter } from '#read-models/runner/projection-waiter.js';
import { performance } from 'node:perf_hooks';
import type { Logger } from '@nestjs/common';
import type { Decider, Event } from '#domain/decider.js';
import { type ByteSource, bytesSource } from '#domain/snapshot-codec.js';
import type { Snapshot } from '#event-store/snapshot-store.js';

/** Something that can tell when the local read models have caught up with a position. */
export type { ProjectionWaiter };

/**
 * What commands and reads declare to the command runner, named once: when a command answers, what a read needs, what
 * a part of the process needs of every command it runs, and how the runner is set up. Handlers declare these; the
 * runner applies them (the waiting, the caching and the paging are in the runner only). Below them, the runner's own
 * policies: one piece of work at a time per stream (`KeyedLock`), the retries after a conflict or a failed append, and
 * the folded state it keeps of each stream between commands, with its snapshots (`StreamSnapshots`).
 */

/**
 * When a command's answer is given. `projection` (the default): once the local read models include its write, so the
 * caller reads what it wrote (all read models, or only `readModels`). `append`: once its events are appended, for
 * what no read model shows (challenges, counters, claims) or a caller that waits itself (`projected`).
 */
export type AnswersAfter = 'append' | 'projection';

export interface RunOptions {
  metadata: EventMetadata;
  answersAfter?: AnswersAfter;
  /** The read models the caller reads next; only they are waited for (default all). */
  readModels?: string[];
}

/**
 * What a read of a stream needs. `current` (the default): the stream as it is now. `fixed-facts`: only facts that
 * never change once recorded (what a stream's creation fixes, such as a platform's kind and settlement accounts or a
 * card's holder; a challenge's payload), so the state this process last saw serves, unread, once `known` holds of it.
 */
export type Reads<State> = { reads?: 'current' } | { reads: 'fixed-facts'; known: (state: State) => boolean };

/**
 * What a part of the process declares once for every command it runs through `CommandRunner.for`. `answersAfter`
 * `append`: none of its commands waits for the read models, whatever it declares (the worker's commands have no
 * reader waiting for them). `cache`: the folded states of its streams are kept in a cache of their own, of `size`
 * streams (default `cacheSize`), so that streams it touches once (a bulk import's customers, webhook deliveries) do
 * not push those the requests use out of the runner's cache. `readPage`: its streams are folded that many events at
 * a time (streams of large events, such as a bulk import's rows).
 */
export interface RunnerUse {
  answersAfter?: AnswersAfter;
  cache?: { name: string; size?: number };
  readPage?: number;
}

export interface RunResult<State, E> {
  state: State;
  events: E[];
  /** Global position of the last appended event; undefined when the decision produced no events. */
  position?: bigint;
}

export interface CommandRunnerOptions {
  maxRetries?: number;
  readYourWritesTimeoutMs?: number;
  cacheSize?: number;
  /** Retries of an append that failed with a transient error (not a revision conflict), default 4. */
  transientRetries?: number;
  /** Waits before the nth transient retry (from 1); exponential from 50 ms by default. */
  backoff?: (retry: number) => Promise<void>;
  /** The ids given to decided events (default: random uuids); a simulation's are drawn from its seed. */
  eventIds?: () => string;
  /** When deciders that declare a snapshot codec have their state snapshotted (see StreamSnapshots). */
  snapshots?: SnapshotOptions;
}

/** Most commands decided together and appended in one write. */
export const MAX_BATCH = 256;

/** One command whose events alone exceed what the event store accepts in one append. */
export const tooLarge = (streamName: string, bytes: number, limit: number) =>
  new DomainError(
    'unprocessable',
    'EVENTS_TOO_LARGE',
    `the command's events (${bytes} bytes) exceed the event store's append limit of ${limit} bytes`,
    { reason: `stream ${streamName}` },
  );

/**
 * Wait before deciding again after a revision conflict: full jitter over an exponentially growing
 * window (2 ms doubling, at most 100 ms), so processes writing one hot stream stop colliding in step.
 */
export const conflictBackoff = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));

export const defaultBackoff = (retry: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 50 * 2 ** (retry - 1)));

/** Errors that say something about the request rather than the connection: retrying cannot help. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof WrongExpectedVersion ||
    error instanceof AppendTooLarge ||
    error instanceof TypeError ||
    error instanceof RangeError
  );
}

export class CommandConflictError extends Error {
  override readonly name = 'CommandConflictError';
}

/** What a batch's commands are refused with once its append failed for good (`attempt` counted from 0). */
export const finalAppendError = (error: unknown, streamName: string, attempt: number): unknown =>
  error instanceof WrongExpectedVersion
    ? new CommandConflictError(`stream ${streamName} kept changing; gave up after ${attempt + 1} attempts`)
    : error;

/**
 * Runs work one at a time per key inside this process, in call order; a failed piece of work does
 * not block the next. Keys with nothing queued hold no memory. Across processes, streams' expected
 * revisions keep writers honest: this only spares conflicts between callers of one process.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or queued. */
  get size(): number {
    return this.tails.size;
  }
}

/** Encodings at least this long are logged at the default level. */
const SLOW_ENCODE_MS = 100;

/** A stream's state folded up to `revision`, as the command runner caches it. */
export interface Folded<State> {
  state: State;
  /** Revision of the last folded event, -1n for a stream that does not exist yet. */
  revision: bigint;
  /** Id of the event at `revision` (what a snapshot of this state is bound to); unknown for an empty stream. */
  eventId?: string;
  /** The stream's newest snapshot known here: its revision and size in bytes. */
  snapshot?: { revision: bigint; bytes: number };
}

export interface SnapshotOptions {
  /** Events a stream must have grown by since its last snapshot before another is taken (default 1000; 0: none). */
  every?: number;
  /**
   * ...and at least one event per this many bytes of the last snapshot (default 4096): a state that grows with its
   * stream (a ledger keeps every transfer) is encoded again only once folding what was added since would cost about
   * as much as encoding it, rather than every `every` events.
   */
  bytesPerEvent?: number;
}

/**
 * Snapshots for the command runner: restores a stream's state from its newest valid snapshot, says when a folded
 * state is due for a new one and encodes it. Only deciders that declare a codec take part. A snapshot is used only
 * when its codec name and version are the decider's and the stream still has the snapshot's event at its revision;
 * anything else (none, stale, unreadable, a store that fails) falls back to folding the whole stream.
 */
export class StreamSnapshots {
  private readonly every: number;
  private readonly bytesPerEvent: number;
  /** Snapshots being taken or written, one per stream at most. */
  private readonly under = new Map<string, Promise<void>>();

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
    options: SnapshotOptions = {},
  ) {
    this.every = options.every ?? 1000;
    this.bytesPerEvent = options.bytesPerEvent ?? 4096;
  }

  private enabled(decider: Decider<unknown, unknown, Event>): boolean {
    return this.every > 0 && decider.snapshot !== undefined && this.store.snapshots !== undefined;
  }

  /** The state of the stream's newest valid snapshot, or undefined (then the stream is folded from its start). */
  async restore<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
  ): Promise<Folded<State> | undefined> {
    const codec = decider.snapshot;
    if (!codec || !this.enabled(decider as Decider<unknown, unknown, Event>)) return undefined;
    try {
      const snapshot = await this.store.snapshots!.readSnapshot(streamName);
      if (!snapshot || snapshot.decider !== codec.name || snapshot.version !== codec.version) return undefined;
      const [at] = await this.store.readStream(streamName, { fromRevision: snapshot.revision, maxCount: 1 });
      if (at?.revision !== snapshot.revision || at.id !== snapshot.eventId) {
        this.logger.warn(`snapshot of ${streamName} at revision ${snapshot.revision} is not of this stream; ignored`);
        return undefined;
      }
      const state = codec.decode(JSON.parse(snapshot.state), snapshot.binary);
      const { revision, eventId } = snapshot;
      const bytes = snapshot.state.length + (snapshot.binary?.byteLength ?? 0);
      return { state, revision, eventId, snapshot: { revision, bytes } };
    } catch (error) {
      this.logger.warn(`snapshot of ${streamName} could not be read (${(error as Error)?.message}); folding it whole`);
      return undefined;
    }
  }

  /** Whether the stream has grown enough since its last snapshot for a new one. */
  due(decider: Decider<unknown, unknown, Event>, folded: Folded<unknown>): boolean {
    if (!this.enabled(decider) || folded.eventId === undefined) return false;
    const grown = folded.revision - (folded.snapshot?.revision ?? -1n);
    const bytes = folded.snapshot?.bytes ?? 0;
    return grown >= BigInt(this.every) && grown * BigInt(this.bytesPerEvent) >= BigInt(bytes);
  }

  /**
   * Encodes the folded state (synchronously: the caller holds the stream, so nothing evolves it meanwhile), and
   * replaces it with its decoded form: a restart would have that form too, and it can be much smaller (a ledger keeps
   * its settled transfers as a digest). Once written, `rebind` lets it read its binary part where the store keeps it,
   * as a restarted process's state does.
   */
  take<State>(streamName: string, decider: Decider<State, unknown, Event>, folded: Folded<State>): Snapshot {
    const codec = decider.snapshot!;
    const started = performance.now();
    const state = JSON.stringify(codec.encode(folded.state));
    const binary = codec.encodeBinary?.(folded.state);
    folded.state = codec.decode(JSON.parse(state), binary && bytesSource(binary));
    const bytes = state.length + (binary?.byteLength ?? 0);
    folded.snapshot = { revision: folded.revision, bytes };
    const { revision, eventId } = folded;
    const ms = Math.round(performance.now() - started);
    // A long encoding held the whole process: worth a line at the default level (a large ledger's takes seconds).
    const line = `snapshot of ${streamName} at revision ${revision}: ${bytes} bytes encoded in ${ms} ms`;
    if (ms >= SLOW_ENCODE_MS) this.logger.log(line);
    else this.logger.debug(line);
    const snapshot = { streamName, decider: codec.name, version: codec.version, revision, eventId: eventId!, state };
    return binary ? { ...snapshot, binary } : snapshot;
  }

  /** Writes a snapshot; answers its binary part as the store keeps it when the store reads it by range. */
  write(snapshot: Snapshot): Promise<ByteSource | undefined> {
    return this.store.snapshots!.writeSnapshot(snapshot);
  }

  /**
   * Lets the cached state read its binary part where the store keeps it, once its snapshot was written: only a state
   * decoded from that very snapshot (`take`, or a restore of it), so the bytes are the same.
   */
  rebind<State>(decider: Decider<State, unknown, Event>, folded: Folded<State>, written: Snapshot, binary: ByteSource) {
    const rebind = decider.snapshot?.rebind;
    if (!rebind || folded.snapshot?.revision !== written.revision) return;
    folded.state = rebind(folded.state, binary);
  }

  /**
   * Takes a snapshot of a stream that has grown enough, off the path of the commands that made it grow: on a later
   * turn of the event loop (their replies go first), under the stream's lock (so the state is encoded as of one
   * revision: the `current` cached state, which may by then be newer), and written after the lock is released. A
   * failure is logged and changes nothing else; the stream is snapshotted again once it has grown by as much again.
   */
  consider(
    streamName: string,
    decider: Decider<unknown, unknown, Event>,
    folded: Folded<unknown>,
    stream: { lock: <T>(work: () => Promise<T>) => Promise<T>; current: () => Folded<unknown> | undefined },
  ): void {
    if (this.under.has(streamName) || !this.due(decider, folded)) return;
    const work = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() =>
        stream.lock(async () => {
          const current = stream.current();
          return current && this.due(decider, current) ? this.take(streamName, decider, current) : undefined;
        }),
      )
      .then(async (snapshot) => {
        const binary = snapshot && (await this.write(snapshot));
        if (!snapshot || !binary) return;
        // The store reads the binary part by range: the cached state reads it there too, and its copy is let go.
        await stream.lock(async () => {
          const current = stream.current();
          if (current) this.rebind(decider, current, snapshot, binary);
        });
      })
      .catch((error: unknown) =>
        this.logger.warn(`snapshot of ${streamName} not written: ${(error as Error)?.message ?? String(error)}`),
      )
      .finally(() => this.under.delete(streamName));
    this.under.set(streamName, work);
  }

  /** Resolves once the snapshots under way are written or have failed. */
  async written(): Promise<void> {
    while (this.under.size > 0) await Promise.all([...this.under.values()]);
  }
}
