import type { Decider } from '../decider.js';
import { DomainError, conflict, notFound } from '../errors.js';
import { decideAuthorization, reverseOpenAuthorizations } from './card-authorization.js';
import { evolveCardTransactions } from './card-transaction.js';
import { requestAlreadyUsed } from '../wallet/signed-retry.js';
import { checkFundingSources, owningWalletAccount } from './card-funding.js';
import { issuedCardDetails, requestedCardDetails, sandboxIssuerRejects } from './card-issuer.js';
import type {
  CardAggregate,
  CardCommand,
  CardEvent,
  CardSnapshot,
  CardState,
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
export function requireCardChanges(changes: { state?: RequestedCardState; fundingSources?: string[] }): void {
  if (changes.state === undefined && changes.fundingSources === undefined)
    throw invalidChange('state', 'atLeastOne', 'give state and/or fundingSources');
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

function requireCard(state: CardAggregate): CardSnapshot {
  if (!state.exists || !state.card) throw notFound('CARD', state.card?.id ?? 'unknown');
  return state.card;
}

function stateChanged(state: CardAggregate, card: CardSnapshot): CardEvent {
  return {
    type: 'CardStateChanged',
    data: { platformId: state.platformId!, cardId: card.id, previousState: state.card!.state, card },
  };
}

// eslint-disable-next-line max-lines-per-function -- 99 lines, to be split
function decide(cmd: CardCommand, state: CardAggregate): CardEvent[] {
  if (cmd.type === 'CreateCard') {
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
      createdAt: cmd.now,
      updatedAt: cmd.now,
    };
    return [
      {
        type: 'CardCreated',
        data: {
          platformId: cmd.platformId,
          cardId: cmd.cardId,
          walletAccountId,
          issuanceSeed: cmd.issuanceSeed,
          sandbox: cmd.sandbox,
          card,
        },
      },
    ];
  }
  const card = requireCard(state);
  switch (cmd.type) {
    case 'ApproveHolderKyc':
      // Timers and reactions may arrive twice or late: anything but PENDING_KYC is already past this step.
      if (card.state !== 'PENDING_KYC') return [];
      return [stateChanged(state, { ...card, state: 'PENDING_ISSUE', updatedAt: cmd.now })];
    case 'CompleteIssuance': {
      if (card.state !== 'PENDING_ISSUE') return [];
      if (state.sandbox && sandboxIssuerRejects(card.platformCardId)) {
        return [
          stateChanged(state, {
            ...card,
            state: 'CLOSED',
            stateReason: 'ISSUER_REJECTED',
            fundingSources: [],
            updatedAt: cmd.now,
          }),
        ];
      }
      return [
        stateChanged(state, {
          ...card,
          ...issuedCardDetails(state.issuanceSeed!, cmd.now),
          state: 'ACTIVE',
          updatedAt: cmd.now,
        }),
      ];
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
    case 'UpdateCard':
      return decideUpdate(cmd, state, card);
    default:
      return decideAuthorization(cmd, state);
  }
}

function decideUpdate(
  cmd: Extract<CardCommand, { type: 'UpdateCard' }>,
  state: CardAggregate,
  card: CardSnapshot,
): CardEvent[] {
  // A spent request is refused before the card's state is looked at (a replay must not learn it).
  if (cmd.requestId !== undefined && state.signedRequests.has(cmd.requestId)) throw requestAlreadyUsed();
  requireCardChanges(cmd);
  // Every check runs before any event is produced, so a refused request changes nothing.
  if (cmd.state !== undefined && !ALLOWED[card.state].includes(cmd.state))
    throw invalidTransition(card.state, cmd.state);
  if (cmd.fundingSources !== undefined && card.state === 'CLOSED')
    throw invalidTransition('CLOSED', 'new funding sources');
  const events: CardEvent[] = [];
  if (cmd.requestId !== undefined) {
    const data = { platformId: state.platformId!, cardId: card.id, requestId: cmd.requestId };
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
          platformId: state.platformId!,
          cardId: card.id,
          previousFundingSources: card.fundingSources,
          card: current,
        },
      });
    }
  }
  if (cmd.state !== undefined) {
    const next: CardSnapshot =
      cmd.state === 'CLOSED'
        ? { ...current, state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [], updatedAt: cmd.now }
        : { ...current, state: cmd.state, updatedAt: cmd.now };
    events.push({
      type: 'CardStateChanged',
      data: { platformId: state.platformId!, cardId: card.id, previousState: card.state, card: next },
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
  return resource as CardResource;
}

/** Mutates in place (see Decider): every event carries the full snapshot it leaves behind. */
function evolve(state: CardAggregate, event: CardEvent): CardAggregate {
  switch (event.type) {
    case 'CardCreated':
      return {
        ...state,
        exists: true,
        platformId: event.data.platformId,
        sandbox: event.data.sandbox,
        walletAccountId: event.data.walletAccountId,
        issuanceSeed: event.data.issuanceSeed,
        card: event.data.card,
      };
    case 'CardStateChanged':
    case 'CardFundingSourcesChanged':
      state.card = event.data.card;
      return state;
    case 'ResourceAbandoned':
      state.abandoned = true;
      return state;
    case 'SignedRequestApplied':
      state.signedRequests.add(event.data.requestId);
      return state;
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
      return state;
  }
}

export const cardDecider: Decider<CardAggregate, CardCommand, CardEvent> = { initialState, evolve, decide };
