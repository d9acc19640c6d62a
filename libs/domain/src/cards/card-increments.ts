import { conflict, invalid } from '../errors.js';
import { formatAmount } from '../primitives.js';
import { heldAmount, requireApproved } from './card-authorization.js';
import { holdsOf, reversalSplit, withHolds } from './card-holds.js';
import type { AuthorizationDecision } from './card-decision.js';
import { cardSpendingDecline, type SpendingControls } from './card-spending.js';
import type {
  ApprovedAuthorization,
  AuthorizationActivity,
  CardEvent,
  CardHoldCommand,
  DeclineReason,
  ExistingCard,
} from './card-types.js';

/**
 * Incremental authorizations and partial reversals of an approved authorization (a card processor's follow-up
 * messages). An increment approved adds a hold (a second pending transfer on the same funding source) and grows the
 * authorized amount, and counts towards the spending controls' daily and monthly limits; one declined is recorded in
 * the activity and changes nothing else. The controls are checked again here, on the stream as the append finds it:
 * an increment that concurrent approvals pushed past a limit is declined with the control's reason (the caller
 * releases its hold). A partial reversal releases
 * part of what is held, from the newest hold back. Each applies once per network transaction id.
 */
type CommandOf<T extends CardHoldCommand['type']> = Extract<CardHoldCommand, { type: T }>;

/** The activity entry a network message with this id left on the authorization, if any. */
export const activityOf = (a: { activity: AuthorizationActivity[] }, networkTransactionId: string) =>
  a.activity.find((x) => x.networkTransactionId === networkTransactionId);

/**
 * The authorization an increment or partial reversal applies to: approved and holding funds, with no clearing in
 * progress; anything else is refused (nothing is recorded).
 */
export function requireHolding(state: ExistingCard, authorizationId: string): ApprovedAuthorization {
  const a = requireApproved(state, authorizationId);
  if (a.status !== 'APPROVED')
    throw invalid('INVALID_INPUT', `authorization ${a.id} is ${a.status}; it holds nothing`, 'cardTransactionId');
  if (state.clearings.has(a.id)) throw conflict('CLEARING_IN_PROGRESS', `a clearing of ${a.id} is in progress`);
  return a;
}

export function decideHoldChange(cmd: CardHoldCommand, state: ExistingCard): CardEvent[] {
  const recorded = state.authorizations.get(cmd.authorizationId);
  if (recorded && activityOf(recorded, cmd.networkTransactionId)) return [];
  if (cmd.amount <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
  const a = requireHolding(state, cmd.authorizationId);
  return cmd.type === 'RecordIncrement' ? decideIncrement(cmd, a, state) : decidePartialReversal(cmd, a, state);
}

/** The spending controls' verdict on an increment of `a`: its merchant, the authorization's total, the card's usage. */
export function incrementSpendingDecline(
  state: ExistingCard,
  a: ApprovedAuthorization,
  increment: { amount: bigint; now: string; defaultSpendingControls?: SpendingControls | null },
) {
  return cardSpendingDecline(state, { ...increment, merchant: a.merchant, authorized: BigInt(a.amount) });
}

function decideIncrement(cmd: CommandOf<'RecordIncrement'>, a: ApprovedAuthorization, state: ExistingCard) {
  const { networkTransactionId, now } = cmd;
  const amount = cmd.amount.toString();
  // An outcome taken outside the rules (the stand-in's) is recorded as taken.
  const spending =
    cmd.hold && cmd.decision?.decidedBy !== 'STAND_IN' ? incrementSpendingDecline(state, a, cmd) : undefined;
  if (!cmd.hold || spending) {
    const declineReason = spending ?? cmd.declineReason ?? 'INSUFFICIENT_FUNDS';
    const entry = { type: 'INCREMENT' as const, amount, result: 'DECLINED' as const, declineReason };
    const declined = { ...a, activity: [...a.activity, { ...entry, networkTransactionId, createdAt: now }] };
    return [event('CardIncrementDeclined', state, { ...declined, updatedAt: now })];
  }
  const hold = { transferId: cmd.hold.transferId, amount: cmd.amount };
  const incremented: ApprovedAuthorization = {
    ...a,
    amount: (BigInt(a.amount) + cmd.amount).toString(),
    ...withHolds(a, [...holdsOf(a), hold]),
    transferIds: [...a.transferIds, hold.transferId],
    activity: [...a.activity, { type: 'INCREMENT', amount, result: 'APPROVED', networkTransactionId, createdAt: now }],
    updatedAt: now,
  };
  return [event('CardAuthorizationIncremented', state, incremented)];
}

function decidePartialReversal(cmd: CommandOf<'RecordPartialReversal'>, a: ApprovedAuthorization, state: ExistingCard) {
  const held = heldAmount(a);
  if (cmd.amount >= held)
    throw invalid(
      'INVALID_AMOUNT',
      `a partial reversal releases less than the held ${formatAmount(held, a.currency)}`,
      'amount',
    );
  const split = reversalSplit(holdsOf(a), cmd.amount);
  const { rehold } = cmd;
  if (rehold && rehold.amount !== split.rest)
    throw invalid('INVALID_INPUT', 'only the rest of the hold a reversal cuts into can be held again', 'amount');
  const left = [...split.kept, ...(rehold ? [rehold] : [])];
  const released = held - left.reduce((sum, h) => sum + h.amount, 0n);
  const entry: AuthorizationActivity = {
    type: 'REVERSAL',
    amount: released.toString(),
    result: 'APPROVED',
    reversalReason: 'NETWORK_REVERSAL',
    networkTransactionId: cmd.networkTransactionId,
    createdAt: cmd.now,
  };
  const reversed: ApprovedAuthorization = {
    ...a,
    // The funding source spent the rest meanwhile (nothing left to hold again): the whole hold is released.
    status: left.length ? 'APPROVED' : 'REVERSED',
    ...(left.length ? withHolds(a, left) : {}),
    transferIds: [...a.transferIds, ...(rehold ? [rehold.transferId] : [])],
    activity: [...a.activity, entry],
    updatedAt: cmd.now,
  };
  return [event('CardAuthorizationPartiallyReversed', state, reversed)];
}

type HoldEvent = 'CardAuthorizationIncremented' | 'CardIncrementDeclined' | 'CardAuthorizationPartiallyReversed';

const event = (type: HoldEvent, state: ExistingCard, authorization: ApprovedAuthorization): CardEvent => ({
  type,
  data: { platformId: state.platformId, cardId: state.card.id, authorization },
});

/**
 * Before an increment is decided: the authorization as it recorded this increment already (a replay), or undefined
 * when it is still to be decided; an authorization that holds nothing (cleared, reversed, declined) is refused.
 */
export function recordedIncrement(
  state: ExistingCard,
  authorizationId: string,
  networkTransactionId: string,
): ApprovedAuthorization | undefined {
  const a = state.authorizations.get(authorizationId);
  if (a && a.status !== 'DECLINED' && activityOf(a, networkTransactionId)) return a;
  requireHolding(state, authorizationId);
  return undefined;
}

/** The outcome of an increment's decision as the card stream records it. */
export function incrementCommand(
  request: { authorizationId: string; amount: bigint },
  networkTransactionId: string,
  outcome: {
    hold?: { transferId: string };
    declineReason?: DeclineReason;
    defaultSpendingControls?: SpendingControls | null;
    decision?: AuthorizationDecision;
  },
  now: string,
): CardHoldCommand {
  const { authorizationId, amount } = request;
  const result = outcome.hold
    ? { hold: { transferId: outcome.hold.transferId } }
    : { declineReason: outcome.declineReason ?? 'INSUFFICIENT_FUNDS' };
  const { defaultSpendingControls: controls, decision } = outcome;
  const extra = {
    ...(controls !== undefined ? { defaultSpendingControls: controls } : {}),
    ...(decision ? { decision } : {}),
  };
  return { type: 'RecordIncrement', authorizationId, networkTransactionId, amount, ...result, ...extra, now };
}
