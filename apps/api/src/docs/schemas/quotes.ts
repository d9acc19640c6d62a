type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int = (description: string): Schema => ({ type: 'integer', description });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const num = { type: 'number' };

export const quoteSchemas: Record<string, Schema> = {
  RateDetails: {
    type: 'object',
    properties: {
      counterpartyMultiplier: num,
      counterpartyFixedFee: num,
      gridApiMultiplier: num,
      gridApiFixedFee: num,
      gridApiVariableFeeRate: num,
      gridApiVariableFeeAmount: num,
    },
  },
  Quote: {
    type: 'object',
    required: [
      'id',
      'status',
      'createdAt',
      'expiresAt',
      'source',
      'destination',
      'sendingCurrency',
      'receivingCurrency',
      'totalSendingAmount',
      'totalReceivingAmount',
      'exchangeRate',
      'feesIncluded',
      'transactionId',
    ],
    properties: {
      id: str({ pattern: '^Quote:[0-9a-f-]{36}$' }),
      status: str({ enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] }),
      createdAt: str({ format: 'date-time' }),
      expiresAt: str({ format: 'date-time', description: 'After this instant the quote cannot be executed.' }),
      source: {
        type: 'object',
        required: ['sourceType', 'accountId', 'customerId'],
        properties: { sourceType: str({ enum: ['ACCOUNT'] }), accountId: str(), customerId: str() },
      },
      destination: {
        type: 'object',
        required: ['destinationType', 'paymentRail'],
        properties: {
          destinationType: str({ enum: ['ACCOUNT', 'UMA_ADDRESS'] }),
          accountId: str(),
          umaAddress: str(),
          lookupId: str(),
          paymentRail: str({ description: 'INTERNAL between internal accounts, UMA for UMA addresses.' }),
        },
      },
      sendingCurrency: ref('Currency'),
      receivingCurrency: ref('Currency'),
      totalSendingAmount: int('Smallest unit of the sending currency, fees included.'),
      totalReceivingAmount: int('Smallest unit of the receiving currency.'),
      exchangeRate: {
        type: 'number',
        description:
          'Units of the receiving currency per unit of the sending currency (net of fees, after the margin).',
      },
      feesIncluded: int('Smallest unit of the sending currency.'),
      lockedCurrencySide: str({ enum: ['SENDING', 'RECEIVING'] }),
      lockedCurrencyAmount: int('As requested.'),
      transactionId: str({ pattern: '^Transaction:[0-9a-f-]{36}$' }),
      paymentInstructions: {
        type: 'array',
        description:
          'Absent for internal-account sources. EMBEDDED_WALLET sources: accountOrWalletInfo ' +
          '{accountType: EMBEDDED_WALLET, payloadToSign}. External sources: bank (or wallet) ' +
          'details with the reference to quote.',
        items: { type: 'object', properties: { accountOrWalletInfo: { type: 'object' }, instructionsNotes: str() } },
      },
      counterpartyInformation: { type: 'object', additionalProperties: { type: 'string' } },
      rateDetails: ref('RateDetails'),
      description: str(),
      purposeOfPayment: str(),
    },
  },
};
