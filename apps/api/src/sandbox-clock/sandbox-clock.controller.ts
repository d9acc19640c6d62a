import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdvanceSandboxClockCommand, SandboxClockService } from '#application/sandbox-clock/sandbox-clock.js';
import type { Actor } from '#application/tokens.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { AdvanceClockDto, advanceMs } from './sandbox-clock.dto.js';
import { SANDBOX_CLOCK_TEXT } from '../docs/descriptions/sandbox-clock.js';

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
    description: SANDBOX_CLOCK_TEXT.get,
    responses: ok('Now and the offset from real time', 'SandboxClock'),
  })
  get(@CurrentActor() actor: Actor) {
    return this.clock.now(actor.platformId);
  }

  @Post('advance')
  @HttpCode(200)
  @ApiDoc({
    summary: 'Advance the sandbox clock (sandbox)',
    description: SANDBOX_CLOCK_TEXT.advance,
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
