import { FAILURE_REASONS } from '#domain/payments/transactions/payment-plan.js';
import { obj, type Schema, str, idOf } from './kit.js';
const amount: Schema = {
  type: 'object',
  required: ['amount', 'currency'],
  properties: { amount: { type: 'integer' }, currency: { $ref: '#/components/schemas/Currency' } },
};
const variant = (field: string, value: string, identifier: string): Schema => ({
  properties: { [field]: { const: value } },
  required: [field, identifier],
});
/** REALTIME_FUNDING: who paid the funds in, once they arrived; each field only where the rail tells it. */
const ORIGINATOR: Record<string, Schema> = {
  accountHolderName: str({ description: 'REALTIME_FUNDING: the name of the originator (sender) of the payment.' }),
  accountIdentifier: str({ description: 'REALTIME_FUNDING: the originator’s account number or IBAN (maybe masked).' }),
  bankName: str({ description: 'REALTIME_FUNDING: the name of the originating bank.' }),
  bankIdentifier: str({ description: 'REALTIME_FUNDING: the originating bank’s routing number, BIC or SWIFT code.' }),
  paymentRail: str({ description: 'REALTIME_FUNDING: the payment rail the funds arrived on.' }),
  remittanceInformation: str({ description: 'REALTIME_FUNDING: what the originator wrote with the payment.' }),
  endToEndId: str({ description: 'REALTIME_FUNDING: the originator’s own end-to-end reference for the payment.' }),
  traceNumber: str({ description: 'REALTIME_FUNDING: the rail’s tracking id of the payment, for reconciliation.' }),
};
const party = (kind: 'source' | 'destination'): Schema => ({
  type: 'object',
  required: [`${kind}Type`, 'currency'],
  properties: {
    [`${kind}Type`]: str({
      enum: kind === 'source' ? ['ACCOUNT', 'UMA_ADDRESS', 'REALTIME_FUNDING'] : ['ACCOUNT', 'UMA_ADDRESS'],
    }),
    accountId: str(),
    ...(kind === 'source' ? { customerId: str({ description: 'REALTIME_FUNDING: the customer paying in.' }) } : {}),
    ...(kind === 'source' ? ORIGINATOR : {}),
    umaAddress: str(),
    currency: str(),
    ...(kind === 'destination' ? { paymentRail: str() } : {}),
  },
  // Each type always carries what identifies it.
  oneOf: [
    variant(`${kind}Type`, 'ACCOUNT', 'accountId'),
    variant(`${kind}Type`, 'UMA_ADDRESS', 'umaAddress'),
    ...(kind === 'source' ? [variant(`${kind}Type`, 'REALTIME_FUNDING', 'customerId')] : []),
  ],
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
      'sentAmount',
      'receivedAmount',
      'exchangeRate',
      'fees',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('Transaction'),
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
        required: ['reference'],
        properties: { reference: str(), transactionHash: str({ description: 'Crypto destinations, once completed.' }) },
      },
      rateDetails: obj(['gridApiMultiplier', 'gridApiFixedFee', 'gridApiVariableFeeRate', 'gridApiVariableFeeAmount'], {
        gridApiMultiplier: { type: 'number' },
        gridApiFixedFee: { type: 'number' },
        gridApiVariableFeeRate: { type: 'number' },
        gridApiVariableFeeAmount: { type: 'number' },
      }),
      failureReason: str({ enum: [...FAILURE_REASONS] }),
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
      bankReasonCode: str({
        description:
          'Payments on a production bank rail: the ISO 20022 reason code of the bank’s rejection or return ' +
          '(for example AC04, account closed).',
      }),
      quoteId: str({ description: 'Transactions created from a quote.' }),
      paymentInstructions: {
        type: 'array',
        description: 'OUTGOING payments of externally funded or embedded-wallet quotes: how the payer funds it.',
        items: { $ref: '#/components/schemas/PaymentInstructions' },
      },
      refund: {
        type: 'object',
        description:
          'OUTGOING payments that ended with their money coming back: COMPLETED when it did, FAILED when the ' +
          'payout and its refund both failed.',
        required: ['reference', 'initiatedAt', 'status'],
        properties: {
          reference: str(),
          initiatedAt: str({ format: 'date-time' }),
          settledAt: str({ format: 'date-time' }),
          status: str({ enum: ['PENDING', 'COMPLETED', 'FAILED'] }),
          reason: str({ enum: ['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] }),
        },
      },
      receiptDeliveryConfirmedAt: str({
        format: 'date-time',
        description: 'When the platform delivered the receipt (POST /transactions/{transactionId}/confirm).',
      }),
      receiverCustomerInfo: {
        type: 'object',
        additionalProperties: true,
        description: 'INCOMING: the receiver data the platform gave when approving.',
      },
      rejectionReason: str({ description: 'INCOMING: the platform’s reason when rejecting.' }),
      agentId: str({ description: 'Set when an agent initiated it.' }),
      settledAt: str({ format: 'date-time' }),
      createdAt: str({ format: 'date-time' }),
      updatedAt: str({ format: 'date-time' }),
    },
  },
};
