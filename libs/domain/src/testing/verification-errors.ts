import { expect } from '@jest/globals';

/**
 * The errors a verification of an individual lists while it has no documents: an identity document and a proof of
 * address, each with the document types that satisfy it, in the public API's shape (`reason` is prose).
 */
export const individualDocumentErrors = (resourceId: string) => [
  {
    resourceId,
    type: 'MISSING_IDENTITY_DOCUMENT',
    reason: expect.any(String),
    acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
  },
  {
    resourceId,
    type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    reason: expect.any(String),
    acceptedDocumentTypes: [
      'UTILITY_BILL',
      'RENT_OR_LEASE_AGREEMENT',
      'ELECTRICITY_BILL',
      'BANK_STATEMENT',
      'TAX_RETURN',
    ],
  },
];
