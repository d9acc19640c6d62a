import { createHash } from 'node:crypto';
import type { Decider } from '../../decider.js';
import { DomainError, conflict, notFound } from '../../errors.js';
import { compact, CRYPTO_CURRENCIES, currency, toJsonNumber } from '../../primitives.js';
import type { RateDetails } from '../rates/rate-table.js';
import { annotate, refundFor, type AnnotateCommand, type Refund } from './annotations.js';
import type { FailureDetail, FailureReason, PaymentPlan, PaymentStep } from './payment-plan.js';
import type { FundingOriginator } from '../rails/funding-originator.js';

export type TransactionStatus =
  'CREATED' | 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'REJECTED' | 'FAILED' | 'REFUNDED' | 'EXPIRED';
export type TransactionType = 'INCOMING' | 'OUTGOING';

/** Every status and what it means (the spec's wording). */
export const TRANSACTION_STATUS_MEANING: Record<TransactionStatus, string> = {
  CREATED: 'initial lookup created',
  PENDING: 'quote created (incoming: waiting for the platform’s approval)',
  PROCESSING: 'funding received, payment initiated',
  COMPLETED: 'converted and sent to the offramp network (or credited)',
  REJECTED: 'receiving side rejected, refunded',
  FAILED: 'failed; see failureReason',
  REFUNDED: 'refunded to the source',
  EXPIRED: 'quote expired',
};
export const TRANSACTION_STATUSES = Object.keys(TRANSACTION_STATUS_MEANING) as TransactionStatus[];

/** Allowed moves; anything else is a 409 INVALID_STATE_TRANSITION. */
const NEXT: Record<TransactionStatus, readonly TransactionStatus[]> = {
  CREATED: ['PENDING', 'PROCESSING', 'FAILED', 'REJECTED', 'EXPIRED'],
  PENDING: ['PROCESSING', 'FAILED', 'REJECTED', 'EXPIRED'],
  PROCESSING: ['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED'],
  // A completed payment can still come back (returned by the receiving bank).
  COMPLETED: ['FAILED', 'REFUNDED'],
  REJECTED: [],
  FAILED: [],
  REFUNDED: [],
  EXPIRED: [],
};

export const isFinal = (s: TransactionStatus) => NEXT[s].length === 0;

export interface TransactionSource extends FundingOriginator {
  sourceType: 'ACCOUNT' | 'UMA_ADDRESS' | 'REALTIME_FUNDING';
  accountId?: string;
  /** REALTIME_FUNDING: the customer paying in (and, once the funds arrived, the originator's details). */
  customerId?: string;
  umaAddress?: string;
  currency: string;
}

export interface TransactionDestination {
  destinationType: 'ACCOUNT' | 'UMA_ADDRESS';
  accountId?: string;
  umaAddress?: string;
  currency: string;
  paymentRail?: string;
}

/** The transaction as the domain keeps it: amounts are decimal strings (bigint inside). */
export interface TransactionRecord {
  id: string;
  platformId: string;
  type: TransactionType;
  status: TransactionStatus;
  source: TransactionSource;
  destination: TransactionDestination;
  customerId: string;
  platformCustomerId: string;
  /** Smallest unit of the source currency. */
  sentAmount: string;
  /** Smallest unit of the destination currency. */
  receivedAmount: string;
  /** Smallest unit of the destination currency. */
  fees: string;
  exchangeRate?: number;
  rateDetails?: RateDetails;
  description?: string;
  purposeOfPayment?: string;
  counterpartyInformation?: Record<string, string>;
  reference: string;
  transactionHash?: string;
  failureReason?: FailureReason;
  failureDetail?: FailureDetail;
  /** Payments on a bank rail: the ISO 20022 reason code of the bank's rejection or return. */
  bankReasonCode?: string;
  quoteId?: string;
  agentId?: string;
  /** How the payer funds it (externally funded and embedded-wallet quotes), as on the quote. */
  paymentInstructions?: Record<string, unknown>[];
  /** Set when an outgoing payment ends with its money coming back (or failing to). */
  refund?: Refund;
  /** When the platform delivered the receipt to its customer (POST /transactions/{id}/confirm). */
  receiptDeliveryConfirmedAt?: string;
  /** The receiver data the platform supplied when approving an incoming payment. */
  receiverCustomerInfo?: Record<string, unknown>;
  /** The platform's reason when rejecting an incoming payment. */
  rejectionReason?: string;
  plan: PaymentPlan;
  /**
   * The step being applied, claimed on this stream before its ledger legs move: while it is set,
   * no other step or status change may start, so two steps never interleave their money movements.
   */
  activeStep?: PaymentStep;
  settledAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The reconciliation reference: short, stable, derived from the id. */
export const referenceFor = (transactionId: string) =>
  `TX-${transactionId.split(':')[1].replace(/-/g, '').slice(0, 12).toUpperCase()}`;

export type TransactionEvent =
  | { type: 'TransactionCreated'; data: { platformId: string; transaction: TransactionRecord } }
  | {
      type: 'TransactionStatusChanged';
      data: { platformId: string; transaction: TransactionRecord; previousStatus: TransactionStatus };
    }
  | {
      type: 'TransactionStepStarted';
      /** `startedAt`: when the step was claimed (absent in events recorded before it was kept). */
      data: { platformId: string; transaction: TransactionRecord; startedAt?: string };
    }
  | { type: 'TransactionAnnotated'; data: { platformId: string; transaction: TransactionRecord } };

export interface TransitionCommand {
  type: 'TransitionTransaction';
  to: TransactionStatus;
  now: string;
  /** Refuse unless the transaction is in one of these. */
  from?: readonly TransactionStatus[];
  /** Refuse (409 QUOTE_EXPIRED) when `now` is at or after this instant. */
  notAfter?: string;
  failureReason?: FailureReason;
  failureDetail?: FailureDetail;
  bankReasonCode?: string;
  /** The step this change belongs to (required while a step is active). */
  step?: PaymentStep;
  /** The step's final change: the step is no longer active afterwards. */
  endsStep?: boolean;
  /**
   * A step to claim in the same decision, on the record this change leaves (as BeginPaymentStep would: a no-op when
   * that status is not in `from`), so the change and the claim are committed together.
   */
  thenBegin?: { step: PaymentStep; from: readonly TransactionStatus[] };
  /** REALTIME_FUNDING: who paid the funds in that start the payment, recorded on its source. */
  originator?: FundingOriginator;
}

/** Claims a step: refused (409 PAYMENT_BUSY) while another step is active; a no-op when the status no longer fits. */
export interface BeginStepCommand {
  type: 'BeginPaymentStep';
  step: PaymentStep;
  from: readonly TransactionStatus[];
  now: string;
}

export function sameStep(a: PaymentStep | undefined, b: PaymentStep | undefined): boolean {
  if (!a || !b) return false;
  const key = (s: PaymentStep) =>
    [
      s.type,
      'status' in s ? s.status : '',
      'failureReason' in s ? (s.failureReason ?? '') : '',
      'failureDetail' in s ? (s.failureDetail ?? '') : '',
      'bankReasonCode' in s ? (s.bankReasonCode ?? '') : '',
    ].join('/');
  return key(a) === key(b);
}

const busy = (tx: TransactionRecord) =>
  conflict('PAYMENT_BUSY', `transaction ${tx.id} is applying another step (${tx.activeStep?.type}); retry later`);

const invalidTransition = (from: TransactionStatus, to: TransactionStatus) =>
  conflict('INVALID_STATE_TRANSITION', `the transaction is ${from} and cannot become ${to}`);

/** The next record, or undefined when the transaction already has that status (idempotent). */
export function transition(tx: TransactionRecord, cmd: TransitionCommand): TransactionRecord | undefined {
  if (tx.status === cmd.to) return undefined;
  if (tx.activeStep && !sameStep(tx.activeStep, cmd.step)) throw busy(tx);
  if (cmd.from && !cmd.from.includes(tx.status)) throw invalidTransition(tx.status, cmd.to);
  if (!NEXT[tx.status].includes(cmd.to)) throw invalidTransition(tx.status, cmd.to);
  if (cmd.notAfter && Date.parse(cmd.now) >= Date.parse(cmd.notAfter)) {
    throw new DomainError('conflict', 'QUOTE_EXPIRED', `the quote expired at ${cmd.notAfter}`);
  }
  const next: TransactionRecord = { ...tx, status: cmd.to, updatedAt: cmd.now };
  if (cmd.endsStep) delete next.activeStep;
  if (cmd.failureReason) next.failureReason = cmd.failureReason;
  if (cmd.failureDetail) next.failureDetail = cmd.failureDetail;
  if (cmd.bankReasonCode) next.bankReasonCode = cmd.bankReasonCode;
  if (cmd.originator && tx.source.sourceType === 'REALTIME_FUNDING') next.source = { ...tx.source, ...cmd.originator };
  if (isFinal(cmd.to)) {
    const refund = refundFor(next, cmd.now);
    if (refund) next.refund = refund;
  }
  if (cmd.to === 'COMPLETED') {
    next.settledAt = cmd.now;
    // On-chain and Lightning payouts have a hash to reconcile against.
    if (CRYPTO_CURRENCIES.has(tx.destination.currency))
      next.transactionHash = createHash('sha256').update(tx.id).digest('hex');
  }
  return next;
}

export function transitionEvents(tx: TransactionRecord | undefined, cmd: TransitionCommand): TransactionEvent[] {
  if (!tx) throw new DomainError('not_found', 'TRANSACTION_NOT_FOUND', 'transaction not found');
  const next = transition(tx, cmd);
  const changed: TransactionEvent[] = next
    ? [
        {
          type: 'TransactionStatusChanged',
          data: { platformId: tx.platformId, transaction: next, previousStatus: tx.status },
        },
      ]
    : [];
  if (!cmd.thenBegin) return changed;
  const claimed = beginStepEvents(next ?? tx, { type: 'BeginPaymentStep', ...cmd.thenBegin, now: cmd.now });
  return [...changed, ...claimed];
}

/** The status a step ends in. */
export function stepTarget(step: PaymentStep): TransactionStatus {
  switch (step.type) {
    case 'COMPLETE':
      return 'COMPLETED';
    case 'LOSE':
      return 'FAILED';
    default:
      return step.status;
  }
}

/** Whether a step can run to its end from `status` (COMPLETE may pass through PROCESSING). */
export function stepApplies(step: PaymentStep, status: TransactionStatus): boolean {
  const target = stepTarget(step);
  if (NEXT[status].includes(target)) return true;
  return step.type === 'COMPLETE' && NEXT[status].includes('PROCESSING');
}

export function beginStepEvents(tx: TransactionRecord | undefined, cmd: BeginStepCommand): TransactionEvent[] {
  if (!tx) throw new DomainError('not_found', 'TRANSACTION_NOT_FOUND', 'transaction not found');
  if (tx.activeStep) {
    if (sameStep(tx.activeStep, cmd.step)) return [];
    throw busy(tx);
  }
  // Claiming a step that cannot end would block the payment: such a step is simply not applied.
  if (!cmd.from.includes(tx.status) || !stepApplies(cmd.step, tx.status)) return [];
  return [
    {
      type: 'TransactionStepStarted',
      data: { platformId: tx.platformId, transaction: { ...tx, activeStep: cmd.step }, startedAt: cmd.now },
    },
  ];
}

export function annotateEvents(tx: TransactionRecord | undefined, cmd: AnnotateCommand): TransactionEvent[] {
  if (!tx) throw new DomainError('not_found', 'TRANSACTION_NOT_FOUND', 'transaction not found');
  const next = annotate(tx, cmd);
  return next ? [{ type: 'TransactionAnnotated', data: { platformId: tx.platformId, transaction: next } }] : [];
}

/** The lifecycle commands every payment stream accepts. */
export type LifecycleCommand = TransitionCommand | BeginStepCommand | AnnotateCommand;

export function decideLifecycle(tx: TransactionRecord | undefined, cmd: LifecycleCommand): TransactionEvent[] {
  if (cmd.type === 'BeginPaymentStep') return beginStepEvents(tx, cmd);
  if (cmd.type === 'TransitionTransaction') return transitionEvents(tx, cmd);
  return annotateEvents(tx, cmd);
}

/** Every transaction event carries the whole record. */
export function evolveTransaction(
  _current: TransactionRecord | undefined,
  event: TransactionEvent,
): TransactionRecord | undefined {
  return event.data.transaction;
}

/** Transactions that do not come from a quote (transfers, incoming payments) live in their own stream. */
export interface TransactionState {
  transaction?: TransactionRecord;
}

/** The transaction a stream (a transaction's or a quote's) holds, or not found. */
export function requireTransactionRecord(state: { transaction?: TransactionRecord }): TransactionRecord {
  if (!state.transaction) throw notFound('TRANSACTION', 'unknown');
  return state.transaction;
}

export type TransactionCommand =
  | {
      type: 'CreateTransaction';
      transaction: TransactionRecord;
      /** Statuses passed through at once, in order. */ then?: TransactionStatus[];
    }
  | LifecycleCommand;

export const transactionDecider: Decider<TransactionState, TransactionCommand, TransactionEvent> = {
  initialState: () => ({}),
  decide(cmd, state) {
    if (cmd.type === 'CreateTransaction') {
      if (state.transaction) {
        if (state.transaction.id === cmd.transaction.id) return [];
        throw conflict('TRANSACTION_EXISTS', `transaction ${cmd.transaction.id} already exists`);
      }
      const events: TransactionEvent[] = [
        { type: 'TransactionCreated', data: { platformId: cmd.transaction.platformId, transaction: cmd.transaction } },
      ];
      let tx = cmd.transaction;
      for (const to of cmd.then ?? []) {
        const [changed] = transitionEvents(tx, { type: 'TransitionTransaction', to, now: tx.createdAt });
        if (changed) {
          events.push(changed);
          tx = changed.data.transaction;
        }
      }
      return events;
    }
    return decideLifecycle(state.transaction, cmd);
  },
  evolve(state, event) {
    return { transaction: evolveTransaction(state.transaction, event) };
  },
};

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
