import { DOCUMENT_TYPES } from '#domain/documents/document-types.js';
import { VERIFICATION_ERROR_TYPES, VERIFICATION_STATUSES } from '#domain/verifications/verification.js';
import { dateTime, obj, type Schema, str, idOf } from './kit.js';

export const verificationSchemas: Record<string, Schema> = {
  Verification: obj(['id', 'customerId', 'verificationStatus', 'errors', 'createdAt', 'updatedAt'], {
    id: idOf('Verification'),
    customerId: idOf('Customer'),
    verificationStatus: str({
      enum: [...VERIFICATION_STATUSES],
      description:
        'RESOLVE_ERRORS: the customer lacks what `errors` lists; provide it and verify again. IN_PROGRESS: ' +
        'the check has not decided yet. APPROVED / REJECTED: the outcome (the customer’s kycStatus or kybStatus).',
    }),
    errors: {
      type: 'array',
      description: 'What keeps the verification from going on; empty when APPROVED or IN_PROGRESS.',
      items: {
        type: 'object',
        required: ['resourceId', 'type', 'reason'],
        properties: {
          resourceId: str({ description: 'The resource with the issue: the customer or a beneficial owner.' }),
          type: str({
            enum: [...VERIFICATION_ERROR_TYPES],
            description:
              'MISSING_FIELD: `field` is missing. MISSING_*_DOCUMENT: upload one of `acceptedDocumentTypes` ' +
              '(POST /documents). MISSING_BENEFICIAL_OWNER: the business has no beneficial owner. ' +
              'APPLICANT_REJECTED: the KYC of the beneficial owner `resourceId` was rejected.',
          }),
          field: str({ description: 'Dotted path of the missing or invalid field (field errors only).' }),
          acceptedDocumentTypes: {
            type: 'array',
            items: str({ enum: [...DOCUMENT_TYPES] }),
            description: 'Document types any one of which satisfies a MISSING_*_DOCUMENT error.',
          },
          reason: str(),
        },
      },
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
};
