import { Inject, Injectable } from '@nestjs/common';
import {
  beneficialOwnerDecider,
  ownerOutcome,
  toBeneficialOwnerResource,
} from '#domain/beneficial-owners/beneficial-owner.js';
import { notABusiness, type OwnerOutcome } from '#domain/customers/kyb.js';
import { streams } from '#domain/primitives.js';
import { Collections } from '#read-models/projections/collections.js';
import type { BeneficialOwnerDoc } from '#read-models/projections/beneficial-owners/beneficial-owner-projection.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { CommandRunner } from '../command-runner.js';
import { Queries } from '../queries/queries.js';
import { Filters } from '../queries/list-criteria.js';
import { allForPlatform, getForPlatform, listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

/** Reads of beneficial owners, scoped to the platform; lists are per business customer. */
@Injectable()
export class BeneficialOwnerQueries {
  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    private readonly queries: Queries,
    private readonly runner: CommandRunner,
  ) {}

  async get(platformId: string, id: string) {
    const collection = Collections.beneficialOwners;
    return toBeneficialOwnerResource(
      await getForPlatform<BeneficialOwnerDoc>(this.store, collection, 'BENEFICIAL_OWNER', platformId, id),
    );
  }

  /** Newest first. The customer must be a business of this platform (404, or 400 for an individual). */
  async list(platformId: string, q: { customerId: string; limit?: number; cursor?: string }) {
    const customer = await this.queries.customer(platformId, q.customerId);
    if (customer.customerType !== 'BUSINESS') throw notABusiness(q.customerId, String(customer.customerType));
    const request = new Filters().eq('customerId', q.customerId).request({ limit: q.limit, cursor: q.cursor });
    const collection = Collections.beneficialOwners;
    return listForPlatform<BeneficialOwnerDoc>(this.store, collection, platformId, request, toBeneficialOwnerResource);
  }

  /** The current KYC outcome of every owner of a business, read from the owners' own streams. */
  async outcomesOf(platformId: string, customerId: string): Promise<OwnerOutcome[]> {
    const filters: Filter[] = [{ field: 'customerId', op: 'eq', value: customerId }];
    const owners = await allForPlatform(this.store, Collections.beneficialOwners, platformId, filters);
    const outcomes: OwnerOutcome[] = [];
    for (const { id } of owners) {
      const { state } = await this.runner.load(streams.beneficialOwner(id), beneficialOwnerDecider);
      if (state.exists && state.owner.customerId === customerId) outcomes.push(ownerOutcome(state));
    }
    return outcomes;
  }
}
