import type { CardEvent, CardSnapshot } from '#domain/cards/card-types.js';
import { toCardResource, type CardResource } from '#domain/cards/card.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** The card read model: the Card resource plus `platformId` for scoping. */
export type CardDoc = Doc & CardSnapshot & { platformId: string };

export function toCard(doc: CardDoc): CardResource {
  const { platformId: _p, ...card } = doc;
  return toCardResource(card);
}

/** Every lifecycle event carries the full card snapshot, so the document is simply replaced. */
export const cardProjection: Projection = {
  name: 'cards',
  collections: [Collections.cards],
  replayWeight: 5,
  // The list's filters (bench `lists`): a customer, a state, the platform's own card id. A funding account
  // (`accountId`, an element of `fundingSources`) is matched along the platform's cards.
  indexes: listIndexes(Collections.cards, [[], 'customerId', 'state', 'platformCardId'], { counted: [[], 'state'] }),
  handles: ['CardCreated', 'CardStateChanged', 'CardFundingSourcesChanged'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as CardEvent;
    if (event.type !== 'CardCreated' && event.type !== 'CardStateChanged' && event.type !== 'CardFundingSourcesChanged')
      return;
    tx.put(Collections.cards, { ...event.data.card, platformId: event.data.platformId } as CardDoc);
  },
};
