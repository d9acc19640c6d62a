import { DOCUMENT_MEDIA_TYPES, DOCUMENT_SIDES, DOCUMENT_TYPES } from '#domain/documents/document-types.js';
import { dateTime, type Schema, str, idOf } from './kit.js';

export const documentSchemas: Record<string, Schema> = {
  DocumentType: str({
    enum: [...DOCUMENT_TYPES],
    description:
      'Identity: PASSPORT, DRIVERS_LICENSE, NATIONAL_ID. Business legal presence: CERTIFICATE_OF_INCORPORATION, ' +
      'ARTICLES_OF_INCORPORATION, ARTICLES_OF_ASSOCIATION, STATE_REGISTRY_EXCERPT. Control structure: ' +
      'DIRECTOR_REGISTRY, TRUST_AGREEMENT, STATE_COMPANY_REGISTRY, PARTNERSHIP_CONTROL_AGREEMENT. Ownership ' +
      'structure: SHAREHOLDER_REGISTER, TRUST_AGREEMENT, PARTNERSHIP_AGREEMENT. Proof of address: UTILITY_BILL, ' +
      'RENT_OR_LEASE_AGREEMENT, ELECTRICITY_BILL, BANK_STATEMENT, TAX_RETURN.',
  }),
  Document: {
    type: 'object',
    required: [
      'id',
      'documentHolder',
      'documentType',
      'country',
      'fileName',
      'mediaType',
      'fileSize',
      'sha256',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('Document'),
      documentHolder: str({
        pattern: '^(Customer|BeneficialOwner):[0-9a-f-]{36}$',
        description: 'The customer or beneficial owner the document belongs to.',
      }),
      documentType: { $ref: '#/components/schemas/DocumentType' },
      side: str({ enum: [...DOCUMENT_SIDES], description: 'Which side of a two-sided document the file shows.' }),
      country: str({ pattern: '^[A-Z]{2}$', description: 'Issuing country, ISO 3166-1 alpha-2.' }),
      documentNumber: str(),
      issuingAuthority: str(),
      fileName: str({ description: 'The file name the upload gave, without folders.' }),
      mediaType: str({ enum: [...DOCUMENT_MEDIA_TYPES], description: 'Recognised from the file’s first bytes.' }),
      fileSize: { type: 'integer', minimum: 0, description: 'Bytes.' },
      sha256: str({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file; the content download’s ETag.' }),
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
};
