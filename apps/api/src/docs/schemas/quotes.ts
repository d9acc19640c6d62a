import { paymentAccountInfo } from './payment-account-info.js';
import { ref, type Schema, str, idOf } from './kit.js';

const int = (description: string): Schema => ({ type: 'integer', description });
const num = { type: 'number' };
/** One variant of a union told apart by `field`: the fields it always carries. */
const variant = (field: string, value: string, required: string[]): Schema => ({
  properties: { [field]: { const: value } },
  required: [field, ...required],
});

export const quoteSchemas: Record<string, Schema> = {
  PaymentInstructions: {
    type: 'object',
    // isPlatformAccount stays optional: quotes stored before it existed do not have it.
    required: ['accountOrWalletInfo', 'instructionsNotes'],
    properties: {
      accountOrWalletInfo: paymentAccountInfo,
      instructionsNotes: str(),
      isPlatformAccount: {
        type: 'boolean',
        description: 'Whether the money lands in a platform-owned account (true) or a customer’s (false).',
      },
    },
  },
  RateDetails: {
    type: 'object',
    required: [
      'counterpartyMultiplier',
      'counterpartyFixedFee',
      'gridApiMultiplier',
      'gridApiFixedFee',
      'gridApiVariableFeeRate',
      'gridApiVariableFeeAmount',
    ],
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
      'lockedCurrencySide',
      'lockedCurrencyAmount',
      'transactionId',
      'rateDetails',
    ],
    properties: {
      id: idOf('Quote'),
      status: str({ enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] }),
      createdAt: str({ format: 'date-time' }),
      expiresAt: str({ format: 'date-time', description: 'After this instant the quote cannot be executed.' }),
      source: {
        type: 'object',
        description: 'ACCOUNT: accountId and its owner. REALTIME_FUNDING: the paying customer and currency.',
        required: ['sourceType', 'customerId'],
        properties: {
          sourceType: str({ enum: ['ACCOUNT', 'REALTIME_FUNDING'] }),
          accountId: str(),
          customerId: str(),
          currency: str({ description: 'REALTIME_FUNDING: the currency paid in.' }),
          cryptoNetwork: str({ description: 'REALTIME_FUNDING in a stablecoin: the deposit network.' }),
        },
        oneOf: [
          variant('sourceType', 'ACCOUNT', ['accountId']),
          variant('sourceType', 'REALTIME_FUNDING', ['currency']),
        ],
      },
      destination: {
        type: 'object',
        required: ['destinationType', 'paymentRail'],
        properties: {
          destinationType: str({ enum: ['ACCOUNT', 'UMA_ADDRESS'] }),
          accountId: str(),
          umaAddress: str(),
          lookupId: str(),
          currency: str({ description: 'UMA_ADDRESS: the receiving currency.' }),
          paymentRail: str({ description: 'INTERNAL between internal accounts, UMA for UMA addresses.' }),
        },
        oneOf: [
          variant('destinationType', 'ACCOUNT', ['accountId']),
          variant('destinationType', 'UMA_ADDRESS', ['umaAddress', 'lookupId']),
        ],
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
      transactionId: idOf('Transaction'),
      paymentInstructions: {
        type: 'array',
        description:
          'Absent for internal-account sources. EMBEDDED_WALLET sources: accountOrWalletInfo ' +
          '{accountType: EMBEDDED_WALLET, payloadToSign}. External and REALTIME_FUNDING sources: bank (or wallet) ' +
          'details with the reference to quote.',
        items: ref('PaymentInstructions'),
      },
      counterpartyInformation: { type: 'object', additionalProperties: { type: 'string' } },
      rateDetails: ref('RateDetails'),
      description: str(),
      purposeOfPayment: str(),
    },
  },
};
