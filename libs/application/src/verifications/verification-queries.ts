import { Inject, Injectable } from '@nestjs/common';
import { Collections } from '#read-models/projections/collections.js';
import { toVerification } from '#read-models/projections/verifications/verification-projection.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { Filters } from '../queries/list-criteria.js';
import { getForPlatform, listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

@Injectable()
export class VerificationQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  async get(platformId: string, id: string) {
    return toVerification(await getForPlatform(this.store, Collections.verifications, 'VERIFICATION', platformId, id));
  }

  list(platformId: string, q: { customerId?: string; verificationStatus?: string; limit?: number; cursor?: string }) {
    const request = new Filters()
      .eq('customerId', q.customerId)
      .eq('verificationStatus', q.verificationStatus)
      .request({ limit: q.limit, cursor: q.cursor });
    return listForPlatform(this.store, Collections.verifications, platformId, request, toVerification);
  }
}
