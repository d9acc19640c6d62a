import { plantedFaults } from '../planted-faults.js';
import { unreachable, type Decider } from '../decider.js';
import { DomainError, conflict, notFound } from '../errors.js';
import { decideAuthorization, reverseOpenAuthorizations } from './card-authorization.js';
import { decideHoldChange } from './card-increments.js';
import { evolveCardTransactions } from './card-transaction.js';
import { requestAlreadyUsed } from '../wallet/signed-retry.js';
import { checkFundingSources, owningWalletAccount } from './card-funding.js';
import { issuedCardDetails, requestedCardDetails, sandboxIssuerRejects } from './card-issuer.js';
import { addSpend, checkSpendingControls, type SpendingControls } from './card-spending.js';
import type {
  CardAggregate,
  CardAuthorizationRecord,
  CardCommand,
  CardEvent,
  CardSnapshot,
  CardState,
  ExistingCard,
  RequestedCardState,
} from './card-types.js';

/**
 * The card lifecycle:
 * - created PENDING_KYC while the holder's KYC is PENDING (REJECTED holders get no card), otherwise
 *   PENDING_ISSUE; PENDING_KYC moves to PENDING_ISSUE when the holder is approved;
 * - PENDING_ISSUE ends when the issuer answers: ACTIVE, or CLOSED with ISSUER_REJECTED;
 * - a platform moves ACTIVE <-> FROZEN and ACTIVE/FROZEN -> CLOSED (CLOSED_BY_PLATFORM, bindings
 *   detached, open authorizations reversed); CLOSED is terminal; any other request is a 409;
 * - the service closes every open card of a deleted holder (CLOSED_BY_SERVICE).
 */
const ALLOWED: Record<CardState, RequestedCardState[]> = {
  PENDING_KYC: [],
  PENDING_ISSUE: [],
  ACTIVE: ['FROZEN', 'CLOSED'],
  FROZEN: ['ACTIVE', 'CLOSED'],
  CLOSED: [],
};

/** A refused change request, as the API answers it: 400 INVALID_INPUT naming the field and the rule. */
const invalidChange = (field: string, constraint: string, message: string) =>
  new DomainError('invalid', 'INVALID_INPUT', 'the request is not valid', { errors: [{ field, constraint, message }] });

/**
 * The rules of a change request whatever the card's state, checked before anything else (a request that breaks them
 * is refused before its card is looked at or a challenge issued): it changes the state and/or the funding sources,
 * and the request that closes a card does not bind funding sources.
 */
export function requireCardChanges(changes: {
  state?: RequestedCardState;
  fundingSources?: string[];
  spendingControls?: SpendingControls | null;
}): void {
  if (changes.state === undefined && changes.fundingSources === undefined && changes.spendingControls === undefined)
    throw invalidChange('state', 'atLeastOne', 'give state, fundingSources and/or spendingControls');
  if (changes.spendingControls !== undefined) checkSpendingControls(changes.spendingControls, 'spendingControls');
  if (changes.state === 'CLOSED' && changes.fundingSources !== undefined)
    throw invalidChange('fundingSources', 'notWithClosed', 'fundingSources cannot accompany state CLOSED');
}

export const invalidTransition = (from: CardState, to: string) =>
  conflict(
    'INVALID_STATE_TRANSITION',
    `a ${from} card cannot move to ${to}; allowed: ACTIVE <-> FROZEN and ACTIVE/FROZEN -> CLOSED`,
  );

const initialState = (): CardAggregate => ({
  exists: false,
  sandbox: false,
  authorizations: new Map(),
  transactions: new Map(),
  signedRequests: new Set(),
  clearings: new Map(),
});

/** The card the stream holds, or not found. */
export function requireCard(state: CardAggregate): ExistingCard {
  if (!state.exists) throw notFound('CARD', 'unknown');
  return state;
}

function stateChanged(state: ExistingCard, card: CardSnapshot): CardEvent {
  return {
    type: 'CardStateChanged',
    data: { platformId: state.platformId, cardId: card.id, previousState: state.card.state, card },
  };
}

function decide(cmd: CardCommand, state: CardAggregate): CardEvent[] {
  if (cmd.type === 'CreateCard') return decideCreate(cmd, state);
  const existing = requireCard(state);
  switch (cmd.type) {
    case 'ApproveHolderKyc':
    case 'CompleteIssuance':
    case 'CloseCardByService':
      return decideLifecycle(cmd, existing);
    case 'UpdateCard':
      return decideUpdate(cmd, existing);
    case 'RecordIncrement':
    case 'RecordPartialReversal':
      return decideHoldChange(cmd, existing);
    default:
      return decideAuthorization(cmd, existing);
  }
}

type CommandOf<T extends CardCommand['type']> = Extract<CardCommand, { type: T }>;

function decideCreate(cmd: CommandOf<'CreateCard'>, state: CardAggregate): CardEvent[] {
  if (state.exists || state.abandoned) throw conflict('CARD_EXISTS', `card ${cmd.cardId} already exists`);
  if (cmd.holderKycStatus !== 'APPROVED' && cmd.holderKycStatus !== 'PENDING') {
    throw new DomainError(
      'invalid',
      'CARDHOLDER_KYC_NOT_APPROVED',
      `the cardholder's KYC is ${cmd.holderKycStatus}; a card needs an approved (or pending) holder`,
      {
        errors: [
          {
            field: 'customerId',
            constraint: 'CARDHOLDER_KYC_NOT_APPROVED',
            message: `kycStatus is ${cmd.holderKycStatus}`,
          },
        ],
      },
    );
  }
  const currency = checkFundingSources(cmd.fundingSources, cmd.holderAccounts);
  const spendingControls = checkSpendingControls(cmd.spendingControls, 'spendingControls');
  const walletAccountId = owningWalletAccount(cmd.holderAccounts, currency);
  const { issuerRef, brand } = requestedCardDetails(cmd.issuanceSeed);
  const card: CardSnapshot = {
    id: cmd.cardId,
    customerId: cmd.customerId,
    state: cmd.holderKycStatus === 'APPROVED' ? 'PENDING_ISSUE' : 'PENDING_KYC',
    stateReason: null,
    form: 'VIRTUAL',
    fundingSources: [...cmd.fundingSources],
    platformCardId: cmd.platformCardId,
    brand,
    last4: null,
    expMonth: null,
    expYear: null,
    panEmbedUrl: null,
    currency,
    issuerRef,
    ...(spendingControls ? { spendingControls } : {}),
    createdAt: cmd.now,
    updatedAt: cmd.now,
  };
  const { platformId, cardId, issuanceSeed, sandbox } = cmd;
  return [{ type: 'CardCreated', data: { platformId, cardId, walletAccountId, issuanceSeed, sandbox, card } }];
}

/** The service's steps of the card's life: issuance after KYC, the issuer's answer, closing for a deleted holder. */
function decideLifecycle(
  cmd: CommandOf<'ApproveHolderKyc' | 'CompleteIssuance' | 'CloseCardByService'>,
  state: ExistingCard,
): CardEvent[] {
  const { card } = state;
  switch (cmd.type) {
    case 'ApproveHolderKyc':
      // Timers and reactions may arrive twice or late: anything but PENDING_KYC is already past this step.
      if (card.state !== 'PENDING_KYC') return [];
      return [stateChanged(state, { ...card, state: 'PENDING_ISSUE', updatedAt: cmd.now })];
    case 'CompleteIssuance': {
      if (card.state !== 'PENDING_ISSUE') return [];
      if (state.sandbox && sandboxIssuerRejects(card.platformCardId)) {
        const rejected = { stateReason: 'ISSUER_REJECTED' as const, fundingSources: [], updatedAt: cmd.now };
        return [stateChanged(state, { ...card, state: 'CLOSED', ...rejected })];
      }
      const issued = issuedCardDetails(state.issuanceSeed, cmd.now);
      return [stateChanged(state, { ...card, ...issued, state: 'ACTIVE', updatedAt: cmd.now })];
    }
    case 'CloseCardByService': {
      if (card.state === 'CLOSED') return [];
      const closed: CardSnapshot = {
        ...card,
        state: 'CLOSED',
        stateReason: 'CLOSED_BY_SERVICE',
        fundingSources: [],
        updatedAt: cmd.now,
      };
      return [stateChanged(state, closed), ...reverseOpenAuthorizations(state, cmd.now)];
    }
    default:
      return unreachable(cmd);
  }
}

function decideUpdate(cmd: CommandOf<'UpdateCard'>, state: ExistingCard): CardEvent[] {
  const { card, platformId } = state;
  // A spent request is refused before the card's state is looked at (a replay must not learn it).
  if (cmd.requestId !== undefined && state.signedRequests.has(cmd.requestId)) throw requestAlreadyUsed();
  requireCardChanges(cmd);
  // Every check runs before any event is produced, so a refused request changes nothing.
  const allowed = plantedFaults.reopenClosedCard && card.state === 'CLOSED' ? ['ACTIVE'] : ALLOWED[card.state];
  if (cmd.state !== undefined && !allowed.includes(cmd.state)) throw invalidTransition(card.state, cmd.state);
  if (cmd.fundingSources !== undefined && card.state === 'CLOSED')
    throw invalidTransition('CLOSED', 'new funding sources');
  if (cmd.spendingControls !== undefined && card.state === 'CLOSED')
    throw invalidTransition('CLOSED', 'new spending controls');
  const events: CardEvent[] = [];
  if (cmd.requestId !== undefined) {
    const data = { platformId, cardId: card.id, requestId: cmd.requestId };
    events.push({ type: 'SignedRequestApplied', data });
  }
  let current = card;
  if (cmd.fundingSources !== undefined) {
    checkFundingSources(cmd.fundingSources, cmd.holderAccounts, card.currency);
    const same =
      cmd.fundingSources.length === card.fundingSources.length &&
      cmd.fundingSources.every((id, i) => id === card.fundingSources[i]);
    if (!same) {
      current = { ...current, fundingSources: [...cmd.fundingSources], updatedAt: cmd.now };
      events.push({
        type: 'CardFundingSourcesChanged',
        data: {
          platformId,
          cardId: card.id,
          previousFundingSources: card.fundingSources,
          card: current,
        },
      });
    }
  }
  if (cmd.spendingControls !== undefined) {
    const controls = checkSpendingControls(cmd.spendingControls, 'spendingControls');
    const previous = current.spendingControls ?? null;
    if (JSON.stringify(controls) !== JSON.stringify(previous)) {
      current = { ...current, spendingControls: controls, updatedAt: cmd.now };
      const data = { platformId, cardId: card.id, previousSpendingControls: previous, card: current };
      events.push({ type: 'CardSpendingControlsChanged', data });
    }
  }
  if (cmd.state !== undefined) {
    const next: CardSnapshot =
      cmd.state === 'CLOSED'
        ? { ...current, state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [], updatedAt: cmd.now }
        : { ...current, state: cmd.state, updatedAt: cmd.now };
    events.push({
      type: 'CardStateChanged',
      data: { platformId, cardId: card.id, previousState: card.state, card: next },
    });
    if (cmd.state === 'CLOSED') events.push(...reverseOpenAuthorizations(state, cmd.now));
  }
  return events;
}

type IssuedField = 'last4' | 'expMonth' | 'expYear' | 'panEmbedUrl';
const ISSUED_FIELDS: IssuedField[] = ['last4', 'expMonth', 'expYear', 'panEmbedUrl'];

/** The Card resource as the API and webhooks show it: the issuer's details are absent (not null) until issued. */
export type CardResource = Omit<CardSnapshot, IssuedField> & {
  [K in IssuedField]?: NonNullable<CardSnapshot[K]>;
};

export function toCardResource(card: CardSnapshot): CardResource {
  const resource: Record<string, unknown> = { ...card };
  for (const field of ISSUED_FIELDS) if (resource[field] === null) delete resource[field];
  // The card's own spending controls, absent while it has none (the platform's default applies then).
  if (!card.spendingControls) delete resource.spendingControls;
  return resource as CardResource;
}

/**
 * Every card event carries the full snapshot it leaves behind. The card and its signed requests are new values after
 * each event; the authorizations, transactions and clearings (a card's whole history of them) are updated in place
 * (see Decider), as copying them for every event would make folding a card's stream quadratic.
 */
function evolve(state: CardAggregate, event: CardEvent): CardAggregate {
  switch (event.type) {
    case 'CardCreated': {
      const { platformId, sandbox, walletAccountId, issuanceSeed, card } = event.data;
      return { ...state, exists: true, platformId, sandbox, walletAccountId, issuanceSeed, card };
    }
    case 'CardStateChanged':
    case 'CardFundingSourcesChanged':
    case 'CardSpendingControlsChanged':
      return state.exists ? { ...state, card: event.data.card } : state;
    case 'ResourceAbandoned':
      return { ...state, abandoned: true };
    case 'SignedRequestApplied':
      return { ...state, signedRequests: new Set(state.signedRequests).add(event.data.requestId) };
    case 'CardClearingStarted':
      state.clearings.set(event.data.clearing.authorizationId, event.data.clearing);
      return state;
    default:
      state.authorizations.set(event.data.authorization.id, event.data.authorization);
      evolveCardTransactions(state.transactions, event);
      // A clearing's outcome (posted or declined) ends its intent.
      if (event.type === 'CardAuthorizationCleared' || event.type === 'CardClearingDeclined') {
        state.clearings.delete(event.data.authorization.id);
      }
      if (event.type === 'CardAuthorizationIncremented') return countIncrement(state, event.data.authorization);
      return event.type === 'CardAuthorizationRecorded' ? countSpend(state, event.data.authorization) : state;
  }
}

/** An approved authorization counts towards the spending controls' daily and monthly limits. */
function countSpend(state: CardAggregate, a: CardAuthorizationRecord): CardAggregate {
  if (a.status === 'DECLINED') return state;
  return { ...state, spendUsage: addSpend(state.spendUsage, BigInt(a.amount), a.createdAt) } as CardAggregate;
}

/** So does an approved increment (the authorization's last activity), on the day it was approved. */
function countIncrement(state: CardAggregate, a: CardAuthorizationRecord): CardAggregate {
  const increment = a.activity.at(-1);
  if (increment?.type !== 'INCREMENT' || increment.result !== 'APPROVED') return state;
  const spendUsage = addSpend(state.spendUsage, BigInt(increment.amount), increment.createdAt);
  return { ...state, spendUsage } as CardAggregate;
}

export const cardDecider: Decider<CardAggregate, CardCommand, CardEvent> = { initialState, evolve, decide };
