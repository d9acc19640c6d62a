import { dateTime, obj, type Schema, str, idOf } from './kit.js';
const kycStatus = str({ enum: ['APPROVED', 'PENDING', 'REJECTED'] });

export const kycLinkSchemas: Record<string, Schema> = {
  KycLink: obj(['kycUrl', 'expiresAt', 'provider'], {
    kycUrl: str({
      format: 'uri',
      description: 'The hosted page the customer completes; single-use, valid until expiresAt (24 hours).',
    }),
    expiresAt: dateTime,
    provider: str({
      enum: ['HOSTED'],
      description:
        "HOSTED: the service's own verification page (the public API names external providers such as SUMSUB here).",
    }),
    token: str({
      description:
        'The link’s secret, usable in place of the hosted URL to embed the verification in your own application: ' +
        'GET /kyc/{token}/state, POST /kyc/{token} and POST /kyc/{token}/documents. Single-use and valid until ' +
        'expiresAt, like the URL; both flows update the customer’s kycStatus the same way.',
    }),
  }),
  KycLinkState: obj(['customerType', 'linkStatus', 'kycStatus', 'expiresAt', 'missing'], {
    customerType: str({ enum: ['INDIVIDUAL', 'BUSINESS'] }),
    linkStatus: str({ enum: ['ACTIVE', 'COMPLETED', 'EXPIRED'] }),
    kycStatus,
    expiresAt: dateTime,
    missing: { type: 'array', items: str(), description: 'Fields the verification still lacks.' },
  }),
  KycLinkDocument: obj(['id', 'documentType'], {
    id: idOf('Document'),
    documentType: { $ref: '#/components/schemas/DocumentType' },
  }),
  KycLinkResult: obj(['kycStatus'], { kycStatus, redirectUri: str({ format: 'uri' }) }),
};
