import { AuditQueries } from '#application/audit/audit-queries.js';
import { MoneyQueries } from '#application/payments/transactions/money-queries.js';
import type { LedgerLeg } from '#domain/audit/as-of.js';
import { idParam } from '../http/id-pipe.js';
import { platformActor, platformOption, type CliCommand } from './command.js';
import { fields, leaves, table } from './format.js';

/** Transactions: one with the ledger legs moved for it. */
export const transactionCommands: CliCommand[] = [
  {
    name: 'transactions:show',
    synopsis: '--platform Platform:<uuid> Transaction:<uuid>',
    description:
      'the transaction as GET /transactions/{id} renders it, with its ledger legs (holds, posts, voids and\n' +
      'settled transfers) as GET /audit/transactions/{id}/ledger lists them, every page',
    options: platformOption,
    positionals: 1,
    async run(ctx) {
      const actor = await platformActor(ctx, 'transactions:show');
      const id = idParam('Transaction', 'transactionId').transform(ctx.positionals[0]);
      const transaction = await ctx.app.get(MoneyQueries).transaction(actor.platformId, id);
      const audit = ctx.app.get(AuditQueries);
      const ledger: LedgerLeg[] = [];
      let cursor: string | undefined;
      do {
        const page = await audit.transactionLedger(actor.platformId, id, { limit: 100, cursor });
        ledger.push(...page.data);
        cursor = page.hasMore ? page.nextCursor : undefined;
      } while (cursor);
      return {
        data: { transaction, ledger },
        text: () =>
          `${fields(leaves(transaction))}\n\nledger legs:\n` +
          table(
            ['at', 'transfer', 'kind', 'debit', 'credit', 'amount', 'currency', 'code'],
            ledger.map(({ leg, occurredAt, recordedAt }) => [
              occurredAt ?? recordedAt,
              leg.transferId,
              leg.kind,
              leg.debitAccountId,
              leg.creditAccountId,
              leg.amount,
              leg.currency,
              leg.code,
            ]),
          ),
      };
    },
  },
];
