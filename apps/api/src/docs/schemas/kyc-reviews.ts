import { REVIEW_STATUSES } from '#domain/verifications/verification.js';
import { dateTime, obj, ref, type Schema, str, idOf } from './kit.js';

const REVIEW_FIELDS = ['id', 'verificationId', 'customerId', 'customerType', 'status', 'createdAt', 'updatedAt'];

const reviewProperties: Record<string, Schema> = {
  id: { ...idOf('Verification'), description: 'The review is named by the verification it decides.' },
  verificationId: idOf('Verification'),
  customerId: idOf('Customer'),
  customerType: str({ enum: ['INDIVIDUAL', 'BUSINESS'] }),
  status: str({
    enum: [...REVIEW_STATUSES],
    description: 'PENDING until an operator or the platform’s KYC provider decides it; then APPROVED or REJECTED.',
  }),
  reason: str({ description: 'Why it was decided so (required to reject).' }),
  decidedBy: str({
    description: 'The actor that decided: `ApiToken:<uuid>` (an API token or the console), `system:kyc-provider`.',
  }),
  decidedAt: { ...dateTime, description: 'When it was decided, on the platform’s clock.' },
  createdAt: dateTime,
  updatedAt: dateTime,
};

const reviewDocument: Schema = {
  allOf: [
    ref('Document'),
    obj(['contentPath'], {
      contentPath: str({
        description: 'The path of the document’s file in the documents API (GET, same credentials).',
      }),
    }),
  ],
};

export const kycReviewSchemas: Record<string, Schema> = {
  KycReview: obj(REVIEW_FIELDS, reviewProperties),
  KycReviewDetail: obj([...REVIEW_FIELDS, 'customer', 'documents', 'beneficialOwners'], {
    ...reviewProperties,
    customer: { ...ref('Customer'), description: 'The customer under review, as GET /customers/{id} shows it.' },
    documents: { type: 'array', items: reviewDocument, description: 'The customer’s documents.' },
    beneficialOwners: {
      type: 'array',
      description: 'The business’s beneficial owners, each with its documents (empty for individuals).',
      items: {
        allOf: [ref('BeneficialOwner'), obj(['documents'], { documents: { type: 'array', items: reviewDocument } })],
      },
    },
  }),
};

export const kycProviderSchemas: Record<string, Schema> = {
  KycProviderConfig: obj(['configured', 'url', 'secretSet', 'updatedAt'], {
    configured: { type: 'boolean' },
    url: { type: ['string', 'null'], description: 'The provider’s https endpoint.' },
    secretSet: { type: 'boolean', description: 'Whether a shared secret is kept (it is never shown).' },
    updatedAt: { type: ['string', 'null'], format: 'date-time' },
  }),
};
