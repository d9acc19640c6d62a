import { CommandBus } from '@nestjs/cqrs';
import { AdvanceSandboxClockCommand, SandboxClockService } from '#application/sandbox-clock/sandbox-clock.js';
import { AdvanceClockDto, advanceMs } from '../sandbox-clock/sandbox-clock.dto.js';
import { asRequest, platformActor, platformOption, text, type CliCommand, type CliContext } from './command.js';
import { fields } from './format.js';

const clockText = (clock: { now: string; offsetMs: number; promotedJobs?: number }) => () =>
  fields([
    ['now', clock.now],
    ['offset', `${clock.offsetMs} ms (${clock.offsetMs / 1000} s ahead of real time)`],
    ...(clock.promotedJobs !== undefined ? [['timers due now', clock.promotedJobs] as [string, number]] : []),
  ]);

/** A number where the text is one, so that the API's body validation judges it as it would a JSON body. */
function asNumber(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? n : value;
}

async function advanceBody(ctx: CliContext): Promise<AdvanceClockDto> {
  const body: Record<string, unknown> = {};
  for (const name of ['seconds', 'milliseconds'])
    if (text(ctx, name) !== undefined) body[name] = asNumber(text(ctx, name));
  return asRequest(AdvanceClockDto, body, 'body');
}

/** The platform's clock: read it, and move a sandbox platform's forward. */
export const sandboxCommands: CliCommand[] = [
  {
    name: 'sandbox:clock',
    synopsis: '--platform Platform:<uuid>',
    description: 'the platform’s time and its offset from real time (GET /sandbox/clock; 0 on production platforms)',
    options: platformOption,
    async run(ctx) {
      const actor = await platformActor(ctx, 'sandbox:clock');
      const clock = await ctx.app.get(SandboxClockService).now(actor.platformId);
      return { data: clock, text: clockText(clock) };
    },
  },
  {
    name: 'sandbox:clock:advance',
    synopsis: '--platform Platform:<uuid> (--seconds N | --milliseconds N)',
    description:
      'moves a sandbox platform’s clock forward (at most a year), as POST /sandbox/clock/advance does: its\n' +
      'timers that became due run at once; a production platform is refused (FORBIDDEN)',
    options: { ...platformOption, seconds: { type: 'string' }, milliseconds: { type: 'string' } },
    async run(ctx) {
      const actor = await platformActor(ctx, 'sandbox:clock:advance');
      const byMs = advanceMs(await advanceBody(ctx));
      const clock: { now: string; offsetMs: number; promotedJobs: number } = await ctx.app
        .get(CommandBus)
        .execute(new AdvanceSandboxClockCommand(byMs, actor));
      return { data: clock, text: clockText(clock) };
    },
  },
];
