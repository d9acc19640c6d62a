import { quoteStatusOf, toQuoteResource, type QuoteEvent } from '#domain/quotes/quote.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';
import { amendDoc } from '../amend-doc.js';

/** Quotes: the Quote resource plus platformId and customerId (for filters); status follows the quote's transaction. */
export const quoteProjection: Projection = {
  name: 'quotes',
  collections: [Collections.quotes],
  // A quote written on creation, again on execution and with every transfer.
  replayWeight: 30,
  // The list's filters (bench `lists`): a customer, a status.
  indexes: listIndexes(Collections.quotes, [[], 'customerId', 'status'], { counted: [[], 'status'] }),
  handles: ['QuoteCreated', 'TransactionCreated', 'TransactionStatusChanged'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as QuoteEvent;
    if (event.type === 'QuoteCreated') {
      const q = event.data.quote;
      tx.put(Collections.quotes, {
        ...toQuoteResource(q, 'PENDING'),
        id: q.id,
        platformId: q.platformId,
        customerId: q.source.customerId,
        updatedAt: q.createdAt,
      });
      return;
    }
    const t = event.data.transaction;
    if (!t.quoteId) return;
    await amendDoc(tx, Collections.quotes, t.quoteId, { status: quoteStatusOf(t.status), updatedAt: t.updatedAt });
  },
};

/** The API resource: scoping fields stripped. */
export function toQuoteDocResource(doc: Doc): Record<string, unknown> {
  const { platformId: _p, customerId: _c, updatedAt: _u, ...resource } = doc;
  return resource;
}
