import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '#domain/errors.js';
import { Collections } from '#read-models/projections/collections.js';
import {
  toExternalAccount,
  type ExternalAccountDoc,
} from '#read-models/projections/external-accounts/external-account-projection.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { Filters } from '../queries/list-criteria.js';
import { listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';
import type { ExternalAccountOwner } from './external-account-commands.js';

export interface ExternalAccountListFilter {
  currency?: string;
  customerId?: string;
  limit?: number;
  cursor?: string;
}

/** Reads of external accounts, scoped to the platform and to the path's kind (customers' or the platform's own). */
@Injectable()
export class ExternalAccountQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  async get(platformId: string, owner: ExternalAccountOwner, id: string) {
    const doc = await this.store.get<ExternalAccountDoc>(Collections.externalAccounts, id);
    if (
      !doc ||
      doc.platformId !== platformId ||
      doc.status === 'DELETED' ||
      (owner === 'customer') !== Boolean(doc.customerId)
    )
      throw notFound('EXTERNAL_ACCOUNT', id);
    return toExternalAccount(doc);
  }

  list(platformId: string, owner: ExternalAccountOwner, q: ExternalAccountListFilter) {
    const request = new Filters()
      .exists('customerId', owner === 'customer')
      .eq('status', 'ACTIVE')
      .eq('customerId', q.customerId)
      .eq('currency', q.currency)
      .request({ limit: q.limit, cursor: q.cursor });
    return listForPlatform(this.store, Collections.externalAccounts, platformId, request, toExternalAccount);
  }
}
