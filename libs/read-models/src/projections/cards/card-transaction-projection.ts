import type { CardEvent } from '#domain/cards/card-types.js';
import {
  cardTransactionIdOf,
  cardTransactionStatus,
  decodeCardTransaction,
  encodeCardTransaction,
  evolveCardTransaction,
  toCardTransaction,
} from '#domain/cards/card-transaction.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/**
 * Card transactions: the domain's fold of each approved authorization (encoded, bigints as strings)
 * plus `platformId` for scoping and `status`/`createdAt` for the list's filters and order.
 */
export type CardTransactionDoc = Doc & { platformId: string; cardId: string; status: string; createdAt: string };

export const toCardTransactionResource = (doc: CardTransactionDoc) => toCardTransaction(decodeCardTransaction(doc));

const AUTHORIZATION_EVENTS = [
  'CardAuthorizationRecorded',
  'CardAuthorizationCleared',
  'CardClearingDeclined',
  'CardAuthorizationReturned',
  'CardAuthorizationReversed',
];

export const cardTransactionProjection: Projection = {
  name: 'card-transactions',
  collections: [Collections.cardTransactions],
  indexes: listIndexes(Collections.cardTransactions, ['cardId', ['cardId', 'status']]),
  handles: AUTHORIZATION_EVENTS,
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as CardEvent;
    if (!('authorization' in event.data)) return;
    const { platformId, authorization } = event.data;
    const id = cardTransactionIdOf(authorization.id);
    const doc = await tx.get<CardTransactionDoc>(Collections.cardTransactions, id);
    const next = evolveCardTransaction(doc ? decodeCardTransaction(doc) : undefined, event);
    if (!next) return;
    tx.put(Collections.cardTransactions, {
      ...encodeCardTransaction(next),
      id,
      platformId,
      status: cardTransactionStatus(next),
      createdAt: next.authorizedAt,
    } as CardTransactionDoc);
  },
};
