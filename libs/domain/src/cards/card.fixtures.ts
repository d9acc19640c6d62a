import { deciderSpec } from '../testing/decider-spec.js';
import { cardDecider } from './card.js';
import type { CardCommand, CardEvent, CardState, HolderAccount, RequestedCardState } from './card-types.js';

export const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';
export const CARD = 'Card:00000000-0000-4000-8000-000000000001';
export const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000002';
export const acct = (n: number) => `InternalAccount:00000000-0000-4000-8000-0000000001${n.toString().padStart(2, '0')}`;
export const USD = acct(1);
export const USD_WALLET = acct(2);
export const EUR = acct(3);
export const CLOSED_USD = acct(4);
export const holder: HolderAccount[] = [
  { id: USD, type: 'INTERNAL_FIAT', currency: 'USD', status: 'ACTIVE' },
  { id: USD_WALLET, type: 'EMBEDDED_WALLET', currency: 'USD', status: 'ACTIVE' },
  { id: EUR, type: 'INTERNAL_FIAT', currency: 'EUR', status: 'ACTIVE' },
  { id: CLOSED_USD, type: 'INTERNAL_FIAT', currency: 'USD', status: 'CLOSED' },
];
export const at = (s: number) => new Date(Date.UTC(2026, 0, 5) + s * 1000).toISOString();

export const create = (over: Partial<Extract<CardCommand, { type: 'CreateCard' }>> = {}): CardCommand => ({
  type: 'CreateCard',
  cardId: CARD,
  platformId: PLATFORM,
  customerId: CUSTOMER,
  platformCardId: 'pc-1',
  holderKycStatus: 'APPROVED',
  holderAccounts: holder,
  fundingSources: [USD, USD_WALLET],
  issuanceSeed: 'seed-1',
  sandbox: true,
  now: at(0),
  ...over,
});

const spec = deciderSpec(cardDecider);

/**
 * Given events (through the decider kit): `when` a command answers the new events (or throws),
 * `then` the history with them appended, `state` the folded state.
 */
export function given(events: CardEvent[]) {
  const when = (cmd: CardCommand) => spec.given(events).when(cmd).thenEmits();
  return { when, then: (cmd: CardCommand) => [...events, ...when(cmd)], state: () => spec.fold(events) };
}

export const created = () => given([]).then(create());
export const active = () => given(created()).then({ type: 'CompleteIssuance', now: at(5) });
export const inState = (s: CardState): CardEvent[] => {
  if (s === 'PENDING_ISSUE') return created();
  if (s === 'PENDING_KYC') return given([]).then(create({ holderKycStatus: 'PENDING' }));
  if (s === 'ACTIVE') return active();
  if (s === 'FROZEN') return given(active()).then(update({ state: 'FROZEN' }));
  return given(active()).then(update({ state: 'CLOSED' }));
};
export const update = (body: { state?: RequestedCardState; fundingSources?: string[] }): CardCommand => ({
  type: 'UpdateCard',
  ...body,
  holderAccounts: holder,
  now: at(10),
});
export const cardOf = (events: CardEvent[]) => given(events).state().card!;
