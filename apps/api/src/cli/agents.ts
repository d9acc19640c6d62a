import { readFile } from 'node:fs/promises';
import { AgentPolicyBacktest } from '#application/agents/agent-backtest.js';
import type { AgentPolicyUpdate } from '#domain/agents/agent-types.js';
import { AgentPolicyBacktestDto } from '../agents/agent.dto.js';
import { idParam } from '../http/id-pipe.js';
import { asRequest, platformActor, platformOption, text, UsageError, type CliCommand } from './command.js';
import { fields, table } from './format.js';

const strings = {
  agent: { type: 'string' },
  policy: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
};

/** The draft policy in the file `--policy` names (JSON, the body of PATCH /agents/{id}/policy). */
async function draftOf(file: string | undefined): Promise<unknown> {
  if (!file) throw new UsageError('agents:backtest needs --policy FILE.json (a policy update)');
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--policy: cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`--policy: ${file} is not JSON`);
  }
}

/** Agents: a draft policy tried on an agent's past actions. */
export const agentCommands: CliCommand[] = [
  {
    name: 'agents:backtest',
    synopsis: '--platform Platform:<uuid> --agent Agent:<uuid> --policy FILE.json --from ISO --to ISO',
    description:
      'what the draft policy (a policy update, as PATCH /agents/{id}/policy takes) would have decided on the\n' +
      'agent’s actions requested in [from, to), as POST /agents/{id}/policy/backtest answers; nothing is written',
    options: { ...platformOption, ...strings } as CliCommand['options'],
    async run(ctx) {
      const actor = await platformActor(ctx, 'agents:backtest');
      const agentId = text(ctx, 'agent');
      if (!agentId) throw new UsageError('agents:backtest needs --agent Agent:<uuid>');
      const id = idParam('Agent', 'agentId').transform(agentId);
      const input = { policy: await draftOf(text(ctx, 'policy')), from: text(ctx, 'from'), to: text(ctx, 'to') };
      const body = await asRequest(AgentPolicyBacktestDto, input, 'body');
      const { policy, from, to } = body;
      const answer = await ctx.app
        .get(AgentPolicyBacktest)
        .backtest(actor.platformId, id, { policy: policy as AgentPolicyUpdate, from, to });
      const { currency, considered, changed, outcomes } = answer;
      return {
        data: answer,
        text: () =>
          `${fields([
            ['agent', answer.agentId],
            ['period', `${answer.from} .. ${answer.to}`],
            ['considered', `${considered.count} actions, ${considered.amount} ${currency}`],
            ['changed', `${changed.count} actions, ${changed.amount} ${currency}`],
          ])}\n\noutcomes (actual -> draft):\n` +
          table(
            ['actual', 'draft', 'count', `amount (${currency})`],
            outcomes.map((o) => [o.actualOutcome, o.draftOutcome, o.count, o.amount]),
          ) +
          '\n\nchanged actions:\n' +
          table(
            ['at', 'action', 'amount', 'currency', 'actual', 'draft', 'limit'],
            changed.actions.map((a) => [
              a.at,
              a.actionId,
              a.amount,
              a.currency,
              a.actualOutcome,
              a.draftOutcome,
              a.limit,
            ]),
          ),
      };
    },
  },
];
