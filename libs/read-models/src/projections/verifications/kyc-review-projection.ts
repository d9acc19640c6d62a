import type { VerificationEvent, VerificationSnapshot } from '#domain/verifications/verification.js';
import { defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** The KYC review queue: one document per verification that waits (or waited) for a reviewer. */
export type KycReviewDoc = Doc & {
  id: string;
  platformId: string;
  verificationId: string;
  customerId: string;
  customerType: string;
  status: string;
  reason?: string;
  decidedBy?: string;
  decidedAt?: string;
  createdAt: string;
  updatedAt: string;
};

/** The KycReview resource: the platform stays inside. */
export function toKycReview(doc: KycReviewDoc): Record<string, unknown> {
  const { platformId: _p, ...resource } = doc;
  return resource;
}

function putReview({ data }: { data: { verification: VerificationSnapshot } }, tx: ProjectionTransaction) {
  const v = data.verification;
  if (!v.review) return;
  const { status, reason, decidedBy, decidedAt } = v.review;
  tx.put(Collections.kycReviews, {
    id: v.id,
    platformId: v.platformId,
    verificationId: v.id,
    customerId: v.customerId,
    customerType: v.customerType,
    status,
    ...(reason !== undefined ? { reason } : {}),
    ...(decidedBy !== undefined ? { decidedBy } : {}),
    ...(decidedAt !== undefined ? { decidedAt } : {}),
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  } satisfies KycReviewDoc);
}

export const kycReviewProjection = defineProjection<VerificationEvent>({
  name: 'kyc-reviews',
  collections: [Collections.kycReviews],
  indexes: listIndexes(Collections.kycReviews, [[], 'status'], { counted: [[], 'status'] }),
  on: { VerificationCreated: putReview, VerificationReviewed: putReview },
});
