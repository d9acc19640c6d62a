import { Logger } from '@nestjs/common';
import type { Decider, Event } from '../../domain/src/decider.js';
import { WrongExpectedVersion, type EventMetadata, type EventStore, type RecordedEvent } from '../../event-store/src/event-store.js';

/** Something that can tell when the local read models have caught up with a position. */
export interface ProjectionWaiter {
  waitForPosition(position: bigint, timeoutMs: number): Promise<boolean>;
}

export interface RunOptions {
  metadata: EventMetadata;
  /** Wait for read models to include this write before returning (default true). */
  waitForReadModels?: boolean;
}

export interface RunResult<State, E> {
  state: State;
  events: E[];
  /** Global position of the last appended event; undefined when the decision produced no events. */
  position?: bigint;
}

interface Folded<State> {
  state: State;
  /** Revision of the last folded event, -1n for a stream that does not exist yet. */
  revision: bigint;
}

export class CommandConflictError extends Error {
  override readonly name = 'CommandConflictError';
}

/**
 * The one command pipeline: read the stream, fold with `evolve`, `decide`, append with the
 * expected revision, retry on a revision conflict. Folded states are cached per stream (bounded)
 * and brought up to date by reading only the events after the cached revision, so long streams
 * (the ledger) are not re-read on every command. Commands on one stream are serialized within
 * the process; other processes are kept honest by the expected revision.
 */
export class CommandRunner {
  private readonly logger = new Logger('CommandRunner');
  private readonly cache = new Map<string, Folded<unknown>>();
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: EventStore,
    private readonly waiter: ProjectionWaiter | undefined,
    private readonly options: { maxRetries?: number; readYourWritesTimeoutMs?: number; cacheSize?: number } = {},
  ) {}

  /** Current state of a stream (not to be mutated by the caller). */
  async load<State, C, E extends Event>(streamName: string, decider: Decider<State, C, E>): Promise<{ state: State; revision: bigint }> {
    return this.withLock(streamName, () => this.catchUp(streamName, decider));
  }

  async run<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    command: C | ((state: State) => C),
    options: RunOptions,
  ): Promise<RunResult<State, E>> {
    const result = await this.withLock(streamName, () => this.decideAndAppend(streamName, decider, command, options));
    if (result.position !== undefined && options.waitForReadModels !== false) await this.waitForReadModels(result.position);
    return result;
  }

  async waitForReadModels(position: bigint): Promise<void> {
    const timeout = this.options.readYourWritesTimeoutMs ?? 5000;
    // A zero timeout (the CLI) means: do not wait for a projector at all.
    if (!this.waiter || timeout === 0) return;
    const ok = await this.waiter.waitForPosition(position, timeout);
    if (!ok) this.logger.warn(`read models did not reach position ${position} within ${timeout} ms`);
  }

  private async decideAndAppend<State, C, E extends Event>(
    streamName: string,
    decider: Decider<State, C, E>,
    command: C | ((state: State) => C),
    options: RunOptions,
  ): Promise<RunResult<State, E>> {
    const maxRetries = this.options.maxRetries ?? 20;
    for (let attempt = 0; ; attempt++) {
      const folded = await this.catchUp(streamName, decider);
      const cmd = typeof command === 'function' ? (command as (s: State) => C)(folded.state) : command;
      const events = decider.decide(cmd, folded.state);
      if (events.length === 0) return { state: folded.state, events };
      try {
        const appended = await this.store.appendToStream(
          streamName,
          events.map((e) => ({ type: e.type, data: e.data as unknown as Record<string, unknown>, metadata: options.metadata })),
          { expectedRevision: folded.revision < 0n ? 'no_stream' : folded.revision },
        );
        let state = folded.state;
        for (const e of events) state = decider.evolve(state, e);
        this.remember(streamName, { state, revision: appended.nextExpectedRevision });
        return { state, events, position: appended.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersion)) throw error;
        if (attempt >= maxRetries) throw new CommandConflictError(`stream ${streamName} kept changing; gave up after ${attempt + 1} attempts`);
        // Another process appended: the next catchUp reads what it wrote, then we decide again.
      }
    }
  }

  private async catchUp<State, C, E extends Event>(streamName: string, decider: Decider<State, C, E>): Promise<Folded<State>> {
    const cached = this.cache.get(streamName) as Folded<State> | undefined;
    let folded: Folded<State> = cached ?? { state: decider.initialState(), revision: -1n };
    const newer: RecordedEvent[] = await this.store.readStream(streamName, { fromRevision: folded.revision + 1n });
    if (newer.length > 0) {
      let state = folded.state;
      for (const e of newer) state = decider.evolve(state, { type: e.type, data: e.data } as E);
      folded = { state, revision: newer[newer.length - 1].revision };
    }
    this.remember(streamName, folded);
    return folded;
  }

  private remember(streamName: string, folded: Folded<unknown>): void {
    this.cache.delete(streamName);
    this.cache.set(streamName, folded);
    const limit = this.options.cacheSize ?? 10_000;
    if (this.cache.size > limit) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** Serializes work per stream inside this process, so one stream's commands queue instead of conflicting. */
  private async withLock<T>(streamName: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(streamName) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.catch(() => undefined);
    this.locks.set(streamName, settled);
    try {
      return await current;
    } finally {
      if (this.locks.get(streamName) === settled) this.locks.delete(streamName);
    }
  }
}
