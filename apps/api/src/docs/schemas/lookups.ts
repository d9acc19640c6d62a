import { obj, type Schema } from './kit.js';

export const lookupSchemas: Record<string, Schema> = {
  Lookup: {
    type: 'object',
    required: [
      'lookupId',
      'id',
      'supportedCurrencies',
      'requiredPayerDataFields',
      'counterpartyInformation',
      'createdAt',
      'expiresAt',
    ],
    properties: {
      lookupId: {
        type: 'string',
        pattern: '^Lookup:[0-9a-f-]{36}$',
        description: 'Give it as lookupId on POST /quotes.',
      },
      id: { type: 'string', pattern: '^Lookup:[0-9a-f-]{36}$', description: 'The same as lookupId.' },
      receiverUmaAddress: { type: 'string', description: 'UMA lookups.' },
      accountId: { type: 'string', description: 'External-account lookups.' },
      supportedCurrencies: {
        type: 'array',
        items: obj(['currency', 'estimatedExchangeRate', 'min', 'max'], {
          currency: { $ref: '#/components/schemas/Currency' },
          estimatedExchangeRate: {
            type: 'number',
            exclusiveMinimum: 0,
            description: 'Units of this currency per unit of the sender’s currency; not locked.',
          },
          min: { type: 'integer', exclusiveMinimum: 0, description: 'Smallest receivable amount (smallest unit).' },
          max: { type: 'integer', exclusiveMinimum: 0, description: 'Largest receivable amount (smallest unit).' },
        }),
      },
      requiredPayerDataFields: {
        type: 'array',
        description: 'Fields that senderCustomerInfo must carry on POST /quotes.',
        items: obj(['name', 'mandatory'], {
          name: { type: 'string', enum: ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY'] },
          mandatory: { type: 'boolean' },
        }),
      },
      counterpartyInformation: { type: 'object', additionalProperties: { type: 'string' } },
      senderCustomerId: { type: 'string', description: 'The sender the lookup was made for, when named.' },
      senderUmaAddress: { type: 'string', description: 'As given on the lookup.' },
      createdAt: { type: 'string', format: 'date-time' },
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description: 'A quote cannot use the lookup afterwards (400 LOOKUP_EXPIRED).',
      },
    },
    // A UMA lookup always names its address, an external-account lookup its account.
    oneOf: [{ required: ['receiverUmaAddress'] }, { required: ['accountId'] }],
  },
};
