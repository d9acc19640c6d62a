import type { SandboxUmaOutcome } from '../lookups/lookup.js';
import { SUCCESS_PLAN, type PaymentPlan, type PaymentStep } from '../transactions/payment-plan.js';

/**
 * The sandbox's rail: the last three characters of an identifier select what happens (for identifiers with a domain
 * part, of the part before `@`). Only sandbox platforms move money this way; a production platform's payments go
 * through its bank rail (bank-rails.ts), or are refused where it has none.
 */
export const SANDBOX_DELAYS = {
  /** Quote destination 003: completes after about 6 minutes. */
  slowCompletionMs: 6 * 60_000,
  /** Quote destinations 004, 006, 007: the payout fails shortly after starting. */
  payoutFailureMs: 30_000,
  /** Quote destination 005: the receiving bank returns the payment. */
  returnAfterMs: 5 * 60_000,
  /** Transfers 004: the bank rejects after a short while. */
  bankRejectionMs: 10_000,
  /** Transfers 005: pending about 30 seconds, then fails. */
  transferPendingMs: 30_000,
  /** `$pending.long` UMA receivers: settle after an hour. */
  umaPendingLongMs: 60 * 60_000,
  /** Incoming payments waiting for the platform's approval time out after an hour. */
  incomingApprovalMs: 60 * 60_000,
} as const;

/** A plan whose step `step` happens `afterMs` after the payment starts (nothing happens at once). */
const after = (afterMs: number, step: PaymentStep): PaymentPlan => ({ later: { afterMs, step } });

/** A plan that fails at once. */
const failsAtOnce = (step: Omit<Extract<PaymentStep, { type: 'FAIL' }>, 'type'>): PaymentPlan => ({
  immediate: { type: 'FAIL', ...step },
});

export function sandboxSuffix(identifier: string): string {
  const user = identifier.includes('@') ? identifier.slice(0, identifier.indexOf('@')) : identifier;
  return user.slice(-3);
}

/** External account in POST /transfer-in and /transfer-out. */
export function transferPlan(primaryIdentifier: string): PaymentPlan {
  switch (sandboxSuffix(primaryIdentifier)) {
    case '002':
      return failsAtOnce({ status: 'FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
    case '003':
      return failsAtOnce({ status: 'FAILED', failureDetail: 'ACCOUNT_CLOSED_OR_INVALID' });
    case '004':
      return after(SANDBOX_DELAYS.bankRejectionMs, {
        type: 'FAIL',
        status: 'REJECTED',
        failureDetail: 'REJECTED_BY_BANK',
      });
    case '005':
      return after(SANDBOX_DELAYS.transferPendingMs, { type: 'FAIL', status: 'FAILED', failureDetail: 'BANK_TIMEOUT' });
    default:
      return SUCCESS_PLAN;
  }
}

/** External account as the destination of a quote. */
export function quoteDestinationPlan(primaryIdentifier: string): PaymentPlan {
  const failed = { failureReason: 'OFFRAMP_FAILED' } as const;
  switch (sandboxSuffix(primaryIdentifier)) {
    case '002':
      return failsAtOnce({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
    case '003':
      return after(SANDBOX_DELAYS.slowCompletionMs, { type: 'COMPLETE' });
    case '004':
      return after(SANDBOX_DELAYS.payoutFailureMs, { type: 'FAIL', status: 'FAILED', ...failed });
    case '005':
      return {
        immediate: { type: 'COMPLETE' },
        later: {
          afterMs: SANDBOX_DELAYS.returnAfterMs,
          step: { type: 'RETURN', status: 'FAILED', ...failed, failureDetail: 'RETURNED_BY_RECEIVING_BANK' },
        },
      };
    case '006':
      return after(SANDBOX_DELAYS.payoutFailureMs, {
        type: 'FAIL',
        status: 'REFUNDED',
        failureDetail: 'USER_CANCELLED',
      });
    case '007':
      return after(SANDBOX_DELAYS.payoutFailureMs, {
        type: 'LOSE',
        ...failed,
        failureDetail: 'PAYOUT_AND_REFUND_FAILED',
      });
    default:
      return SUCCESS_PLAN;
  }
}

/** UMA address as the destination of a quote. */
export function umaDestinationPlan(outcome: SandboxUmaOutcome | undefined): PaymentPlan {
  switch (outcome) {
    case 'PENDING_LONG':
      return after(SANDBOX_DELAYS.umaPendingLongMs, { type: 'COMPLETE' });
    case 'FAIL_COMPLIANCE':
      return failsAtOnce({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    default:
      return SUCCESS_PLAN;
  }
}

/**
 * Simulated incoming UMA payments, by sender: `$pending.long...` waits for the platform's approval
 * (and times out), `$fail.compliance...` is rejected by compliance screening, anything else is
 * credited at once.
 */
export function incomingPlan(senderUmaAddress: string): { needsApproval: boolean; plan: PaymentPlan } {
  if (/^\$pending\.long[.@]/.test(senderUmaAddress)) {
    return {
      needsApproval: true,
      plan: after(SANDBOX_DELAYS.incomingApprovalMs, {
        type: 'FAIL',
        status: 'FAILED',
        failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
      }),
    };
  }
  if (/^\$fail\.compliance[.@]/.test(senderUmaAddress))
    return { needsApproval: false, plan: failsAtOnce({ status: 'REJECTED' }) };
  return { needsApproval: false, plan: SUCCESS_PLAN };
}
