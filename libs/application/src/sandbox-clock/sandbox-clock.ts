import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { streams } from '#domain/primitives.js';
import { sandboxClockDecider } from '#domain/sandbox-clock/sandbox-clock.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { CommandContext, PlatformClocks } from '../command-context.js';
import { requireSandbox } from '../payments/ledger/fund-commands.js';
import { JOB_QUEUE, type Actor } from '../tokens.js';

/** Reads a platform's clock: its time and its offset from real time (0 for production platforms). */
@Injectable()
export class SandboxClockService {
  constructor(private readonly clocks: PlatformClocks) {}

  async now(platformId: string): Promise<{ now: string; offsetMs: number }> {
    const offsetMs = await this.clocks.offsetMs(platformId);
    return { now: (await this.clocks.now(platformId)).toISOString(), offsetMs };
  }
}

export class AdvanceSandboxClockCommand {
  constructor(
    readonly byMs: number,
    readonly actor: Actor,
  ) {}
}

/**
 * Moves one sandbox platform's clock forward (for every process: the offset is in the
 * platform's clock stream), then brings that platform's timers forward by the same amount, so
 * those that became due run now. Other platforms' clocks and timers are untouched.
 */
@CommandHandler(AdvanceSandboxClockCommand)
export class AdvanceSandboxClockHandler implements ICommandHandler<
  AdvanceSandboxClockCommand,
  { now: string; offsetMs: number; promotedJobs: number }
> {
  constructor(
    private readonly ctx: CommandContext,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {}

  async execute({ byMs, actor }: AdvanceSandboxClockCommand) {
    await requireSandbox(this.ctx.runner, actor);
    const now = await this.ctx.now(actor.platformId);
    await this.ctx.runner.run(
      streams.sandboxClock(actor.platformId),
      sandboxClockDecider,
      { type: 'AdvanceSandboxClock', platformId: actor.platformId, byMs, now: now.toISOString() },
      { metadata: { ...actor }, answersAfter: 'append' },
    );
    this.ctx.clocks.advanced(actor.platformId);
    const { now: after, offsetMs } = await new SandboxClockService(this.ctx.clocks).now(actor.platformId);
    const promotedJobs = await this.jobs.advanceGroup(actor.platformId, byMs);
    return { now: after, offsetMs, promotedJobs };
  }
}
