import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '#domain/errors.js';
import { Collections } from '#read-models/projections/collections.js';
import { toVerification } from '#read-models/projections/verification-projection.js';
import type { Doc, Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

@Injectable()
export class VerificationQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  async get(platformId: string, id: string) {
    const doc = await this.store.get(Collections.verifications, id);
    if (!doc || doc.platformId !== platformId) throw notFound('VERIFICATION', id);
    return toVerification(doc);
  }

  list(platformId: string, q: { customerId?: string; verificationStatus?: string; limit?: number; cursor?: string }) {
    const filters: Filter[] = [];
    if (q.customerId) filters.push({ field: 'customerId', op: 'eq', value: q.customerId });
    if (q.verificationStatus) filters.push({ field: 'verificationStatus', op: 'eq', value: q.verificationStatus });
    return listForPlatform<Doc>(
      this.store,
      Collections.verifications,
      platformId,
      { filters, limit: q.limit, cursor: q.cursor, sortOrder: 'desc' },
      toVerification,
    );
  }
}
