import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '#domain/errors.js';
import { toCard, type CardDoc } from '#read-models/projections/cards/card-projection.js';
import {
  toCardTransactionResource,
  type CardTransactionDoc,
} from '#read-models/projections/cards/card-transaction-projection.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

export interface CardTransactionFilters {
  status?: string;
  /** Inclusive bounds on `createdAt` (the authorization time). */
  createdAfter?: string;
  createdBefore?: string;
}

const iso = (value: string) => new Date(value).toISOString();

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
    const doc = await this.store.get<CardDoc>(Collections.cards, id);
    if (!doc || doc.platformId !== platformId) throw notFound('CARD', id);
    return toCard(doc);
  }

  list(platformId: string, q: CardListFilters & { limit?: number; cursor?: string; sortOrder?: 'asc' | 'desc' }) {
    const filters: Filter[] = [];
    if (q.customerId) filters.push({ field: 'customerId', op: 'eq', value: q.customerId });
    if (q.accountId) filters.push({ field: 'fundingSources', op: 'contains', value: q.accountId });
    if (q.platformCardId !== undefined) filters.push({ field: 'platformCardId', op: 'eq', value: q.platformCardId });
    if (q.state) filters.push({ field: 'state', op: 'eq', value: q.state });
    return listForPlatform<CardDoc>(
      this.store,
      Collections.cards,
      platformId,
      { filters, limit: q.limit, cursor: q.cursor, sortOrder: q.sortOrder ?? 'desc' },
      (doc) => ({ ...toCard(doc) }),
    );
  }

  /** A card's transactions (approved authorizations and what reconciled against them), for a statement. */
  async transactions(
    platformId: string,
    cardId: string,
    q: CardTransactionFilters & { limit?: number; cursor?: string; sortOrder?: 'asc' | 'desc' },
  ) {
    await this.card(platformId, cardId);
    const filters: Filter[] = [{ field: 'cardId', op: 'eq', value: cardId }];
    if (q.status) filters.push({ field: 'status', op: 'eq', value: q.status });
    if (q.createdAfter) filters.push({ field: 'createdAt', op: 'gte', value: iso(q.createdAfter) });
    if (q.createdBefore) filters.push({ field: 'createdAt', op: 'lte', value: iso(q.createdBefore) });
    return listForPlatform<CardTransactionDoc>(
      this.store,
      Collections.cardTransactions,
      platformId,
      { filters, limit: q.limit, cursor: q.cursor, sortOrder: q.sortOrder ?? 'desc' },
      toCardTransactionResource,
    );
  }

  async transaction(platformId: string, id: string) {
    const doc = await this.store.get<CardTransactionDoc>(Collections.cardTransactions, id);
    if (!doc || doc.platformId !== platformId) throw notFound('CARD_TRANSACTION', id);
    return toCardTransactionResource(doc);
  }
}
