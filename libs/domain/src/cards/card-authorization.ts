import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { cardTransactionIdOf, checkClearing, checkReturn, type CardTransactionState } from './card-transaction.js';
import { formatAmount, publicId } from '../primitives.js';
import { uuidFromName } from '../webhooks/webhook-ids.js';
import { unreachable } from '../decider.js';
import { cardSpendingDecline } from './card-spending.js';
import { clearingSplit, holdsOf, withHolds } from './card-holds.js';
import type {
  ApprovedAuthorization,
  AuthorizationActivity,
  CardAggregate,
  CardAuthorizationCommand,
  CardAuthorizationRecord,
  CardEvent,
  CardSnapshot,
  DeclineReason,
  DeclinedAuthorization,
  ExistingCard,
  ReversalReason,
} from './card-types.js';

/** How long an approved authorization holds funds without a clearing before it expires (network practice: 7 days). */
export const AUTHORIZATION_VALIDITY_MS = 7 * 24 * 3600 * 1000;

/**
 * Authorization decisioning against the card (the ledger decides the money): a card that is not
 * ACTIVE or an authorization in another currency is declined before any funds are looked at.
 */
export function screenAuthorization(card: CardSnapshot, currency: string): DeclineReason | undefined {
  switch (card.state) {
    case 'FROZEN':
      return 'CARD_PAUSED';
    case 'CLOSED':
      return 'CARD_CLOSED';
    case 'PENDING_KYC':
    case 'PENDING_ISSUE':
      return 'CARD_NOT_ACTIVE';
    case 'ACTIVE':
      return currency === card.currency ? undefined : 'CURRENCY_MISMATCH';
  }
}

/**
 * The sandbox's decisioning outcomes by the last three characters of the merchant descriptor, as the
 * public API documents them: `002` the pull on the funding source fails, `003` the card refuses as if frozen.
 */
export function sandboxDecline(descriptor: string): DeclineReason | undefined {
  if (descriptor.endsWith('002')) return 'INSUFFICIENT_FUNDS';
  if (descriptor.endsWith('003')) return 'CARD_PAUSED';
  return undefined;
}

/**
 * `006`: approved, then the pull's confirmation reports it failed: the hold is released and the transaction is
 * in EXCEPTION (the network approved what the funding source did not pay).
 */
export const sandboxPullFails = (descriptor: string): boolean => descriptor.endsWith('006');

/** A declined authorization as the simulator answers it: 400 with the decline reason as the code. */
export function declined(a: DeclinedAuthorization): DomainError {
  return new DomainError('invalid', a.declineReason, `authorization declined: ${a.declineReason}`, {
    reason: a.declineReason,
    declineReason: a.declineReason,
    authorizationId: a.id,
    ...(a.decision ? { decision: a.decision } : {}),
  });
}

export function requireAuthorization(state: CardAggregate, authorizationId: string): CardAuthorizationRecord {
  const authorization = state.authorizations.get(authorizationId);
  if (!authorization) throw notFound('CARD_AUTHORIZATION', authorizationId);
  return authorization;
}

/**
 * An approved authorization (one that opened a card transaction); for a declined or unknown one, its transaction is
 * not found.
 */
export function requireApproved(state: CardAggregate, authorizationId: string): ApprovedAuthorization {
  const authorization = requireAuthorization(state, authorizationId);
  if (authorization.status === 'DECLINED') throw notFound('CARD_TRANSACTION', cardTransactionIdOf(authorizationId));
  return authorization;
}

/**
 * What a clearing of `amount` (default: the authorized amount) does. HOLD: post the pending hold
 * (partially, releasing the rest; or fully plus a separate transfer for an over-authorization).
 * LATE: the hold was released when the card closed; the clearing is a late presentment, posted as a
 * new transfer if the funding source still has the funds.
 */
export function clearingPlan(
  state: CardAggregate,
  authorizationId: string,
  amount?: bigint,
): { authorization: ApprovedAuthorization; amount: bigint; kind: 'HOLD' | 'LATE' } {
  const transaction = requireTransaction(state, authorizationId);
  checkClearing(transaction);
  const authorization = requireApproved(state, authorizationId);
  const clearing = amount ?? heldAmount(authorization);
  if (clearing <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
  return { authorization, amount: clearing, kind: authorization.status === 'REVERSED' ? 'LATE' : 'HOLD' };
}

/** What the authorization's hold reserves: the authorized amount, or the rest a partial clearing held again. */
export const heldAmount = (a: CardAuthorizationRecord): bigint => BigInt(a.heldAmount ?? a.amount);

/** Clearings that posted so far (numbers the ledger legs of the next one). */
export const clearingsPosted = (a: CardAuthorizationRecord): number =>
  a.activity.filter((x) => x.type === 'CLEARING' && x.result === 'APPROVED').length;

/** The card transaction an approved authorization opened; a declined or unknown one is not found. */
export function requireTransaction(state: CardAggregate, authorizationId: string): CardTransactionState {
  const id = cardTransactionIdOf(authorizationId);
  const transaction = state.transactions.get(id);
  if (!transaction) throw notFound('CARD_TRANSACTION', id);
  return transaction;
}

/**
 * The ledger transfer ids of an authorization's clearing legs, derived from the authorization: a
 * process that repeats a leg (it joined another's clearing, or resumes after a crash) writes the same
 * transfer again, which the ledger treats as done, so a leg is never posted twice.
 */
export const clearingTransferId = (
  authorizationId: string,
  leg: 'overAuthorization' | 'post' | 'latePresentment' | 'rehold',
  sequence = 0,
) => publicId('Transfer', uuidFromName(`card-clearing:${authorizationId}:${leg}${sequence ? `:${sequence}` : ''}`));

/** A return refunds part or all of what was settled and not yet returned (default: all of it). */
export function returnPlan(
  state: CardAggregate,
  authorizationId: string,
  amount?: bigint,
): { authorization: ApprovedAuthorization; amount: bigint } {
  const transaction = requireTransaction(state, authorizationId);
  const authorization = requireApproved(state, authorizationId);
  const remaining = BigInt(authorization.clearedAmount) - BigInt(authorization.returnedAmount);
  const refund = amount ?? (remaining > 0n ? remaining : 1n);
  if (refund <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
  checkReturn(transaction, refund);
  return { authorization, amount: refund };
}

const activity = (entry: AuthorizationActivity): AuthorizationActivity => entry;

function event(
  type: Extract<CardEvent, { data: { authorization: CardAuthorizationRecord } }>['type'],
  state: ExistingCard,
  authorization: CardAuthorizationRecord,
): CardEvent {
  return { type, data: { platformId: state.platformId, cardId: state.card.id, authorization } } as CardEvent;
}

type CommandOf<T extends CardAuthorizationCommand['type']> = Extract<CardAuthorizationCommand, { type: T }>;

export function decideAuthorization(cmd: CardAuthorizationCommand, state: ExistingCard): CardEvent[] {
  switch (cmd.type) {
    case 'RecordAuthorization':
      return decideRecordAuthorization(cmd, state);
    case 'StartClearing':
      return decideStartClearing(cmd, state);
    case 'RecordClearing':
      return decideRecordClearing(cmd, state);
    case 'ExpireAuthorization': {
      const a = state.authorizations.get(cmd.authorizationId);
      // Cleared, declined or already reversed: nothing is held any more. Unknown: never recorded.
      if (!a || a.status !== 'APPROVED') return [];
      // A clearing in progress takes the hold; reversing would void what it is posting.
      if (state.clearings.has(cmd.authorizationId)) return [];
      return [event('CardAuthorizationReversed', state, reversed(a, cmd.reason ?? 'EXPIRED', cmd.now))];
    }
    case 'RecordReturn':
      return decideReturn(cmd, state);
    default:
      return unreachable(cmd);
  }
}

/**
 * What an authorization request ends in: the hold the caller placed, or a decline. A hold placed while the card was
 * ACTIVE stands if the card was frozen meanwhile (it passed before the freeze); if the card closed meanwhile it is
 * declined and the caller voids the hold. The spending controls are checked here, on the stream as the append finds
 * it (every approval recorded before counts): a hold that concurrent approvals pushed past a limit is declined with
 * the control's reason and voided by the caller.
 */
function authorizationOutcome(
  cmd: CommandOf<'RecordAuthorization'>,
  state: ExistingCard,
): { hold: { fundingSourceId: string; transferId: string } } | { declineReason: DeclineReason } {
  const { card } = state;
  const spending = () => cardSpendingDecline(state, cmd);
  if (!cmd.hold)
    return {
      declineReason: cmd.declineReason ?? screenAuthorization(card, cmd.currency) ?? spending() ?? 'INSUFFICIENT_FUNDS',
    };
  if (card.state === 'CLOSED') return { declineReason: 'CARD_CLOSED' };
  if (card.state === 'PENDING_KYC' || card.state === 'PENDING_ISSUE') return { declineReason: 'CARD_NOT_ACTIVE' };
  // An outcome taken outside the rules (the stand-in's, or the network's in an advice) is recorded as taken.
  const declineReason = cmd.decision?.decidedBy === 'STAND_IN' ? undefined : spending();
  return declineReason ? { declineReason } : { hold: cmd.hold };
}

/** What a card processor's message adds to the record: the network's id, the entry mode, who decided. */
const processorFields = ({ networkTransactionId, entryMode, decision }: CommandOf<'RecordAuthorization'>) => ({
  ...(networkTransactionId !== undefined ? { networkTransactionId } : {}),
  ...(entryMode !== undefined ? { entryMode } : {}),
  ...(decision !== undefined ? { decision } : {}),
});

function decideRecordAuthorization(cmd: CommandOf<'RecordAuthorization'>, state: ExistingCard): CardEvent[] {
  if (state.authorizations.has(cmd.authorizationId)) return [];
  if (cmd.amount <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
  const { card } = state;
  const outcome = authorizationOutcome(cmd, state);
  const head = {
    id: cmd.authorizationId,
    cardId: card.id,
    customerId: card.customerId,
    ...(cmd.requestedAmount !== undefined ? { requestedAmount: cmd.requestedAmount.toString() } : {}),
  };
  const money = {
    amount: cmd.amount.toString(),
    currency: cmd.currency,
    merchant: cmd.merchant,
    ...processorFields(cmd),
  };
  const tail = (result: AuthorizationActivity['result'], declineReason?: DeclineReason) => ({
    clearedAmount: '0',
    returnedAmount: '0',
    latePresentment: false,
    activity: [
      activity({
        type: 'AUTHORIZATION',
        amount: cmd.amount.toString(),
        result,
        ...(declineReason ? { declineReason } : {}),
        createdAt: cmd.now,
      }),
    ],
    createdAt: cmd.now,
    updatedAt: cmd.now,
  });
  const authorization: CardAuthorizationRecord =
    'hold' in outcome
      ? {
          ...head,
          status: 'APPROVED',
          declineReason: null,
          ...money,
          fundingSourceId: outcome.hold.fundingSourceId,
          holdTransferId: outcome.hold.transferId,
          transferIds: [outcome.hold.transferId],
          ...tail('APPROVED'),
        }
      : {
          ...head,
          status: 'DECLINED',
          declineReason: outcome.declineReason,
          ...money,
          fundingSourceId: null,
          holdTransferId: null,
          transferIds: [],
          ...tail('DECLINED', outcome.declineReason),
        };
  return [event('CardAuthorizationRecorded', state, authorization)];
}

function decideStartClearing(cmd: CommandOf<'StartClearing'>, state: ExistingCard): CardEvent[] {
  const plan = clearingPlan(state, cmd.authorizationId, cmd.amount);
  const open = state.clearings.get(cmd.authorizationId);
  if (open) {
    // The same clearing already decided elsewhere: join it (its legs are idempotent).
    if (BigInt(open.amount) === plan.amount) return [];
    const amount = formatAmount(BigInt(open.amount), plan.authorization.currency);
    const message = `a clearing of ${amount} is in progress for authorization ${cmd.authorizationId}`;
    throw conflict('CLEARING_IN_PROGRESS', message);
  }
  const clearing = {
    authorizationId: cmd.authorizationId,
    amount: plan.amount.toString(),
    latePresentment: cmd.latePresentment,
    startedAt: cmd.now,
  };
  return [{ type: 'CardClearingStarted', data: { platformId: state.platformId, cardId: state.card.id, clearing } }];
}

function decideRecordClearing(cmd: CommandOf<'RecordClearing'>, state: ExistingCard): CardEvent[] {
  const plan = clearingPlan(state, cmd.authorizationId, cmd.amount);
  const a = plan.authorization;
  const amount = cmd.amount.toString();
  if (cmd.sequence !== undefined && cmd.sequence !== clearingsPosted(a))
    throw invalid('INVALID_INPUT', `this clearing of ${a.id} was already recorded`, 'cardTransactionId');
  if (!cmd.outcome.posted) {
    const declineReason = cmd.outcome.declineReason;
    const declined: ApprovedAuthorization = {
      ...a,
      activity: [
        ...a.activity,
        activity({ type: 'CLEARING', amount, result: 'DECLINED', declineReason, createdAt: cmd.now }),
      ],
      updatedAt: cmd.now,
    };
    return [event('CardClearingDeclined', state, declined)];
  }
  const late = cmd.outcome.latePresentment;
  const rehold = cmd.outcome.rehold;
  // The holds post oldest first; the one the clearing ends in is held again for its rest, later ones stay.
  const split = late ? undefined : clearingSplit(holdsOf(a), cmd.amount);
  if (rehold && (rehold.amount <= 0n || rehold.amount !== split?.rest))
    throw invalid('INVALID_INPUT', 'only the rest of a hold can be held again', 'amount');
  const left = [...(rehold ? [rehold] : []), ...(split?.untouched ?? [])];
  const cleared: ApprovedAuthorization = {
    ...a,
    // Still holding: more clearings may follow (the holds expire or are released as before).
    status: left.length ? 'APPROVED' : 'CLEARED',
    clearedAmount: (BigInt(a.clearedAmount) + cmd.amount).toString(),
    ...(left.length ? withHolds(a, left) : {}),
    latePresentment: a.latePresentment || late,
    transferIds: [...a.transferIds, ...cmd.outcome.transferIds, ...(rehold ? [rehold.transferId] : [])],
    activity: [
      ...a.activity,
      activity({
        type: 'CLEARING',
        amount,
        result: 'APPROVED',
        ...(late ? { latePresentment: true } : {}),
        createdAt: cmd.now,
      }),
    ],
    updatedAt: cmd.now,
  };
  return [event('CardAuthorizationCleared', state, cleared)];
}

function decideReturn(cmd: CommandOf<'RecordReturn'>, state: ExistingCard): CardEvent[] {
  // A refund whose ledger transfer (an id derived from the processor's message) is recorded already: done.
  if (state.authorizations.get(cmd.authorizationId)?.transferIds.includes(cmd.transferId)) return [];
  const plan = returnPlan(state, cmd.authorizationId, cmd.amount);
  const a = plan.authorization;
  const returned: ApprovedAuthorization = {
    ...a,
    returnedAmount: (BigInt(a.returnedAmount) + plan.amount).toString(),
    transferIds: [...a.transferIds, cmd.transferId],
    activity: [
      ...a.activity,
      activity({ type: 'RETURN', amount: plan.amount.toString(), result: 'APPROVED', createdAt: cmd.now }),
    ],
    updatedAt: cmd.now,
  };
  return [event('CardAuthorizationReturned', state, returned)];
}

function reversed(a: ApprovedAuthorization, reversalReason: ReversalReason, now: string): CardAuthorizationRecord {
  return {
    ...a,
    status: 'REVERSED',
    activity: [
      ...a.activity,
      activity({
        type: 'REVERSAL',
        amount: heldAmount(a).toString(),
        result: 'APPROVED',
        reversalReason,
        createdAt: now,
      }),
    ],
    updatedAt: now,
  };
}

/**
 * Closing a card: every authorization still holding funds ends REVERSED (the caller voids the holds),
 * except one whose clearing is in progress: that clearing takes the hold, as in-flight returns complete.
 */
export function reverseOpenAuthorizations(state: ExistingCard, now: string): CardEvent[] {
  const open = [...state.authorizations.values()].filter(
    (a): a is ApprovedAuthorization => a.status === 'APPROVED' && !state.clearings.has(a.id),
  );
  return open.map((a) => event('CardAuthorizationReversed', state, reversed(a, 'CARD_CLOSED', now)));
}

export const isInsufficientFunds = (error: unknown): boolean =>
  error instanceof DomainError && error.code === 'INSUFFICIENT_FUNDS';
