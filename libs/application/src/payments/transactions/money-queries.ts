import { Inject, Injectable } from '@nestjs/common';
import { Collections } from '#read-models/projections/collections.js';
import { toQuoteDocResource, toTransactionDocResource } from '#read-models/projections/payments/payment-projections.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { getForPlatform, listForPlatform } from '../../queries/list-query.js';
import { READ_MODELS } from '../../tokens.js';
import {
  quoteList,
  transactionList,
  type QuoteCriteria,
  type TransactionCriteria,
} from '../../queries/list-criteria.js';

/** Read side of quotes and transactions, scoped to the caller's platform. */
@Injectable()
export class MoneyQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  private own(collection: string, resource: string, platformId: string, id: string): Promise<Doc> {
    return getForPlatform(this.store, collection, resource, platformId, id);
  }

  async quote(platformId: string, id: string) {
    return toQuoteDocResource(await this.own(Collections.quotes, 'QUOTE', platformId, id));
  }

  listQuotes(platformId: string, criteria: QuoteCriteria) {
    return listForPlatform(this.store, Collections.quotes, platformId, quoteList(criteria), toQuoteDocResource);
  }

  async transaction(platformId: string, id: string) {
    return toTransactionDocResource(await this.own(Collections.transactions, 'TRANSACTION', platformId, id));
  }

  listTransactions(platformId: string, criteria: TransactionCriteria) {
    const request = transactionList(criteria);
    return listForPlatform(this.store, Collections.transactions, platformId, request, toTransactionDocResource);
  }
}
