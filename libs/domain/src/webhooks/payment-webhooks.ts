import type { PaymentStep } from '../payments/transactions/payment-plan.js';
import type { TransactionRecord, TransactionStatus } from '../payments/transactions/transaction.js';

/**
 * Which payment webhooks a change of a transaction sends: the public API's types, never a type
 * built from our status names.
 *
 * Outgoing payments: a status type when the new status is one of the public API's outgoing
 * statuses (PENDING, PROCESSING, COMPLETED, FAILED, EXPIRED), then a refund type when the change
 * returned the money to the source (REFUND_COMPLETED: a payment returned after completion, or one
 * that ends REJECTED or REFUNDED, statuses that mean "refunded") or failed to (REFUND_FAILED: payout
 * and refund both failed). REFUND_PENDING is sent when a step that refunds starts. CREATED sends
 * nothing.
 *
 * Incoming payments: PENDING only while the payment waits for the platform's approval (the webhook
 * is then the approval request), COMPLETED, and FAILED for every way of not completing (FAILED,
 * REJECTED, REFUNDED, EXPIRED). CREATED and PROCESSING send nothing.
 */
export const OUTGOING_PAYMENT_WEBHOOK_TYPES = [
  'OUTGOING_PAYMENT.PENDING',
  'OUTGOING_PAYMENT.PROCESSING',
  'OUTGOING_PAYMENT.COMPLETED',
  'OUTGOING_PAYMENT.FAILED',
  'OUTGOING_PAYMENT.EXPIRED',
  'OUTGOING_PAYMENT.REFUND_PENDING',
  'OUTGOING_PAYMENT.REFUND_COMPLETED',
  'OUTGOING_PAYMENT.REFUND_FAILED',
] as const;
export const INCOMING_PAYMENT_WEBHOOK_TYPES = [
  'INCOMING_PAYMENT.PENDING',
  'INCOMING_PAYMENT.COMPLETED',
  'INCOMING_PAYMENT.FAILED',
] as const;
export type PaymentWebhookType =
  (typeof OUTGOING_PAYMENT_WEBHOOK_TYPES)[number] | (typeof INCOMING_PAYMENT_WEBHOOK_TYPES)[number];

/** The incoming-payment webhook that asks the platform to approve (its reply decides). */
export const APPROVAL_WEBHOOK_TYPE = 'INCOMING_PAYMENT.PENDING';

/** What happened to the transaction: created, moved from `previousStatus`, or started a step. */
export type PaymentChange =
  | { kind: 'created'; transaction: TransactionRecord }
  | { kind: 'status'; transaction: TransactionRecord; previousStatus: TransactionStatus }
  | { kind: 'step'; transaction: TransactionRecord; step: PaymentStep };

export type RefundStatus = 'PENDING' | 'COMPLETED' | 'FAILED';
export type RefundReason = 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';

/**
 * An incoming payment waiting for the platform's decision: an UMA payment, PENDING, with no step
 * to apply at once (it waits for the webhook's reply, approve or reject, or times out).
 */
export function awaitsApproval(tx: TransactionRecord): boolean {
  return (
    tx.type === 'INCOMING' && tx.status === 'PENDING' && !tx.plan.immediate && tx.source.sourceType === 'UMA_ADDRESS'
  );
}

/** Steps that send money back to the source (or try to): a refund starts with them. */
function refunds(step: PaymentStep): boolean {
  if (step.type === 'RETURN' || step.type === 'LOSE') return true;
  return step.type === 'FAIL' && (step.status === 'REFUNDED' || step.status === 'REJECTED');
}

const OUTGOING_STATUS_TYPES: Partial<Record<TransactionStatus, PaymentWebhookType>> = {
  PENDING: 'OUTGOING_PAYMENT.PENDING',
  PROCESSING: 'OUTGOING_PAYMENT.PROCESSING',
  COMPLETED: 'OUTGOING_PAYMENT.COMPLETED',
  FAILED: 'OUTGOING_PAYMENT.FAILED',
  EXPIRED: 'OUTGOING_PAYMENT.EXPIRED',
};

/** How the refund of an outgoing change ended (undefined: the change refunded nothing). */
export function refundOutcome(change: PaymentChange): RefundStatus | undefined {
  const tx = change.transaction;
  if (tx.type !== 'OUTGOING') return undefined;
  if (change.kind === 'step') return refunds(change.step) ? 'PENDING' : undefined;
  if (change.kind === 'created') return undefined;
  if (tx.status === 'FAILED' && tx.failureDetail === 'PAYOUT_AND_REFUND_FAILED') return 'FAILED';
  if (tx.status === 'REJECTED' || tx.status === 'REFUNDED') return 'COMPLETED';
  if (tx.status === 'FAILED' && change.previousStatus === 'COMPLETED') return 'COMPLETED';
  return undefined;
}

export function refundReason(tx: TransactionRecord): RefundReason {
  if (tx.failureDetail === 'USER_CANCELLED') return 'USER_CANCELLATION';
  if (tx.failureDetail === 'BANK_TIMEOUT') return 'TIMEOUT';
  return 'TRANSACTION_FAILED';
}

/** The webhook types one change sends, in order. */
export function paymentWebhookTypes(change: PaymentChange): PaymentWebhookType[] {
  const tx = change.transaction;
  if (tx.type === 'INCOMING') {
    if (change.kind === 'step') return [];
    switch (tx.status) {
      case 'PENDING':
        return awaitsApproval(tx) ? ['INCOMING_PAYMENT.PENDING'] : [];
      case 'COMPLETED':
        return ['INCOMING_PAYMENT.COMPLETED'];
      case 'CREATED':
      case 'PROCESSING':
        return [];
      default:
        return ['INCOMING_PAYMENT.FAILED'];
    }
  }
  const refund = refundOutcome(change);
  if (change.kind === 'step') return refund ? ['OUTGOING_PAYMENT.REFUND_PENDING'] : [];
  const types: PaymentWebhookType[] = [];
  const status = OUTGOING_STATUS_TYPES[tx.status];
  if (status) types.push(status);
  if (refund === 'COMPLETED') types.push('OUTGOING_PAYMENT.REFUND_COMPLETED');
  if (refund === 'FAILED') types.push('OUTGOING_PAYMENT.REFUND_FAILED');
  return types;
}

/** A field the sender's side wants to know about the receiver (the public API's CounterpartyFieldDefinition). */
export interface RequestedField {
  name: string;
  mandatory: boolean;
}

/** What the receiving customer's registration holds (the Customer resource's fields). */
export interface ReceiverProfile {
  customerType?: string;
  fullName?: unknown;
  birthDate?: unknown;
  nationality?: unknown;
  address?: unknown;
  businessInfo?: { legalName?: unknown; registrationNumber?: unknown } | null;
}

/**
 * The fields the sandbox sender's side asks about the receiver of an incoming payment that waits for
 * approval: an individual's full name, birth date and nationality (mandatory) and postal address
 * (optional); a business's legal name and registration number (mandatory) and postal address
 * (optional). Only fields the customer's registration lacks are asked: the platform gives them in
 * `receiverCustomerInfo` when it approves.
 */
export function requestedReceiverFields(receiver: ReceiverProfile | undefined): RequestedField[] {
  const missing = (value: unknown) => value === undefined || value === null || value === '';
  const wanted: [string, boolean, unknown][] =
    receiver?.customerType === 'BUSINESS'
      ? [
          ['COMPANY_LEGAL_NAME', true, receiver.businessInfo?.legalName],
          ['REGISTRATION_NUMBER', true, receiver.businessInfo?.registrationNumber],
          ['POSTAL_ADDRESS', false, receiver.address],
        ]
      : [
          ['FULL_NAME', true, receiver?.fullName],
          ['BIRTH_DATE', true, receiver?.birthDate],
          ['NATIONALITY', true, receiver?.nationality],
          ['POSTAL_ADDRESS', false, receiver?.address],
        ];
  return wanted.filter(([, , value]) => missing(value)).map(([name, mandatory]) => ({ name, mandatory }));
}
