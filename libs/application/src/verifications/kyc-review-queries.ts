import { Inject, Injectable } from '@nestjs/common';
import { toBeneficialOwnerResource, type BeneficialOwnerSnapshot } from '#domain/beneficial-owners/beneficial-owner.js';
import { Collections } from '#read-models/projections/collections.js';
import { toDocument, type DocumentDoc } from '#read-models/projections/documents/document-projection.js';
import { toKycReview, type KycReviewDoc } from '#read-models/projections/verifications/kyc-review-projection.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { Filters } from '../queries/list-criteria.js';
import { allForPlatform, getForPlatform, listForPlatform, stripPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';

/** A document as a review shows it: the resource and the path of its file in the documents API. */
const withContent = (doc: DocumentDoc) => ({ ...toDocument(doc), contentPath: `/documents/${doc.id}/content` });

/** The KYC review queue of a platform and what a reviewer looks at. */
@Injectable()
export class KycReviewQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore) {}

  /** Oldest first by default: the queue is worked from its head. */
  list(platformId: string, q: { status?: string; limit?: number; cursor?: string; sortOrder?: 'asc' | 'desc' }) {
    const request = new Filters().eq('status', q.status).request(q, 'asc');
    return listForPlatform<KycReviewDoc>(this.store, Collections.kycReviews, platformId, request, toKycReview);
  }

  /** The review with the customer's data, its beneficial owners and the documents of each. */
  async get(platformId: string, id: string) {
    const review = await getForPlatform<KycReviewDoc>(this.store, Collections.kycReviews, 'KYC_REVIEW', platformId, id);
    const customer = await this.store.get<Doc>(Collections.customers, review.customerId);
    const owners = await allForPlatform<Doc & BeneficialOwnerSnapshot>(
      this.store,
      Collections.beneficialOwners,
      platformId,
      [{ field: 'customerId', op: 'eq', value: review.customerId }],
    );
    const documentsOf = async (holder: string) =>
      (
        await allForPlatform<DocumentDoc>(this.store, Collections.documents, platformId, [
          { field: 'documentHolder', op: 'eq', value: holder },
        ])
      ).map(withContent);
    return {
      ...toKycReview(review),
      customer: customer ? stripPlatform(customer) : null,
      documents: await documentsOf(review.customerId),
      beneficialOwners: await Promise.all(
        owners.map(async (o) => ({ ...toBeneficialOwnerResource(o), documents: await documentsOf(o.id) })),
      ),
    };
  }
}
