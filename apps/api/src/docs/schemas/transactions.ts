type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const amount: Schema = {
  type: 'object',
  required: ['amount', 'currency'],
  properties: { amount: { type: 'integer' }, currency: { $ref: '#/components/schemas/Currency' } },
};
const party = (kind: 'source' | 'destination'): Schema => ({
  type: 'object',
  required: [`${kind}Type`, 'currency'],
  properties: {
    [`${kind}Type`]: str({ enum: ['ACCOUNT', 'UMA_ADDRESS'] }),
    accountId: str(),
    umaAddress: str(),
    currency: str(),
    ...(kind === 'destination' ? { paymentRail: str() } : {}),
  },
});

export const transactionSchemas: Record<string, Schema> = {
  Transaction: {
    type: 'object',
    required: [
      'id',
      'status',
      'type',
      'source',
      'destination',
      'customerId',
      'platformCustomerId',
      'receivedAmount',
      'fees',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: str({ pattern: '^Transaction:[0-9a-f-]{36}$' }),
      status: str({
        enum: ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'],
      }),
      type: str({ enum: ['INCOMING', 'OUTGOING'] }),
      source: party('source'),
      destination: party('destination'),
      customerId: str(),
      platformCustomerId: str(),
      sentAmount: amount,
      receivedAmount: amount,
      exchangeRate: { type: 'number' },
      fees: { type: 'integer', description: 'Smallest unit of the receiving currency.' },
      description: str(),
      purposeOfPayment: str(),
      counterpartyInformation: { type: 'object', additionalProperties: { type: 'string' } },
      reconciliationInstructions: {
        type: 'object',
        description: 'All statuses but CREATED.',
        properties: { reference: str(), transactionHash: str({ description: 'Crypto destinations, once completed.' }) },
      },
      rateDetails: {
        type: 'object',
        properties: {
          gridApiMultiplier: { type: 'number' },
          gridApiFixedFee: { type: 'number' },
          gridApiVariableFeeRate: { type: 'number' },
          gridApiVariableFeeAmount: { type: 'number' },
        },
      },
      failureReason: str({
        enum: [
          'LNURLP_FAILED',
          'PAY_REQUEST_FAILED',
          'PAYMENT_APPROVAL_WEBHOOK_ERROR',
          'PAYMENT_APPROVAL_TIMED_OUT',
          'OFFRAMP_FAILED',
          'MISSING_MANDATORY_PAYEE_DATA',
          'QUOTE_EXPIRED',
          'QUOTE_EXECUTION_FAILED',
        ],
      }),
      failureDetail: str({
        enum: [
          'INSUFFICIENT_FUNDS',
          'ACCOUNT_CLOSED_OR_INVALID',
          'REJECTED_BY_BANK',
          'BANK_TIMEOUT',
          'USER_CANCELLED',
          'RETURNED_BY_RECEIVING_BANK',
          'PAYOUT_AND_REFUND_FAILED',
        ],
        description: 'Bank-level detail where failureReason has no matching value.',
      }),
      quoteId: str({ description: 'Transactions created from a quote.' }),
      settledAt: str({ format: 'date-time' }),
      createdAt: str({ format: 'date-time' }),
      updatedAt: str({ format: 'date-time' }),
    },
  },
};
