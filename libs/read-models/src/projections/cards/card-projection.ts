import type { CardEvent, CardSnapshot } from '#domain/cards/card-types.js';
import { toCardResource, type CardResource } from '#domain/cards/card.js';
import { defineProjection } from '../../projection.js';
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
const putCard = ({ data }: { data: { platformId: string; card: CardSnapshot } }, tx: ProjectionTransaction) =>
  tx.put(Collections.cards, { ...data.card, platformId: data.platformId } as CardDoc);

export const cardProjection = defineProjection<CardEvent>({
  name: 'cards',
  collections: [Collections.cards],
  replayWeight: 5,
  // The list's filters (bench `lists`): a customer, a state, the platform's own card id. A funding account
  // (`accountId`, an element of `fundingSources`) is matched along the platform's cards.
  indexes: listIndexes(Collections.cards, [[], 'customerId', 'state', 'platformCardId'], { counted: [[], 'state'] }),
  on: {
    CardCreated: putCard,
    CardStateChanged: putCard,
    CardFundingSourcesChanged: putCard,
    CardSpendingControlsChanged: putCard,
  },
});
