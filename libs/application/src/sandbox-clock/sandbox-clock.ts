import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '../../../domain/src/clock.js';
import { DomainError } from '../../../domain/src/errors.js';
import { streams } from '../../../domain/src/ids.js';
import { sandboxClockDecider, type SandboxClockEvent } from '../../../domain/src/sandbox-clock/sandbox-clock.js';
import type { EventStore } from '../../../event-store/src/event-store.js';
import type { JobQueue } from '../../../jobs/src/job-queue.js';
import { CommandRunner } from '../command-runner.js';
import { requireSandbox } from '../ledger/fund-commands.js';
import { CLOCK, EVENT_STORE, JOB_QUEUE, type Actor } from '../tokens.js';

type AdvanceableClock = Clock & { advance(ms: number): Date };
const canAdvance = (clock: Clock): clock is AdvanceableClock => typeof (clock as Partial<AdvanceableClock>).advance === 'function';

/** What each clock object of this process has already applied from the sandbox clock stream. */
const applied = new WeakMap<Clock, { revision: bigint; offsetMs: number }>();

/**
 * Brings a process's clock up to the persisted sandbox offset: reads the clock stream's new
 * events and advances the clock by the difference. Safe to call from several places sharing one
 * clock (the API and the in-process worker): the applied offset is tracked per clock object.
 */
export async function syncSandboxClock(store: EventStore, clock: Clock): Promise<{ offsetMs: number }> {
  const seen = applied.get(clock) ?? { revision: -1n, offsetMs: 0 };
  const events = await store.readStream(streams.sandboxClock(), { fromRevision: seen.revision + 1n });
  if (events.length === 0) return { offsetMs: seen.offsetMs };
  const last = events[events.length - 1];
  const offsetMs = (last.data as SandboxClockEvent['data']).offsetMs;
  const current = applied.get(clock) ?? seen;
  if (offsetMs > current.offsetMs && canAdvance(clock)) clock.advance(offsetMs - current.offsetMs);
  const next = { revision: last.revision, offsetMs: Math.max(offsetMs, current.offsetMs) };
  applied.set(clock, next);
  return { offsetMs: next.offsetMs };
}

/** Keeps this process's clock in step with the persisted offset (advances made by other processes). */
export class SandboxClockFollower {
  private timer: NodeJS.Timeout | undefined;
  private readonly logger = new Logger('SandboxClock');

  constructor(private readonly store: EventStore, private readonly clock: Clock, private readonly intervalMs = 1_000) {}

  async start(): Promise<void> {
    await syncSandboxClock(this.store, this.clock);
    this.timer = setInterval(() => {
      syncSandboxClock(this.store, this.clock).catch((error: unknown) => this.logger.warn(`sandbox clock sync failed: ${String(error)}`));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The API process's follower, started with the application. */
@Injectable()
export class SandboxClockService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly follower: SandboxClockFollower;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, @Inject(CLOCK) private readonly clock: Clock) {
    this.follower = new SandboxClockFollower(store, clock);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.follower.start();
  }

  onApplicationShutdown(): void {
    this.follower.stop();
  }

  async now(): Promise<{ now: string; offsetMs: number }> {
    const { offsetMs } = await syncSandboxClock(this.store, this.clock);
    return { now: this.clock.now().toISOString(), offsetMs };
  }
}

export class AdvanceSandboxClockCommand {
  constructor(readonly byMs: number, readonly actor: Actor) {}
}

/**
 * Moves the sandbox clock forward (for every process: the offset is persisted), then makes the
 * timers that became due run now.
 */
@CommandHandler(AdvanceSandboxClockCommand)
export class AdvanceSandboxClockHandler implements ICommandHandler<AdvanceSandboxClockCommand, { now: string; offsetMs: number; promotedJobs: number }> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {}

  async execute({ byMs, actor }: AdvanceSandboxClockCommand) {
    await requireSandbox(this.runner, actor);
    if (!canAdvance(this.clock)) throw new DomainError('conflict', 'CLOCK_NOT_ADJUSTABLE', 'this installation runs on a clock that cannot be advanced');
    await syncSandboxClock(this.store, this.clock);
    await this.runner.run(
      streams.sandboxClock(),
      sandboxClockDecider,
      { type: 'AdvanceSandboxClock', platformId: actor.platformId, byMs, now: this.clock.now().toISOString() },
      { metadata: { ...actor }, waitForReadModels: false },
    );
    const { offsetMs } = await syncSandboxClock(this.store, this.clock);
    const promotedJobs = await this.jobs.promoteDue();
    return { now: this.clock.now().toISOString(), offsetMs, promotedJobs };
  }
}
