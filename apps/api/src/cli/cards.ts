import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CardBacktests } from '#application/cards/card-backtest.js';
import { CardProcessorConfig } from '#application/cards/card-processor-config.js';
import type { CardBacktestReport } from '#domain/cards/card-backtest.js';
import { plainControls, SpendingControlsBacktestDto } from '../cards/spending-controls.dto.js';
import {
  asRequest,
  platformActor,
  platformOption,
  text,
  UsageError,
  type CliCommand,
  type CliContext,
} from './command.js';
import { fields, table } from './format.js';

/** The draft in `--controls`: a JSON file holding the SpendingControls object (or null). */
async function draftOf(ctx: CliContext): Promise<unknown> {
  const file = text(ctx, 'controls');
  if (!file) throw new UsageError('cards:backtest needs --controls <file.json>');
  let content: string;
  try {
    content = await readFile(resolve(file), 'utf8');
  } catch {
    throw new UsageError(`--controls ${file} cannot be read`);
  }
  try {
    return JSON.parse(content) as unknown;
  } catch {
    throw new UsageError(`--controls ${file} is not JSON`);
  }
}

const decision = (d: { outcome: string; declineReason: string | null }) => d.declineReason ?? d.outcome;

function reportText(r: CardBacktestReport & { cardId: string; currency: string }): string {
  const amount = (t: { count: number; amount: number | null; exact?: string }) =>
    `${t.count} (${t.amount ?? t.exact} ${r.currency})`;
  const summary = fields([
    ['card', r.cardId],
    ['period', `${r.from} .. ${r.to}`],
    ['authorizations', r.authorizations],
    ['approved (actual)', amount(r.actualApproved)],
    ['approved (draft)', amount(r.draftApproved)],
    ['changed', amount(r.changed)],
  ]);
  const pairs = table(
    ['actual', 'draft', 'count', 'amount'],
    r.transitions.map((p) => [decision(p.actual), decision(p.draft), p.count, p.amount ?? p.exact]),
  );
  const changes = table(
    ['authorization', 'at', 'amount', 'merchant', 'actual', 'draft'],
    r.changes.map((c) => [
      c.authorizationId,
      c.at,
      c.amount,
      c.merchant.descriptor,
      decision(c.actual),
      decision(c.draft) + (c.fundsAssumed ? ' (funds assumed)' : ''),
    ]),
  );
  const truncated = r.changesTruncated ? '\n(more changed than listed)' : '';
  return `${summary}\n\n${pairs}\n\n${changes}${truncated}`;
}

/** Cards: the card processor's secret, spending-controls backtests. */
export const cardCommands: CliCommand[] = [
  {
    name: 'cards:processor-secret',
    synopsis: '--platform Platform:<uuid>',
    description:
      'sets a new card processor secret for the platform (the previous one stops verifying at once) and prints\n' +
      'it, as POST /config/card-processor/secret does: the only time it is shown',
    options: platformOption,
    async run(ctx) {
      const actor = await platformActor(ctx, 'cards:processor-secret');
      const rotated = await ctx.app.get(CardProcessorConfig).rotateSecret(actor);
      const shown = ['cardProcessorSecret', 'decisionDeadlineMs', 'standInDecision', 'secretSetAt'] as const;
      return { data: rotated, text: () => fields(shown.map((k) => [k, String(rotated[k])])) };
    },
  },
  {
    name: 'cards:backtest',
    synopsis:
      '--card Card:<uuid> --controls <file.json> --from <ISO time> --to <ISO time> [--platform Platform:<uuid>]',
    description:
      'what a draft of spending controls (the JSON file) would have decided of the card’s authorizations in\n' +
      '[from, to), replayed from its event stream; writes nothing (POST /cards/{id}/spending-controls/backtest)',
    options: {
      card: { type: 'string' },
      controls: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      platform: { type: 'string' },
    },
    async run(ctx) {
      const card = text(ctx, 'card');
      if (!card) throw new UsageError('cards:backtest needs --card Card:<uuid>');
      // With --platform the card must be that platform's (as over the API); without, the operator reads any card.
      const platformId = text(ctx, 'platform') ? (await platformActor(ctx, 'cards:backtest')).platformId : undefined;
      const input = { spendingControls: await draftOf(ctx), from: text(ctx, 'from'), to: text(ctx, 'to') };
      const body = await asRequest(SpendingControlsBacktestDto, input, 'body');
      const period = { from: body.from, to: body.to };
      const report = await ctx.app
        .get(CardBacktests)
        .backtest(platformId, card, plainControls(body.spendingControls), period);
      return { data: report, text: () => reportText(report) };
    },
  },
];
