import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdvanceSandboxClockCommand, SandboxClockService } from '#application/sandbox-clock/sandbox-clock.js';
import type { Actor } from '#application/tokens.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { AdvanceClockDto, advanceMs } from './sandbox-clock.dto.js';

/** The sandbox clock: real time plus a persisted offset that only grows. */
@ApiTags('Sandbox')
@Controller('sandbox/clock')
export class SandboxClockController {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: SandboxClockService,
  ) {}

  @Get()
  @ApiDoc({
    summary: 'Read the platform clock',
    description: 'The platform’s own time: real time plus its sandbox offset (always 0 on production platforms).',
    responses: ok('Now and the offset from real time', 'SandboxClock'),
  })
  get(@CurrentActor() actor: Actor) {
    return this.clock.now(actor.platformId);
  }

  @Post('advance')
  @HttpCode(200)
  @ApiDoc({
    summary: 'Advance the sandbox clock (sandbox)',
    description:
      'Moves this sandbox platform’s clock forward by `seconds` or `milliseconds` (exactly one, at ' +
      'most a year); other platforms keep their own time. Every process follows the persisted ' +
      'offset. This platform’s challenges, sessions, quotes, lookups and invitations expire on ' +
      'it, and its timers (quote expiries, delayed sandbox outcomes, card provisioning and ' +
      'authorization expiry, webhook retries) that became due run at once (promotedJobs ' +
      'counts them); poll the resources for their new status.',
    responses: ok('The new time', 'SandboxClock'),
    errors: [403],
  })
  advance(
    @Body() body: AdvanceClockDto,
    @CurrentActor() actor: Actor,
  ): Promise<{ now: string; offsetMs: number; promotedJobs: number }> {
    return this.commands.execute(new AdvanceSandboxClockCommand(advanceMs(body), actor));
  }
}
