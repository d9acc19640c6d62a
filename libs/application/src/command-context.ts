import { Inject, Injectable } from '@nestjs/common';
import { type IdGenerator, streams } from '#domain/primitives.js';
import { CommandRunner } from './command-runner.js';
import { IDS } from './tokens.js';
import type { Clock } from '#domain/clock.js';
import type { SandboxClockEvent } from '#domain/sandbox-clock/sandbox-clock.js';
import type { EventStore } from '#event-store/event-store.js';
import { TurnMemo } from './turn-memo.js';

interface Applied {
  /** Revision of the platform's clock stream read so far (-1: none). */
  revision: bigint;
  offsetMs: number;
}

/**
 * Every platform's clock: the installation's base clock (real time, or a test's manual clock)
 * plus the platform's own sandbox offset. Production platforms have no offset, ever: only sandbox
 * platforms can append to their clock stream. A read (`now`, `forPlatform`) on a sandbox platform first
 * catches up with its clock stream, so an advance made by any process is seen by every other at once: the reads
 * made in one turn of the event loop share one read of the stream (the requests a turn handles arrived together),
 * and an advance this process makes (`advanced`) is read by the next read. A platform found to be a production one
 * (its creation says so, and that never changes) is on the base clock from then on, without reading its clock
 * stream again.
 */
export class PlatformClocks {
  private readonly applied = new Map<string, Applied>();
  /** This turn's read of each platform's clock stream, shared by the turn's callers. */
  private readonly thisTurn = new TurnMemo<string, Applied>();
  private readonly views = new Map<string, Clock>();
  /** What each platform's creation says it is; a production platform's offset is 0 for good. */
  private readonly kinds = new Map<string, 'sandbox' | 'production'>();

  constructor(
    private readonly store: EventStore,
    readonly base: Clock,
  ) {}

  /** The platform's current time. */
  async now(platformId: string): Promise<Date> {
    await this.sync(platformId);
    return this.current(platformId);
  }

  /** A clock that reads the platform's time (caught up now, and again on every `sync`). */
  async forPlatform(platformId: string): Promise<Clock> {
    await this.sync(platformId);
    let view = this.views.get(platformId);
    if (!view) {
      view = { now: () => this.current(platformId) };
      this.views.set(platformId, view);
    }
    return view;
  }

  /** The platform's offset from the base clock, caught up with its clock stream. */
  async offsetMs(platformId: string): Promise<number> {
    return (await this.sync(platformId)).offsetMs;
  }

  /**
   * Reads the advances appended to the platform's clock stream since the last read; the callers of one turn of the
   * event loop share one read.
   */
  sync(platformId: string): Promise<Applied> {
    return this.thisTurn.get(platformId, () => this.read(platformId));
  }

  /** This process appended to the platform's clock stream: the next read, even in this turn, reads it again. */
  advanced(platformId: string): void {
    this.thisTurn.forget(platformId);
  }

  private async read(platformId: string): Promise<Applied> {
    const seen = this.applied.get(platformId) ?? { revision: -1n, offsetMs: 0 };
    if ((this.kinds.get(platformId) ?? (await this.kindOf(platformId))) === 'production') return seen;
    const events = await this.store.readStream(streams.sandboxClock(platformId), { fromRevision: seen.revision + 1n });
    if (events.length === 0) return seen;
    const last = events[events.length - 1];
    const next = {
      revision: last.revision,
      offsetMs: Math.max(seen.offsetMs, (last.data as SandboxClockEvent['data']).offsetMs),
    };
    this.applied.set(platformId, next);
    return next;
  }

  /** What the platform's creation says it is (remembered; a platform not created yet has its clock stream read). */
  private async kindOf(platformId: string): Promise<'sandbox' | 'production' | undefined> {
    const [created] = await this.store.readStream(streams.platform(platformId), { maxCount: 1 });
    if (created?.type !== 'PlatformCreated') return undefined;
    const kind = (created.data as { sandbox?: unknown }).sandbox === false ? 'production' : 'sandbox';
    this.kinds.set(platformId, kind);
    return kind;
  }

  private current(platformId: string): Date {
    return new Date(this.base.now().getTime() + (this.applied.get(platformId)?.offsetMs ?? 0));
  }
}

/**
 * What every command handler works with: the process's command runner, the platforms' clocks (`PlatformClocks`,
 * below) and the id generator.
 * Provided once by the global application module, so a handler takes this one dependency instead of the three.
 */
@Injectable()
export class CommandContext {
  constructor(
    readonly runner: CommandRunner,
    readonly clocks: PlatformClocks,
    @Inject(IDS) readonly ids: IdGenerator,
  ) {}

  /** The platform's current time. */
  now(platformId: string): Promise<Date> {
    return this.clocks.now(platformId);
  }

  /** The platform's current time as ISO 8601 text, as events record it. */
  async nowIso(platformId: string): Promise<string> {
    return (await this.clocks.now(platformId)).toISOString();
  }
}

/**
 * Crash points for crash tests: with `FAULT_INJECT=<name>` in its environment the process kills
 * itself (SIGKILL: no cleanup, nothing flushed) when it reaches the point of that name, so a test
 * can stop a real process exactly between two appends. Unset, a point does nothing.
 */
const FAULT_INJECT = process.env.FAULT_INJECT;

export type FaultPoint =
  /** A signed retry's requestId was consumed; the change it authorizes is not applied yet. */
  | 'after-consume'
  /** A bulk import created the customers of the window holding its middle row; their outcomes are not recorded yet. */
  | 'bulk-import-halfway'
  /** A bank rail wrote an initiation file into its outbox; the file is not yet recorded as written. */
  | 'rail-file-written'
  /** A bank rail recorded an inbox file and its effects; no payment has moved yet. */
  | 'rail-inbox-recorded'
  /** A bank rail applied the first effect of an inbox file; the others and the file's end are not recorded. */
  | 'rail-inbox-halfway'
  /** A request under an Idempotency-Key has had its effect; its answer is not yet kept under the key. */
  | 'before-key-answer';

export function faultPoint(name: FaultPoint): void {
  if (FAULT_INJECT === name) process.kill(process.pid, 'SIGKILL');
}

/**
 * Test hooks of in-process tests: a step the test makes slow by setting it (a promise it settles when it wants),
 * to reach a path that only a slow service takes. Unset, a step costs nothing.
 */
export const testHooks: {
  /** At the platform-decision step of an authorization whose card rules approved it. */
  slowDecision?: (authorizationId: string) => Promise<void>;
} = {};

export async function slowDecisionStep(authorizationId: string): Promise<void> {
  if (testHooks.slowDecision) await testHooks.slowDecision(authorizationId);
}
