import { DomainError, conflict } from '../../errors.js';

/**
 * Facts recorded on a transaction besides its status: the receipt-delivery confirmation, the
 * platform's decision on an incoming payment (the receiver data it supplied, or why it refused),
 * and the refund of an outgoing payment whose money came back (or should have).
 */

export type RefundStatus = 'PENDING' | 'COMPLETED' | 'FAILED';
export type RefundReason = 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';

export interface Refund {
  reference: string;
  initiatedAt: string;
  settledAt?: string;
  status: RefundStatus;
  reason?: RefundReason;
}

/** The fields of a transaction these rules read and write (a TransactionRecord has them all). */
export interface Annotatable {
  id: string;
  type: 'INCOMING' | 'OUTGOING';
  status: string;
  reference: string;
  failureReason?: string;
  failureDetail?: string;
  plan: { immediate?: unknown };
  activeStep?: unknown;
  receiptDeliveryConfirmedAt?: string;
  receiverCustomerInfo?: Record<string, unknown>;
  rejectionReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** The platform confirms it delivered the receipt; `at` defaults to the platform's now. Repeating it moves the time. */
export interface ConfirmReceiptDeliveryCommand {
  type: 'ConfirmReceiptDelivery';
  at?: string;
  now: string;
}

/** What the platform said with its decision on an incoming payment, recorded before the decision takes effect. */
export interface RecordPlatformDecisionCommand {
  type: 'RecordPlatformDecision';
  decision: 'APPROVE' | 'REJECT';
  receiverCustomerInfo?: Record<string, unknown>;
  reason?: string;
  now: string;
}

export type AnnotateCommand = ConfirmReceiptDeliveryCommand | RecordPlatformDecisionCommand;

const badTime = (message: string) =>
  new DomainError('invalid', 'INVALID_INPUT', message, {
    errors: [{ field: 'receiptDeliveryConfirmedAt', constraint: 'receiptDeliveryConfirmedAt', message }],
  });

/** The error of an approve or reject sent for a transaction that is not waiting for the platform. */
export const notPendingApproval = (id: string, status: string) =>
  conflict(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    `transaction ${id} is ${status} and not an incoming payment pending the platform’s approval`,
  );

/** Whether an incoming payment waits for the platform's approve or reject (no immediate step planned). */
export const awaitsPlatformApproval = (tx: Annotatable) =>
  tx.type === 'INCOMING' && tx.status === 'PENDING' && !tx.plan.immediate && !tx.activeStep;

/** The annotated record, or undefined when nothing changes (no event). */
export function annotate<T extends Annotatable>(tx: T, cmd: AnnotateCommand): T | undefined {
  if (cmd.type === 'ConfirmReceiptDelivery') {
    const at = cmd.at ?? cmd.now;
    const atMs = Date.parse(at);
    if (Number.isNaN(atMs)) throw badTime('receiptDeliveryConfirmedAt must be a date-time');
    if (atMs > Date.parse(cmd.now)) throw badTime('receiptDeliveryConfirmedAt cannot be in the future');
    if (atMs < Date.parse(tx.createdAt))
      throw badTime(`receiptDeliveryConfirmedAt cannot be before the transaction was created (${tx.createdAt})`);
    const iso = new Date(atMs).toISOString();
    if (tx.receiptDeliveryConfirmedAt === iso) return undefined;
    return { ...tx, receiptDeliveryConfirmedAt: iso, updatedAt: cmd.now };
  }
  if (!awaitsPlatformApproval(tx)) throw notPendingApproval(tx.id, tx.status);
  const next: T = { ...tx };
  if (cmd.decision === 'APPROVE' && cmd.receiverCustomerInfo && Object.keys(cmd.receiverCustomerInfo).length > 0)
    next.receiverCustomerInfo = cmd.receiverCustomerInfo;
  if (cmd.decision === 'REJECT' && cmd.reason !== undefined && cmd.reason !== '') next.rejectionReason = cmd.reason;
  if (next.receiverCustomerInfo === tx.receiverCustomerInfo && next.rejectionReason === tx.rejectionReason)
    return undefined;
  return { ...next, updatedAt: cmd.now };
}

/**
 * The refund of an outgoing payment that reached a final status, from how it ended: a user
 * cancellation or a bank rejection releases the held money (COMPLETED), a bank timeout too
 * (reason TIMEOUT), a payment returned after completion is credited back (COMPLETED), a payout
 * whose refund also failed keeps the money gone (FAILED). A payment refused before any money
 * moved (insufficient funds, closed account, execution or pay-request failure) has no refund.
 */
export function refundFor(tx: Annotatable, now: string): Refund | undefined {
  if (tx.type !== 'OUTGOING') return undefined;
  const reference = `${tx.reference}-REFUND`;
  const done = (reason: RefundReason): Refund => ({
    reference,
    initiatedAt: now,
    settledAt: now,
    status: 'COMPLETED',
    reason,
  });
  if (tx.status === 'REFUNDED')
    return done(tx.failureDetail === 'USER_CANCELLED' ? 'USER_CANCELLATION' : 'TRANSACTION_FAILED');
  if (tx.status === 'REJECTED') return done('TRANSACTION_FAILED');
  if (tx.status !== 'FAILED') return undefined;
  switch (tx.failureDetail) {
    case 'PAYOUT_AND_REFUND_FAILED':
      return { reference, initiatedAt: now, status: 'FAILED', reason: 'TRANSACTION_FAILED' };
    case 'BANK_TIMEOUT':
      return done('TIMEOUT');
    case 'RETURNED_BY_RECEIVING_BANK':
    case 'REJECTED_BY_BANK':
      return done('TRANSACTION_FAILED');
    case undefined:
      return tx.failureReason === 'OFFRAMP_FAILED' ? done('TRANSACTION_FAILED') : undefined;
    default:
      return undefined;
  }
}
