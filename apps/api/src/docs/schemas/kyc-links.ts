type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const dateTime = str({ format: 'date-time' });
const kycStatus = str({ enum: ['APPROVED', 'PENDING', 'REJECTED'] });

export const kycLinkSchemas: Record<string, Schema> = {
  KycLink: {
    type: 'object',
    required: ['kycUrl', 'expiresAt', 'provider'],
    properties: {
      kycUrl: str({
        format: 'uri',
        description: 'The hosted page the customer completes; single-use, valid until expiresAt (24 hours).',
      }),
      expiresAt: dateTime,
      provider: str({
        enum: ['HOSTED'],
        description:
          "HOSTED: the service's own verification page (the public API names external providers such as SUMSUB " +
          'here; no provider SDK token is returned).',
      }),
    },
  },
  KycLinkState: {
    type: 'object',
    required: ['customerType', 'linkStatus', 'kycStatus', 'expiresAt', 'missing'],
    properties: {
      customerType: str({ enum: ['INDIVIDUAL', 'BUSINESS'] }),
      linkStatus: str({ enum: ['ACTIVE', 'COMPLETED', 'EXPIRED'] }),
      kycStatus,
      expiresAt: dateTime,
      missing: { type: 'array', items: str(), description: 'Fields the verification still lacks.' },
    },
  },
  KycLinkDocument: {
    type: 'object',
    required: ['id', 'documentType'],
    properties: {
      id: str({ pattern: '^Document:[0-9a-f-]{36}$' }),
      documentType: { $ref: '#/components/schemas/DocumentType' },
    },
  },
  KycLinkResult: {
    type: 'object',
    required: ['kycStatus'],
    properties: { kycStatus, redirectUri: str({ format: 'uri' }) },
  },
};
