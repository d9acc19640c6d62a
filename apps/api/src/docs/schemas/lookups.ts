type Schema = Record<string, unknown>;

export const lookupSchemas: Record<string, Schema> = {
  Lookup: {
    type: 'object',
    required: ['id', 'supportedCurrencies', 'requiredPayerDataFields', 'createdAt', 'expiresAt'],
    properties: {
      id: { type: 'string', pattern: '^Lookup:[0-9a-f-]{36}$' },
      receiverUmaAddress: { type: 'string', description: 'UMA lookups.' },
      accountId: { type: 'string', description: 'External-account lookups.' },
      supportedCurrencies: { type: 'array', items: { $ref: '#/components/schemas/Currency' } },
      requiredPayerDataFields: {
        type: 'array',
        items: { type: 'string', enum: ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY'] },
        description: 'Keys that senderCustomerInfo must carry on POST /quotes.',
      },
      counterpartyInformation: { type: 'object', additionalProperties: { type: 'string' } },
      createdAt: { type: 'string', format: 'date-time' },
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description: 'A quote cannot use the lookup afterwards (400 LOOKUP_EXPIRED).',
      },
    },
  },
};
