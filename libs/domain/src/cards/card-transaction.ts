import { invalid } from '../errors.js';
import { currency, type Currency, formatAmount, publicId, toJsonNumber } from '../primitives.js';
import { uuidFromName } from '../webhooks/webhook-ids.js';
import type {
  ApprovedAuthorization,
  CardAuthorizationRecord,
  CardEvent,
  CardTransactionState,
  Tally,
} from './card-types.js';

export type { CardTransactionState, Tally } from './card-types.js';

/**
 * The CardTransaction: the public API's parent row of an approved authorization and of every pull,
 * clearing and return that reconciles against it, folded from the card stream's authorization events.
 * A declined authorization moved no money and is no transaction (it stays in the card's history).
 * Amounts are bigint here, JSON integers in the resource.
 */
export type CardTransactionStatus = 'AUTHORIZED' | 'PARTIALLY_SETTLED' | 'SETTLED' | 'REFUNDED' | 'EXCEPTION';
export const CARD_TRANSACTION_STATUSES: readonly CardTransactionStatus[] = [
  'AUTHORIZED',
  'PARTIALLY_SETTLED',
  'SETTLED',
  'REFUNDED',
  'EXCEPTION',
];

/** `CardTransaction:<uuid>` shares its uuid with the authorization it was opened by. */
const uuidPart = (id: string) => id.slice(id.indexOf(':') + 1);
export const cardTransactionIdOf = (authorizationId: string) => publicId('CardTransaction', uuidPart(authorizationId));
export const authorizationIdOf = (cardTransactionId: string) =>
  publicId('CardAuthorization', uuidPart(cardTransactionId));

/** The issuer's reference of the transaction (opaque; derived, so every process names it alike). */
export const issuerTransactionToken = (authorizationId: string) =>
  `sbx_txn_${uuidFromName(`card-issuer-transaction:${authorizationId}`).replace(/-/g, '').slice(0, 20)}`;

export function cardTransactionStatus(t: CardTransactionState): CardTransactionStatus {
  if (t.exception) return 'EXCEPTION';
  if (t.held > 0n) return t.settlements.count > 0 ? 'PARTIALLY_SETTLED' : 'AUTHORIZED';
  if (t.refunds.count > 0 && t.refunds.total >= t.settlements.total) return 'REFUNDED';
  return 'SETTLED';
}

const last = (a: CardAuthorizationRecord) => a.activity[a.activity.length - 1]!;
const tally = (t: Tally, amount: bigint): Tally => ({ count: t.count + 1, total: t.total + amount });

function opened(a: ApprovedAuthorization): CardTransactionState {
  const amount = BigInt(a.amount);
  return {
    id: cardTransactionIdOf(a.id),
    authorizationId: a.id,
    cardId: a.cardId,
    customerId: a.customerId,
    accountId: a.fundingSourceId,
    currency: a.currency,
    merchant: a.merchant,
    authorizedAmount: amount,
    held: amount,
    // Approval is the first pull: the hold on the funding source.
    pulls: { count: 1, total: amount },
    settlements: { count: 0, total: 0n },
    refunds: { count: 0, total: 0n },
    exception: false,
    released: false,
    authorizedAt: a.createdAt,
    ...(a.decision ? { decision: a.decision } : {}),
    updatedAt: a.createdAt,
  };
}

/**
 * One authorization event applied to its transaction (undefined: not a transaction, or not yet one).
 * Each event carries the authorization as it left it, newest activity entry last.
 */
export function evolveCardTransaction(
  t: CardTransactionState | undefined,
  event: CardEvent,
): CardTransactionState | undefined {
  if (!('authorization' in event.data)) return t;
  const a = event.data.authorization;
  const at = a.updatedAt;
  switch (event.type) {
    case 'CardAuthorizationRecorded':
      return a.status === 'APPROVED' ? opened(a) : undefined;
    case 'CardAuthorizationCleared': {
      if (!t) return t;
      const entry = last(a);
      const cleared = BigInt(entry.amount);
      // Still APPROVED: a partial clearing posted and the rest is held again (the pull stands whole).
      const held = a.status === 'APPROVED' ? BigInt(a.heldAmount ?? '0') : 0n;
      // Within the hold the pull shrinks to what posted (the rest is released); above it, the
      // difference is a second, post-hoc pull; a late presentment (hold already released) is a new pull.
      let pulls = t.pulls;
      if (entry.latePresentment) pulls = tally(pulls, cleared);
      else if (cleared > t.held) pulls = tally(pulls, cleared - t.held);
      else pulls = { ...pulls, total: pulls.total - (t.held - cleared - held) };
      const settlements = tally(t.settlements, cleared);
      const next = { ...t, held, pulls, settlements, exception: false, released: false };
      return { ...next, lastEventAt: at, updatedAt: at };
    }
    case 'CardAuthorizationIncremented': {
      // The increment's hold is one more pull on the funding source, while it holds.
      if (!t) return t;
      const held = BigInt(a.heldAmount ?? a.amount);
      const pulls = { ...t.pulls, total: t.pulls.total + held - t.held };
      return { ...t, authorizedAmount: BigInt(a.amount), held, pulls, lastEventAt: at, updatedAt: at };
    }
    case 'CardAuthorizationPartiallyReversed': {
      // Part of the holds released (all of them when the rest could not be held again).
      if (!t) return t;
      const held = a.status === 'APPROVED' ? BigInt(a.heldAmount ?? a.amount) : 0n;
      const pulls = { ...t.pulls, total: t.pulls.total - (t.held - held) };
      return { ...t, held, pulls, released: held === 0n, lastEventAt: at, updatedAt: at };
    }
    case 'CardIncrementDeclined':
      return t && { ...t, lastEventAt: at, updatedAt: at };
    case 'CardClearingDeclined':
      return t && { ...t, exception: true, lastEventAt: at, updatedAt: at };
    case 'CardAuthorizationReturned':
      return t && { ...t, refunds: tally(t.refunds, BigInt(last(a).amount)), lastEventAt: at, updatedAt: at };
    case 'CardAuthorizationReversed': {
      // Expired or the card closed: the hold is released, nothing was pulled in the end. A pull reported
      // failed after the approval releases it too, but the network approved: an EXCEPTION.
      if (!t) return t;
      const pulls = { ...t.pulls, total: t.pulls.total - t.held };
      const exception = t.exception || last(a).reversalReason === 'PULL_FAILED';
      return { ...t, held: 0n, pulls, released: true, exception, lastEventAt: at, updatedAt: at };
    }
  }
  return t;
}

/** Folds a card stream's events into its transactions, by transaction id. */
export function evolveCardTransactions(
  transactions: Map<string, CardTransactionState>,
  event: CardEvent,
): Map<string, CardTransactionState> {
  if (!('authorization' in event.data)) return transactions;
  const id = cardTransactionIdOf(event.data.authorization.id);
  const next = evolveCardTransaction(transactions.get(id), event);
  if (next) transactions.set(id, next);
  return transactions;
}

/**
 * What the network may do next, as the public API states it: a clearing needs an AUTHORIZED or
 * PARTIALLY_SETTLED transaction (or one in EXCEPTION, whose clearing is presented again); a return
 * needs a settled clearing and at most the net settled amount.
 */
export function checkClearing(t: CardTransactionState): void {
  const status = cardTransactionStatus(t);
  if (status === 'AUTHORIZED' || status === 'PARTIALLY_SETTLED' || status === 'EXCEPTION') return;
  if (t.released) return; // the hold was released: a late presentment
  throw stateError(`card transaction ${t.id} is ${status}; clearings need AUTHORIZED or PARTIALLY_SETTLED`);
}

/** A clearing of 0 lets a held authorization expire; once nothing is held there is nothing to let go. */
export function checkExpiry(t: CardTransactionState): void {
  if (t.held === 0n) throw stateError(`card transaction ${t.id} holds nothing; it is ${cardTransactionStatus(t)}`);
}

export function checkReturn(t: CardTransactionState, amount: bigint): void {
  if (t.settlements.count === 0)
    throw stateError(`card transaction ${t.id} has no settled clearing; only settled amounts can be returned`);
  const net = t.settlements.total - t.refunds.total;
  if (net === 0n) throw stateError(`card transaction ${t.id} was already refunded in full`);
  if (amount > net)
    throw invalid(
      'INVALID_AMOUNT',
      `at most ${formatAmount(net, t.currency)} of the net settled amount is left to return`,
      'amount',
    );
}

const stateError = (message: string) => invalid('INVALID_INPUT', message, 'cardTransactionId');

export interface CurrencyAmount {
  amount: number;
  currency: Currency;
}

/** The CardTransaction resource as the API returns it. */
export function toCardTransaction(t: CardTransactionState): Record<string, unknown> {
  const money = (amount: bigint): CurrencyAmount => ({ amount: toJsonNumber(amount), currency: currency(t.currency) });
  const summary = (s: Tally) => ({ count: s.count, totalAmount: toJsonNumber(s.total) });
  return {
    id: t.id,
    cardId: t.cardId,
    customerId: t.customerId,
    issuerTransactionToken: issuerTransactionToken(t.authorizationId),
    status: cardTransactionStatus(t),
    merchant: t.merchant,
    authorizedAmount: money(t.authorizedAmount),
    settledAmount: money(t.settlements.total),
    refundedAmount: money(t.refunds.total),
    accountId: t.accountId,
    pullSummary: { ...summary(t.pulls), pendingCount: 0 },
    refundSummary: summary(t.refunds),
    settlementSummary: summary(t.settlements),
    authorizedAt: t.authorizedAt,
    ...(t.lastEventAt ? { lastEventAt: t.lastEventAt } : {}),
    ...(t.decision ? { decision: t.decision } : {}),
    createdAt: t.authorizedAt,
    updatedAt: t.updatedAt,
  };
}

/** A JSON form of the state (bigints as decimal strings) for read models, and back. */
export function encodeCardTransaction(t: CardTransactionState): Record<string, unknown> {
  const tallyJson = (s: Tally) => ({ count: s.count, total: s.total.toString() });
  return {
    ...t,
    authorizedAmount: t.authorizedAmount.toString(),
    held: t.held.toString(),
    pulls: tallyJson(t.pulls),
    settlements: tallyJson(t.settlements),
    refunds: tallyJson(t.refunds),
  };
}

type Encoded = Omit<CardTransactionState, 'authorizedAmount' | 'held' | 'pulls' | 'settlements' | 'refunds'> &
  Record<'authorizedAmount' | 'held', string> &
  Record<'pulls' | 'settlements' | 'refunds', { count: number; total: string }>;

export function decodeCardTransaction(doc: Record<string, unknown>): CardTransactionState {
  const d = doc as unknown as Encoded;
  const tallyOf = (s: { count: number; total: string }): Tally => ({ count: s.count, total: BigInt(s.total) });
  return {
    id: d.id,
    authorizationId: d.authorizationId,
    cardId: d.cardId,
    customerId: d.customerId,
    accountId: d.accountId,
    currency: d.currency,
    merchant: d.merchant,
    authorizedAmount: BigInt(d.authorizedAmount),
    held: BigInt(d.held),
    pulls: tallyOf(d.pulls),
    settlements: tallyOf(d.settlements),
    refunds: tallyOf(d.refunds),
    exception: d.exception,
    released: d.released ?? false,
    authorizedAt: d.authorizedAt,
    ...(d.lastEventAt ? { lastEventAt: d.lastEventAt } : {}),
    ...(d.decision ? { decision: d.decision } : {}),
    updatedAt: d.updatedAt,
  };
}
