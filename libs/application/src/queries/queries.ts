import { PERMISSIONS, type Permission } from '#domain/platforms/permissions.js';
import { Inject, Injectable } from '@nestjs/common';
import { Collections } from '#read-models/projections/collections.js';
import {
  toInternalAccount,
  type FundingPlatform,
  type InternalAccountDoc,
} from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { READ_MODELS } from '../tokens.js';
import { getForPlatform, listForPlatform, stripPlatform, type ListRequest } from './list-query.js';
import {
  customerList,
  internalAccountList,
  type CustomerCriteria,
  type InternalAccountCriteria,
} from './list-criteria.js';

/** Read side for the first slice: every lookup is scoped to the caller's platform. */
@Injectable()
export class Queries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  private own<T extends Doc>(collection: string, resource: string, platformId: string, id: string): Promise<T> {
    return getForPlatform<T>(this.store, collection, resource, platformId, id);
  }

  async customer(platformId: string, id: string) {
    return stripPlatform(await this.own(Collections.customers, 'CUSTOMER', platformId, id));
  }

  listCustomers(platformId: string, criteria: CustomerCriteria) {
    return listForPlatform(this.store, Collections.customers, platformId, customerList(criteria), stripPlatform);
  }

  /** How the platform's accounts are paid into (its sandbox flag and bank rails). */
  private funding(platformId: string): Promise<FundingPlatform | undefined> {
    return this.store.get<Doc & FundingPlatform>(Collections.platforms, platformId);
  }

  async internalAccount(platformId: string, id: string) {
    const doc = await this.own<InternalAccountDoc>(Collections.internalAccounts, 'INTERNAL_ACCOUNT', platformId, id);
    return toInternalAccount(doc, await this.funding(platformId));
  }

  async listInternalAccounts(platformId: string, criteria: InternalAccountCriteria) {
    const platform = await this.funding(platformId);
    return listForPlatform<InternalAccountDoc>(
      this.store,
      Collections.internalAccounts,
      platformId,
      internalAccountList(criteria),
      (doc) => toInternalAccount(doc, platform),
    );
  }

  async apiToken(platformId: string, id: string) {
    return toApiToken(await this.own(Collections.apiTokens, 'API_TOKEN', platformId, id));
  }

  listApiTokens(platformId: string, request: ListRequest) {
    return listForPlatform(this.store, Collections.apiTokens, platformId, request, toApiToken);
  }

  /** For authentication: the token document including its hash, whatever its platform (see caughtUpReads). */
  tokenForAuth(id: string) {
    return this.store.get<Doc & { platformId: string; secretHash: string; status: string; permissions?: Permission[] }>(
      Collections.apiTokens,
      id,
    );
  }

  platform(id: string) {
    return this.store.get(Collections.platforms, id);
  }

  listPlatforms() {
    return this.store.find(Collections.platforms, { limit: 1000, sortBy: 'createdAt', sortOrder: 'asc' });
  }
}

/** The ApiToken resource: clientId is the Basic username (the id); tokens from before permissions hold all. */
function toApiToken(doc: Doc): Record<string, unknown> {
  const { platformId: _p, secretHash: _h, ...rest } = doc;
  return { ...rest, clientId: doc.id, permissions: doc.permissions ?? [...PERMISSIONS] };
}
