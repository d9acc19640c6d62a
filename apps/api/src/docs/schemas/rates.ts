import { obj, ref, type Schema } from './kit.js';
const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });

export const rateSchemas: Record<string, Schema> = {
  ExchangeRate: {
    type: 'object',
    required: [
      'sourceCurrency',
      'sendingAmount',
      'minSendingAmount',
      'maxSendingAmount',
      'destinationCurrency',
      'destinationPaymentRail',
      'receivingAmount',
      'exchangeRate',
      'fees',
      'updatedAt',
    ],
    properties: {
      sourceCurrency: ref('Currency'),
      sendingAmount: int('Smallest unit of the source currency (echoed).'),
      minSendingAmount: int('Rounded up.'),
      maxSendingAmount: int('Rounded down.'),
      destinationCurrency: ref('Currency'),
      destinationPaymentRail: {
        type: 'string',
        description: 'e.g. UPI, SEPA_INSTANT, SPEI, PIX, FASTER_PAYMENTS, ACH, RTP.',
      },
      receivingAmount: int('(sendingAmount − fees.fixed) converted, rounded down; 0 when the fees exceed the amount.'),
      exchangeRate: {
        type: 'number',
        description: 'Units of the destination currency per unit of the source currency, after the margin.',
      },
      fees: obj(['fixed'], { fixed: int('Smallest unit of the source currency, rounded up.') }),
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  ExchangeRateList: obj(['data'], { data: { type: 'array', items: ref('ExchangeRate') } }),
};
