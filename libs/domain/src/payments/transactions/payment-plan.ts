import { createHash } from 'node:crypto';
import type { Decider } from '../../decider.js';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  type LedgerCommand,
  type LedgerEvent,
  type LedgerState,
} from '../../ledger/ledger.js';
import { ledgerSnapshot } from '../../ledger/ledger-snapshot.js';
import { isPublicId } from '../../primitives.js';
import type { SandboxUmaOutcome } from '../lookups/lookup.js';

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

/**
 * Durable timers run as jobs on the `timers` queue; their delays are measured on the queue's
 * clock (the sandbox clock), so advancing it makes them due. Every handler is idempotent: a job
 * may run again after a crash.
 */
export const TIMER_QUEUE = 'timers';

/** Which stream holds a payment: a quote (with its transaction) or a stand-alone transaction. */
export interface PaymentRef {
  kind: 'quote' | 'transaction';
  /** `Quote:<uuid>` or `Transaction:<uuid>`. */
  id: string;
}

export type TimerJob =
  /** At a quote's expiresAt: a PENDING quote expires; a started one gets its immediate step applied (recovery). */
  | { kind: 'QUOTE_DEADLINE'; platformId: string; quoteId: string }
  /** A planned later step of a payment. */
  | { kind: 'PAYMENT_STEP'; platformId: string; ref: PaymentRef; step: PaymentStep }
  /** Re-applies a payment's immediate step if the process that started it died before finishing. */
  | { kind: 'PAYMENT_RECOVERY'; platformId: string; ref: PaymentRef };

/** Recovery runs this long after a payment starts, when the immediate step has long finished. */
export const RECOVERY_DELAY_MS = 60_000;

export function timerJobId(job: TimerJob): string {
  switch (job.kind) {
    case 'QUOTE_DEADLINE':
      return `deadline:${job.quoteId}`;
    case 'PAYMENT_STEP':
      return `step:${job.ref.id}:${job.step.type}`;
    case 'PAYMENT_RECOVERY':
      return `recovery:${job.ref.id}`;
  }
}

/**
 * The ledger legs of a payment, each a transfer whose id is derived from the transaction id, so
 * running a step twice (a retried timer, a recovery after a crash) never moves money twice:
 * the ledger treats a repeated transfer id as a no-op.
 *
 * - hold:   source internal account -> settlement account of the source currency (pending)
 * - post / void: resolve the hold
 * - credit: settlement account of the destination currency -> destination internal account
 * - refund: settlement account of the source currency -> source internal account (after completion)
 * - reverse: destination internal account -> settlement account (money pulled in that the bank took back)
 */
export type PaymentLeg = 'hold' | 'post' | 'void' | 'credit' | 'refund' | 'reverse';

export function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  // Version 4 / RFC 4122 variant bits, so the result is shaped like every other id.
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const legTransferId = (transactionId: string, leg: PaymentLeg) =>
  `Transfer:${derivedUuid(`${transactionId}/${leg}`)}`;

export const LEG_CODES: Record<Exclude<PaymentLeg, 'post' | 'void'>, string> = {
  hold: 'PAYMENT_HOLD',
  credit: 'PAYMENT_CREDIT',
  refund: 'PAYMENT_REFUND',
  reverse: 'PAYMENT_REVERSAL',
};

/** A payment's two ends, as its transaction records them. */
interface PaymentEnds {
  source: { sourceType: string; accountId?: string };
  destination: { destinationType: string; accountId?: string };
}

/** Whether money leaves an internal account (held on start) and whether it lands in one. */
export function legsOf(tx: PaymentEnds): { holdsSource: boolean; creditsDestination: boolean } {
  return {
    holdsSource: tx.source.sourceType === 'ACCOUNT' && isPublicId('InternalAccount', tx.source.accountId),
    creditsDestination:
      tx.destination.destinationType === 'ACCOUNT' && isPublicId('InternalAccount', tx.destination.accountId),
  };
}

/**
 * A map that reads through to a base map and copies each value on first access, so evolving the
 * overlay never touches the base (ledger accounts and transfers are updated in place by evolve).
 */
class CopyOnReadMap<K, V extends object> extends Map<K, V> {
  constructor(private readonly base: ReadonlyMap<K, V>) {
    super();
  }
  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    const value = this.base.get(key);
    if (value === undefined) return undefined;
    const copy = { ...value };
    super.set(key, copy);
    return copy;
  }
  override has(key: K): boolean {
    return super.has(key) || this.base.has(key);
  }
}

/**
 * Several ledger commands decided together and appended as one batch (one write for a payment's
 * settlement legs). Each command is decided against the state left by the previous ones; the
 * committed state is untouched until the batch is appended.
 */
export const ledgerBatchDecider: Decider<LedgerState, LedgerCommand[], LedgerEvent> = {
  initialState: initialLedgerState,
  evolve: evolveLedger,
  snapshot: ledgerSnapshot,
  decide(commands, state) {
    if (commands.length === 1) return decideLedger(commands[0], state);
    const view: LedgerState = {
      accounts: new CopyOnReadMap(state.accounts),
      transfers: new CopyOnReadMap(state.transfers),
      settled: state.settled,
    };
    const events: LedgerEvent[] = [];
    for (const command of commands) {
      for (const event of decideLedger(command, view)) {
        evolveLedger(view, event);
        events.push(event);
      }
    }
    return events;
  },
};

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
