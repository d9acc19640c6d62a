import { PERMISSIONS, type Permission } from '#domain/platform/permissions.js';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EventStore } from '#event-store/event-store.js';
import { Collections } from '#read-models/projections/collections.js';
import { toInternalAccount, type InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { EVENT_STORE, READ_MODELS } from '../tokens.js';
import { getForPlatform, listForPlatform, stripPlatform, type ListRequest } from './list-query.js';
import {
  customerList,
  internalAccountList,
  type CustomerCriteria,
  type InternalAccountCriteria,
} from './list-criteria.js';

/** The projection that writes the API tokens' documents. */
const TOKENS_PROJECTION = 'platforms';
/** How long authentication waits for that projection to catch up with the log before it refuses a token it lacks. */
const TOKEN_CATCH_UP_MS = 2_000;
const TOKEN_CATCH_UP_POLL_MS = 20;

/** Read side for the first slice: every lookup is scoped to the caller's platform. */
@Injectable()
export class Queries {
  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    @Optional() @Inject(EVENT_STORE) private readonly events?: Pick<EventStore, 'headPosition'>,
  ) {}

  private own<T extends Doc>(collection: string, resource: string, platformId: string, id: string): Promise<T> {
    return getForPlatform<T>(this.store, collection, resource, platformId, id);
  }

  async customer(platformId: string, id: string) {
    return stripPlatform(await this.own(Collections.customers, 'CUSTOMER', platformId, id));
  }

  listCustomers(platformId: string, criteria: CustomerCriteria) {
    return listForPlatform(this.store, Collections.customers, platformId, customerList(criteria), stripPlatform);
  }

  async internalAccount(platformId: string, id: string) {
    return toInternalAccount(
      await this.own<InternalAccountDoc>(Collections.internalAccounts, 'INTERNAL_ACCOUNT', platformId, id),
    );
  }

  listInternalAccounts(platformId: string, criteria: InternalAccountCriteria) {
    return listForPlatform<InternalAccountDoc>(
      this.store,
      Collections.internalAccounts,
      platformId,
      internalAccountList(criteria),
      toInternalAccount,
    );
  }

  async apiToken(platformId: string, id: string) {
    return toApiToken(await this.own(Collections.apiTokens, 'API_TOKEN', platformId, id));
  }

  listApiTokens(platformId: string, request: ListRequest) {
    return listForPlatform(this.store, Collections.apiTokens, platformId, request, toApiToken);
  }

  /**
   * For authentication: the token document including its hash, whatever its platform. A token the read models lack
   * is looked up once more after the tokens' projection has reached the log's head as it stood (at most
   * `TOKEN_CATCH_UP_MS`), judged by the checkpoint in the store, which every process sees: while `read-models:rebuild`
   * replays, the collection is empty until the replay passes the token's creation, and a request must not fail for
   * it. A token that does not exist costs that one check of the checkpoint, which is at the head already.
   */
  async tokenForAuth(id: string) {
    const found = await this.findToken(id);
    if (found || !this.events) return found;
    const head = await this.events.headPosition();
    const deadline = Date.now() + TOKEN_CATCH_UP_MS;
    while (((await this.store.getCheckpoint(TOKENS_PROJECTION)) ?? -1n) < head) {
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, TOKEN_CATCH_UP_POLL_MS));
    }
    return this.findToken(id);
  }

  private findToken(id: string) {
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
