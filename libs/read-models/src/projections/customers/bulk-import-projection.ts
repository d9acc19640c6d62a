import type { BulkImportErrorEntry, BulkImportEvent, BulkImportProgress } from '#domain/customers/bulk-import.js';
import { defineProjection } from '../../projection.js';
import type { Doc } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/** A bulk customer import once accepted (an upload still being read is not a job yet). */
export type BulkImportDoc = Doc & {
  platformId: string;
  status: string;
  progress: BulkImportProgress;
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
};

/** One failed row of an import: `<jobId>/<line>`, listed by job in line order. */
export type BulkImportErrorDoc = Doc & BulkImportErrorEntry & { jobId: string; platformId: string };

export const bulkImportProjection = defineProjection<BulkImportEvent>({
  name: 'bulk-imports',
  collections: [Collections.bulkImports, Collections.bulkImportErrors],
  indexes: [
    { collection: Collections.bulkImports, fields: ['status', 'createdAt'] },
    { collection: Collections.bulkImportErrors, fields: ['jobId', 'line'] },
  ],
  on: {
    BulkImportAccepted: ({ data: d }, tx) =>
      tx.put(Collections.bulkImports, {
        id: d.jobId,
        platformId: d.platformId,
        status: 'PENDING',
        progress: { total: d.total, processed: 0, successful: 0, failed: 0 },
        createdAt: d.createdAt,
        updatedAt: d.acceptedAt,
      }),
    BulkImportRowsProcessed: async ({ data: d }, tx) => {
      const doc = await tx.get<BulkImportDoc>(Collections.bulkImports, d.jobId);
      if (!doc) return;
      const p = doc.progress;
      tx.put(Collections.bulkImports, {
        ...doc,
        status: 'PROCESSING',
        progress: {
          total: p.total,
          processed: p.processed + d.count,
          successful: p.successful + d.successful,
          failed: p.failed + d.failed,
        },
        updatedAt: d.processedAt,
      });
      for (const entry of d.errors)
        tx.put(Collections.bulkImportErrors, {
          id: `${d.jobId}/${entry.line}`,
          jobId: d.jobId,
          platformId: d.platformId,
          ...entry,
        });
    },
    BulkImportFinished: async ({ data: d }, tx) => {
      const doc = await tx.get<BulkImportDoc>(Collections.bulkImports, d.jobId);
      if (!doc) return;
      tx.put(Collections.bulkImports, {
        ...doc,
        status: d.status,
        progress: d.progress,
        completedAt: d.completedAt,
        updatedAt: d.completedAt,
      });
    },
  },
});
