import { Inject, Injectable } from '@nestjs/common';
import type { BulkImportErrorEntry, BulkImportJobResource, BulkImportStatus } from '#domain/customers/bulk-import.js';
import type { BulkImportDoc, BulkImportErrorDoc } from '#read-models/projections/customers/bulk-import-projection.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { getForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

/** The public API's BulkCustomerImportJob: status, progress and every failed row in line order. */
@Injectable()
export class BulkImportQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  async job(platformId: string, jobId: string): Promise<BulkImportJobResource> {
    // Another platform's job, or one still being uploaded: the public API's BULK_UPLOAD_JOB_NOT_FOUND.
    const collection = Collections.bulkImports;
    const doc = await getForPlatform<BulkImportDoc>(this.store, collection, 'BULK_UPLOAD_JOB', platformId, jobId);
    const errors: BulkImportErrorEntry[] = [];
    let cursor: string | undefined;
    if (doc.progress.failed > 0) {
      do {
        const page = await this.store.find<BulkImportErrorDoc>(Collections.bulkImportErrors, {
          filters: [{ field: 'jobId', op: 'eq', value: jobId }],
          sortBy: 'line',
          sortOrder: 'asc',
          limit: 1000,
          cursor,
        });
        for (const { id: _id, jobId: _job, platformId: _platform, ...entry } of page.data) errors.push(entry);
        cursor = page.hasMore ? page.nextCursor : undefined;
      } while (cursor);
    }
    return {
      id: doc.id,
      status: doc.status as BulkImportStatus,
      progress: doc.progress,
      errors,
      ...(doc.completedAt ? { completedAt: doc.completedAt } : {}),
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
    };
  }
}
