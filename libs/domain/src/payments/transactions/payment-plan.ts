/**
 * What happens to a payment after it starts: an optional step applied at once and an optional
 * step applied later by a durable timer. The plan is fixed when the transaction is created (from
 * the sandbox outcome rules, or plain success outside the sandbox) and stored with it, so a timer
 * or a recovery run after a crash applies exactly the same steps.
 */
export type FailureReason =
  | 'LNURLP_FAILED'
  | 'PAY_REQUEST_FAILED'
  | 'PAYMENT_APPROVAL_WEBHOOK_ERROR'
  | 'PAYMENT_APPROVAL_TIMED_OUT'
  | 'OFFRAMP_FAILED'
  | 'MISSING_MANDATORY_PAYEE_DATA'
  | 'QUOTE_EXPIRED'
  | 'QUOTE_EXECUTION_FAILED';

export const FAILURE_REASONS: readonly FailureReason[] = [
  'LNURLP_FAILED',
  'PAY_REQUEST_FAILED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
  'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
];

/** Why a bank leg failed, where the spec's failure reasons have no matching value. */
export type FailureDetail =
  | 'INSUFFICIENT_FUNDS'
  | 'ACCOUNT_CLOSED_OR_INVALID'
  | 'REJECTED_BY_BANK'
  | 'BANK_TIMEOUT'
  | 'USER_CANCELLED'
  | 'RETURNED_BY_RECEIVING_BANK'
  | 'PAYOUT_AND_REFUND_FAILED';

export type PaymentStep =
  /** Settle: post the source hold, credit an internal destination, COMPLETED. */
  | { type: 'COMPLETE' }
  /** Stop before settlement: release the hold, end in `status`. */
  | {
      type: 'FAIL';
      status: 'FAILED' | 'REJECTED' | 'REFUNDED';
      failureReason?: FailureReason;
      failureDetail?: FailureDetail;
      /** The ISO 20022 reason code a bank gave (a status report's RJCT reason), kept on the transaction. */
      bankReasonCode?: string;
    }
  /**
   * After completion the money comes back: a reverse transfer to the source (or, for money pulled in, out of the
   * destination again), end in `status`.
   */
  | {
      type: 'RETURN';
      status: 'FAILED' | 'REFUNDED';
      failureReason?: FailureReason;
      failureDetail?: FailureDetail;
      /** The ISO 20022 return reason code a bank gave, kept on the transaction. */
      bankReasonCode?: string;
    }
  /** The payout failed and so did the refund: the hold is posted (the money is gone), FAILED. */
  | { type: 'LOSE'; failureReason?: FailureReason; failureDetail?: FailureDetail };

/**
 * A payment that moves through a production platform's bank rail: once it is PROCESSING its instruction goes to the
 * bank (a credit transfer out, or a direct debit pulling money in), and its steps follow the bank's answers.
 */
export interface RailPlan {
  type: 'ISO20022_FILES';
  instruction: 'CREDIT_TRANSFER' | 'DIRECT_DEBIT';
  currency: string;
}

export interface PaymentPlan {
  immediate?: PaymentStep;
  later?: { afterMs: number; step: PaymentStep };
  /** Set for payments on a bank rail: nothing happens until the bank answers. */
  rail?: RailPlan;
}

/** Completes at once: the sandbox's default outcome. */
export const SUCCESS_PLAN: PaymentPlan = { immediate: { type: 'COMPLETE' } };

/** Money that stays inside the ledger (between two internal accounts) has moved once the ledger moved it. */
export const LEDGER_PLAN: PaymentPlan = { immediate: { type: 'COMPLETE' } };
