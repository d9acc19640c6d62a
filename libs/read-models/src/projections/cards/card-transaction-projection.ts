import type { CardEvent } from '#domain/cards/card-types.js';
import {
  cardTransactionIdOf,
  cardTransactionStatus,
  decodeCardTransaction,
  encodeCardTransaction,
  evolveCardTransaction,
  toCardTransaction,
} from '#domain/cards/card-transaction.js';
import { defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/**
 * Card transactions: the domain's fold of each approved authorization (encoded, bigints as strings)
 * plus `platformId` for scoping and `status`/`createdAt` for the list's filters and order.
 */
export type CardTransactionDoc = Doc & { platformId: string; cardId: string; status: string; createdAt: string };

export const toCardTransactionResource = (doc: CardTransactionDoc) => toCardTransaction(decodeCardTransaction(doc));

/** The card events of an authorization (each carries its record). */
type CardAuthorizationEvent = Extract<CardEvent, { data: { authorization: unknown } }>;

/** An authorization event folded into its card transaction's document. */
async function applyAuthorization(event: CardAuthorizationEvent, tx: ProjectionTransaction): Promise<void> {
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
}

export const cardTransactionProjection = defineProjection<CardEvent>({
  name: 'card-transactions',
  collections: [Collections.cardTransactions],
  indexes: listIndexes(Collections.cardTransactions, ['cardId', ['cardId', 'status']]),
  on: {
    CardAuthorizationRecorded: applyAuthorization,
    CardAuthorizationCleared: applyAuthorization,
    CardClearingDeclined: applyAuthorization,
    CardAuthorizationReturned: applyAuthorization,
    CardAuthorizationReversed: applyAuthorization,
    CardAuthorizationIncremented: applyAuthorization,
    CardIncrementDeclined: applyAuthorization,
    CardAuthorizationPartiallyReversed: applyAuthorization,
  },
});
