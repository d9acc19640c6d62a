import { Inject, Injectable } from '@nestjs/common';
import { toCard, type CardDoc } from '#read-models/projections/cards/card-projection.js';
import {
  toCardTransactionResource,
  type CardTransactionDoc,
} from '#read-models/projections/cards/card-transaction-projection.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { Filters, type Paging } from '../queries/list-criteria.js';
import { getForPlatform, listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

export interface CardTransactionFilters {
  status?: string;
  /** Inclusive bounds on `createdAt` (the authorization time). */
  createdAfter?: string;
  createdBefore?: string;
}

export interface CardListFilters {
  customerId?: string;
  /** Cards that this internal account funds. */
  accountId?: string;
  platformCardId?: string;
  state?: string;
}

/** Read side of cards: lists and reads from the read model, scoped to the caller's platform. */
@Injectable()
export class CardQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  async card(platformId: string, id: string) {
    return toCard(await getForPlatform<CardDoc>(this.store, Collections.cards, 'CARD', platformId, id));
  }

  list(platformId: string, q: CardListFilters & Paging) {
    const request = new Filters()
      .eq('customerId', q.customerId)
      .contains('fundingSources', q.accountId)
      .eq('platformCardId', q.platformCardId)
      .eq('state', q.state)
      .request(q);
    return listForPlatform<CardDoc>(this.store, Collections.cards, platformId, request, (doc) => ({ ...toCard(doc) }));
  }

  /** A card's transactions (approved authorizations and what reconciled against them), for a statement. */
  async transactions(platformId: string, cardId: string, q: CardTransactionFilters & Paging) {
    await this.card(platformId, cardId);
    const request = new Filters()
      .eq('cardId', cardId)
      .eq('status', q.status)
      .range('createdAt', q.createdAfter, q.createdBefore)
      .request(q);
    const collection = Collections.cardTransactions;
    return listForPlatform(this.store, collection, platformId, request, toCardTransactionResource);
  }

  async transaction(platformId: string, id: string) {
    const collection = Collections.cardTransactions;
    return toCardTransactionResource(
      await getForPlatform<CardTransactionDoc>(this.store, collection, 'CARD_TRANSACTION', platformId, id),
    );
  }
}
