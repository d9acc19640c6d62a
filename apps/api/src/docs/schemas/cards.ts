type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const dateTime = str({ format: 'date-time' });
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
const DECLINES = ['CARD_PAUSED', 'CARD_CLOSED', 'CARD_NOT_ACTIVE', 'CURRENCY_MISMATCH', 'INSUFFICIENT_FUNDS'];

export const cardSchemas: Record<string, Schema> = {
  Card: {
    type: 'object',
    description:
      'A card. The spec’s form factor is the field `form`. Owning internal account (whose sessions ' +
      'sign PATCH): the holder’s EMBEDDED_WALLET account in the card currency, recorded at creation.',
    required: [
      'id',
      'customerId',
      'state',
      'stateReason',
      'form',
      'fundingSources',
      'platformCardId',
      'brand',
      'last4',
      'expMonth',
      'expYear',
      'panEmbedUrl',
      'currency',
      'issuerRef',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: str({ pattern: '^Card:[0-9a-f-]{36}$' }),
      customerId: str({ description: 'The holder.' }),
      state: str({ enum: ['PENDING_KYC', 'PENDING_ISSUE', 'ACTIVE', 'FROZEN', 'CLOSED'] }),
      stateReason: nullable(
        str({
          enum: ['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SERVICE'],
          description: 'Set when closed or when provisioning was rejected (then the state is CLOSED).',
        }),
      ),
      form: str({ enum: ['VIRTUAL'] }),
      fundingSources: {
        type: 'array',
        items: str(),
        description: 'Internal account ids in priority order; empty once the card is closed (bindings detached).',
      },
      platformCardId: str({ description: 'Given on create or generated.' }),
      brand: str({ enum: ['VISA', 'MASTERCARD'] }),
      last4: nullable(str({ pattern: '^[0-9]{4}$', description: 'Null until issued.' })),
      expMonth: nullable({ type: 'integer', minimum: 1, maximum: 12 }),
      expYear: nullable({ type: 'integer', description: 'Four digits.' }),
      panEmbedUrl: nullable(
        str({
          format: 'uri',
          description: 'Issuer iframe URL with an opaque token showing PAN, CVV and expiry; null until issued.',
        }),
      ),
      currency: str({ description: 'Derived from the funding sources.' }),
      issuerRef: str({ description: 'Opaque issuer card id.' }),
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  CardAuthorization: {
    type: 'object',
    description: 'A simulated card-network authorization and what happened to it since (sandbox).',
    required: [
      'id',
      'cardId',
      'customerId',
      'status',
      'declineReason',
      'amount',
      'currency',
      'merchant',
      'fundingSourceId',
      'clearedAmount',
      'returnedAmount',
      'latePresentment',
      'activity',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: str({ pattern: '^CardAuthorization:[0-9a-f-]{36}$' }),
      cardId: str(),
      customerId: str(),
      status: str({
        enum: ['APPROVED', 'DECLINED', 'CLEARED', 'REVERSED'],
        description:
          'APPROVED: funds held. CLEARED: posted. REVERSED: the card closed before clearing and the hold was released.',
      }),
      declineReason: nullable(str({ enum: DECLINES })),
      amount: { type: 'integer', description: 'Authorized amount, smallest unit.' },
      currency: str(),
      merchant: {
        type: 'object',
        required: ['descriptor'],
        properties: { descriptor: str(), mcc: str(), country: str() },
      },
      fundingSourceId: nullable(str({ description: 'The funding source that holds, pays and is refunded.' })),
      clearedAmount: { type: 'integer' },
      returnedAmount: { type: 'integer' },
      latePresentment: {
        type: 'boolean',
        description: 'Cleared after the hold was released (card closed or authorization expired).',
      },
      activity: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'amount', 'result', 'createdAt'],
          properties: {
            type: str({ enum: ['AUTHORIZATION', 'CLEARING', 'RETURN', 'REVERSAL'] }),
            amount: { type: 'integer' },
            result: str({ enum: ['APPROVED', 'DECLINED'] }),
            declineReason: str({ enum: DECLINES }),
            latePresentment: { type: 'boolean' },
            reversalReason: str({ enum: ['CARD_CLOSED', 'EXPIRED'], description: 'REVERSAL only.' }),
            createdAt: dateTime,
          },
        },
      },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
};
