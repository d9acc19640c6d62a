/** OpenAPI prose of the transactions routes (the descriptions the controllers' decorators name). */

export const STATUS_TEXT =
  'Statuses: CREATED (initial lookup created), PENDING (quote created; incoming: awaiting the ' +
  'platform’s approval), PROCESSING (funding received, payment initiated), ' +
  'COMPLETED (converted and sent, or credited), REJECTED (receiving side rejected, refunded), ' +
  'FAILED (see failureReason), REFUNDED, EXPIRED (quote expired). ' +
  'reconciliationInstructions are present for every status but CREATED.';

/** Descriptions of the routes of transactions.controller.ts, by handler. */
export const TRANSACTIONS_TEXT = {
  constructor:
    'The receiver data the sender’s side asked for (requestedReceiverCustomerInfoFields of the ' +
    'incoming-payment webhook); kept on the transaction as receiverCustomerInfo.',
  list: `Newest first unless sortOrder=asc; dates are inclusive. ${STATUS_TEXT}`,
  confirm:
    'Records that the platform delivered the transaction’s receipt to its customer (needed only where the ' +
    'platform must send receipts): receiptDeliveryConfirmedAt, the platform’s current time when the body ' +
    'leaves it out. Confirming again moves the stored time. Any status; the time cannot be in the future ' +
    'or before the transaction was created (400).',
  approve:
    'For INCOMING payments PENDING the platform’s approval: credits the receiver (PROCESSING, then COMPLETED). ' +
    'receiverCustomerInfo, when given, is kept on the transaction. 409 ' +
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL when the payment does not wait for the platform.',
  reject:
    'For INCOMING payments PENDING the platform’s approval: REJECTED, nothing is credited. `reason`, when ' +
    'given, is kept on the transaction as rejectionReason. 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL ' +
    'when the payment does not wait for the platform.',
};
