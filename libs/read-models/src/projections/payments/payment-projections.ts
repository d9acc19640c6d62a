import { quoteStatusOf, toQuoteResource, type QuoteEvent } from '#domain/payments/quotes/quote.js';
import { toTransactionResource, type TransactionEvent } from '#domain/payments/transactions/transaction.js';
import { amendDoc, defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** Quotes: the Quote resource plus platformId and customerId (for filters); status follows the quote's transaction. */
/** A quote's status follows its transaction's (a transaction of no quote changes none). */
async function followTransaction({ data }: TransactionEvent, tx: ProjectionTransaction): Promise<void> {
  const t = data.transaction;
  if (!t.quoteId) return;
  await amendDoc(tx, Collections.quotes, t.quoteId, { status: quoteStatusOf(t.status), updatedAt: t.updatedAt });
}

export const quoteProjection = defineProjection<QuoteEvent>({
  name: 'quotes',
  collections: [Collections.quotes],
  // A quote written on creation, again on execution and with every transfer.
  replayWeight: 30,
  // The list's filters (bench `lists`): a customer, a status.
  indexes: listIndexes(Collections.quotes, [[], 'customerId', 'status'], { counted: [[], 'status'] }),
  on: {
    QuoteCreated: ({ data: { quote: q } }, tx) =>
      tx.put(Collections.quotes, {
        ...toQuoteResource(q, 'PENDING'),
        id: q.id,
        platformId: q.platformId,
        customerId: q.source.customerId,
        updatedAt: q.createdAt,
      }),
    TransactionCreated: followTransaction,
    TransactionStatusChanged: followTransaction,
  },
});

/** The API resource: scoping fields stripped. */
export function toQuoteDocResource(doc: Doc): Record<string, unknown> {
  const { platformId: _p, customerId: _c, updatedAt: _u, ...resource } = doc;
  return resource;
}

/**
 * Transactions (from quotes, transfers and incoming payments): the Transaction resource plus
 * platformId and `accountIdentifiers` (every account id and UMA address involved, for the
 * accountIdentifier filter).
 */
/** Every event carries the whole transaction, so the document is simply replaced. */
function putTransaction({ data }: TransactionEvent, tx: ProjectionTransaction): void {
  const t = data.transaction;
  const accountIdentifiers = [
    t.source.accountId,
    t.source.umaAddress,
    t.destination.accountId,
    t.destination.umaAddress,
  ].filter((v): v is string => typeof v === 'string');
  tx.put(Collections.transactions, {
    ...toTransactionResource(t),
    id: t.id,
    platformId: t.platformId,
    accountIdentifiers,
  });
}

export const transactionProjection = defineProjection<TransactionEvent>({
  name: 'transactions',
  collections: [Collections.transactions],
  // Every status change rewrites the whole transaction.
  replayWeight: 36,
  // The list's selective filters (bench `lists`): a customer, a status, a reconciliation reference, and
  // senderAccountIdentifier / receiverAccountIdentifier (an account id; UMA addresses are rarer and scan the platform).
  indexes: listIndexes(
    Collections.transactions,
    [[], 'customerId', 'status', 'reconciliationInstructions.reference', 'source.accountId', 'destination.accountId'],
    { counted: [[], 'status'] },
  ),
  on: {
    TransactionCreated: putTransaction,
    TransactionStatusChanged: putTransaction,
    TransactionAnnotated: putTransaction,
  },
});

export function toTransactionDocResource(doc: Doc): Record<string, unknown> {
  const { platformId: _p, accountIdentifiers: _a, ...resource } = doc;
  return resource;
}
