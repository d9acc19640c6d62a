import { currency, toJsonNumber } from '../../money.js';
import { compact } from '../../objects.js';
import type { TransactionRecord } from './transaction.js';

const amount = (value: string, code: string) => ({ amount: toJsonNumber(BigInt(value)), currency: currency(code) });

/**
 * The Transaction resource. `reconciliationInstructions` appear for every status but CREATED; a
 * transaction's `rateDetails` carry only the four `gridApi*` fields.
 */
export function toTransactionResource(tx: TransactionRecord): Record<string, unknown> {
  const rate = tx.rateDetails;
  return compact({
    id: tx.id,
    status: tx.status,
    type: tx.type,
    source: compact({ ...tx.source }),
    destination: compact({ ...tx.destination }),
    customerId: tx.customerId,
    platformCustomerId: tx.platformCustomerId,
    sentAmount: amount(tx.sentAmount, tx.source.currency),
    receivedAmount: amount(tx.receivedAmount, tx.destination.currency),
    exchangeRate: tx.exchangeRate,
    fees: toJsonNumber(BigInt(tx.fees)),
    description: tx.description,
    purposeOfPayment: tx.purposeOfPayment,
    counterpartyInformation: tx.counterpartyInformation,
    reconciliationInstructions:
      tx.status === 'CREATED' ? undefined : compact({ reference: tx.reference, transactionHash: tx.transactionHash }),
    rateDetails: rate
      ? {
          gridApiMultiplier: rate.gridApiMultiplier,
          gridApiFixedFee: rate.gridApiFixedFee,
          gridApiVariableFeeRate: rate.gridApiVariableFeeRate,
          gridApiVariableFeeAmount: rate.gridApiVariableFeeAmount,
        }
      : undefined,
    failureReason: tx.failureReason,
    failureDetail: tx.failureDetail,
    bankReasonCode: tx.bankReasonCode,
    quoteId: tx.quoteId,
    paymentInstructions: tx.paymentInstructions,
    refund: tx.refund ? compact({ ...tx.refund }) : undefined,
    receiptDeliveryConfirmedAt: tx.receiptDeliveryConfirmedAt,
    receiverCustomerInfo: tx.receiverCustomerInfo,
    rejectionReason: tx.rejectionReason,
    agentId: tx.agentId,
    settledAt: tx.settledAt,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  });
}
