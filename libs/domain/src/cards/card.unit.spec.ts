import { describe, expect, it } from '@jest/globals';
import { cardDecider } from './card.js';
import {
  clearingPlan,
  clearingTransferId,
  returnPlan,
  screenAuthorization,
  toCardAuthorization,
} from './card-authorization.js';
import type { CardCommand, CardEvent, CardState, HolderAccount, RequestedCardState } from './card-types.js';

const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';
const CARD = 'Card:00000000-0000-4000-8000-000000000001';
const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000002';
const acct = (n: number) => `InternalAccount:00000000-0000-4000-8000-0000000001${n.toString().padStart(2, '0')}`;
const USD = acct(1);
const USD_WALLET = acct(2);
const EUR = acct(3);
const CLOSED_USD = acct(4);
const holder: HolderAccount[] = [
  { id: USD, type: 'INTERNAL_FIAT', currency: 'USD', status: 'ACTIVE' },
  { id: USD_WALLET, type: 'EMBEDDED_WALLET', currency: 'USD', status: 'ACTIVE' },
  { id: EUR, type: 'INTERNAL_FIAT', currency: 'EUR', status: 'ACTIVE' },
  { id: CLOSED_USD, type: 'INTERNAL_FIAT', currency: 'USD', status: 'CLOSED' },
];
const at = (s: number) => new Date(Date.UTC(2026, 0, 5) + s * 1000).toISOString();

const create = (over: Partial<Extract<CardCommand, { type: 'CreateCard' }>> = {}): CardCommand => ({
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

/** Given events, when a command: the new events (or the thrown error). */
function given(events: CardEvent[]) {
  const state = () => events.reduce(cardDecider.evolve, cardDecider.initialState());
  return {
    when: (cmd: CardCommand) => cardDecider.decide(cmd, state()),
    then: (cmd: CardCommand) => [...events, ...cardDecider.decide(cmd, state())],
    state,
  };
}

const created = () => given([]).then(create());
const active = () => given(created()).then({ type: 'CompleteIssuance', now: at(5) });
const inState = (s: CardState): CardEvent[] => {
  if (s === 'PENDING_ISSUE') return created();
  if (s === 'PENDING_KYC') return given([]).then(create({ holderKycStatus: 'PENDING' }));
  if (s === 'ACTIVE') return active();
  if (s === 'FROZEN') return given(active()).then(update({ state: 'FROZEN' }));
  return given(active()).then(update({ state: 'CLOSED' }));
};
const update = (body: { state?: RequestedCardState; fundingSources?: string[] }): CardCommand => ({
  type: 'UpdateCard',
  ...body,
  holderAccounts: holder,
  now: at(10),
});
const cardOf = (events: CardEvent[]) => given(events).state().card!;

describe('card lifecycle (decider)', () => {
  it(
    'starts PENDING_ISSUE for an approved holder with currency from the funding sources and the ' +
      'wallet account recorded',
    () => {
      const [e] = created();
      expect(e.type).toBe('CardCreated');
      const s = given(created()).state();
      expect(s.card).toMatchObject({
        state: 'PENDING_ISSUE',
        stateReason: null,
        form: 'VIRTUAL',
        currency: 'USD',
        fundingSources: [USD, USD_WALLET],
        last4: null,
        panEmbedUrl: null,
      });
      expect(['VISA', 'MASTERCARD']).toContain(s.card!.brand);
      expect(s.walletAccountId).toBe(USD_WALLET);
    },
  );

  it('starts PENDING_KYC for a pending holder and refuses a rejected one', () => {
    expect(cardOf(inState('PENDING_KYC')).state).toBe('PENDING_KYC');
    expect(() => given([]).when(create({ holderKycStatus: 'REJECTED' }))).toThrow(
      expect.objectContaining({ code: 'CARDHOLDER_KYC_NOT_APPROVED', kind: 'invalid' }) as never,
    );
  });

  it('moves PENDING_KYC -> PENDING_ISSUE on approval, once', () => {
    const approved = given(inState('PENDING_KYC')).then({ type: 'ApproveHolderKyc', now: at(3) });
    expect(approved.at(-1)).toMatchObject({
      type: 'CardStateChanged',
      data: { previousState: 'PENDING_KYC', card: { state: 'PENDING_ISSUE' } },
    });
    expect(given(approved).when({ type: 'ApproveHolderKyc', now: at(4) })).toEqual([]);
  });

  it('completes issuance with issuer details, deterministically, and only once', () => {
    const card = cardOf(active());
    expect(card).toMatchObject({ state: 'ACTIVE', expMonth: 1, expYear: 2029, updatedAt: at(5) });
    expect(card.last4).toMatch(/^\d{4}$/);
    expect(card.panEmbedUrl).toMatch(new RegExp(`^https://.+/${card.issuerRef}\\?token=[A-Za-z0-9_-]{43}$`));
    expect(cardOf(active())).toEqual(card);
    expect(given(active()).when({ type: 'CompleteIssuance', now: at(9) })).toEqual([]);
  });

  it('closes with ISSUER_REJECTED when the sandbox issuer rejects (platformCardId ending in 002)', () => {
    const events = given(given([]).then(create({ platformCardId: 'pc-002' }))).then({
      type: 'CompleteIssuance',
      now: at(5),
    });
    expect(cardOf(events)).toMatchObject({
      state: 'CLOSED',
      stateReason: 'ISSUER_REJECTED',
      fundingSources: [],
      last4: null,
    });
    const production = given(given([]).then(create({ platformCardId: 'pc-002', sandbox: false }))).then({
      type: 'CompleteIssuance',
      now: at(5),
    });
    expect(cardOf(production).state).toBe('ACTIVE');
  });

  const table: [CardState, RequestedCardState, CardState | 409][] = [];
  for (const from of ['PENDING_KYC', 'PENDING_ISSUE', 'ACTIVE', 'FROZEN', 'CLOSED'] as CardState[]) {
    for (const to of ['ACTIVE', 'FROZEN', 'CLOSED'] as RequestedCardState[]) {
      const ok = (from === 'ACTIVE' && to !== 'ACTIVE') || (from === 'FROZEN' && to !== 'FROZEN');
      table.push([from, to, ok ? to : 409]);
    }
  }
  it.each(table)('%s + PATCH state %s -> %s', (from, to, expected) => {
    const g = given(inState(from));
    if (expected === 409) {
      expect(() => g.when(update({ state: to }))).toThrow(
        expect.objectContaining({ code: 'INVALID_STATE_TRANSITION', kind: 'conflict' }) as never,
      );
      return;
    }
    const events = g.when(update({ state: to }));
    expect(events[0]).toMatchObject({
      type: 'CardStateChanged',
      data: { platformId: PLATFORM, previousState: from, card: { state: expected } },
    });
    if (to === 'CLOSED')
      expect(events[0]).toMatchObject({ data: { card: { stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] } } });
  });

  it('replaces funding sources as a whole and refuses every broken rule', () => {
    const g = given(active());
    const [e] = g.when(update({ fundingSources: [USD_WALLET] }));
    expect(e).toMatchObject({
      type: 'CardFundingSourcesChanged',
      data: { previousFundingSources: [USD, USD_WALLET], card: { fundingSources: [USD_WALLET] } },
    });
    expect(g.when(update({ fundingSources: [USD, USD_WALLET] }))).toEqual([]);
    const code = (fundingSources: string[]) => {
      try {
        g.when(update({ fundingSources }));
        return 'accepted';
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    expect(code([])).toBe('FUNDING_SOURCES_REQUIRED');
    expect(code([USD, USD])).toBe('DUPLICATE_FUNDING_SOURCE');
    expect(code([acct(99)])).toBe('FUNDING_SOURCE_NOT_OWNED');
    expect(code([USD, EUR])).toBe('FUNDING_SOURCE_CURRENCY_MISMATCH');
    expect(code([EUR])).toBe('FUNDING_SOURCE_CURRENCY_MISMATCH');
    expect(code([CLOSED_USD])).toBe('FUNDING_SOURCE_CLOSED');
    expect(() => g.when(update({ state: 'CLOSED', fundingSources: [USD] }))).toThrow(
      expect.objectContaining({ kind: 'invalid' }) as never,
    );
    expect(() => given(inState('CLOSED')).when(update({ fundingSources: [USD] }))).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }) as never,
    );
  });

  it('is closed by the service (CLOSED_BY_SERVICE) from any open state, once', () => {
    for (const from of ['PENDING_KYC', 'PENDING_ISSUE', 'ACTIVE', 'FROZEN'] as CardState[]) {
      const events = given(inState(from)).then({ type: 'CloseCardByService', now: at(50) });
      expect(cardOf(events)).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_SERVICE', fundingSources: [] });
      expect(given(events).when({ type: 'CloseCardByService', now: at(51) })).toEqual([]);
    }
    expect(given(inState('CLOSED')).when({ type: 'CloseCardByService', now: at(50) })).toEqual([]);
  });

  it('needs mixed currencies refused and a wallet account in the card currency on create', () => {
    expect(() => given([]).when(create({ fundingSources: [USD, EUR] }))).toThrow(
      expect.objectContaining({ code: 'FUNDING_SOURCE_CURRENCY_MISMATCH' }) as never,
    );
    expect(() => given([]).when(create({ fundingSources: [EUR] }))).toThrow(
      expect.objectContaining({ code: 'CARDHOLDER_WALLET_REQUIRED' }) as never,
    );
  });

  it('applies a state change and a funding change in one request, or nothing when the transition is refused', () => {
    const events = given(active()).when(update({ state: 'FROZEN', fundingSources: [USD_WALLET] }));
    expect(events.map((e) => e.type)).toEqual(['CardFundingSourcesChanged', 'CardStateChanged']);
    expect(() => given(inState('FROZEN')).when(update({ state: 'FROZEN', fundingSources: [USD_WALLET] }))).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }) as never,
    );
  });
});

describe('a signed PATCH applies at most once (decider)', () => {
  const REQUEST = 'Request:00000000-0000-4000-8000-000000000777';
  type Body = { state?: RequestedCardState; fundingSources?: string[] };
  const signed = (body: Body, requestId = REQUEST): CardCommand => ({ ...update(body), requestId }) as CardCommand;
  const types = (events: CardEvent[]) => events.map((e) => e.type);
  const spent = expect.objectContaining({
    kind: 'unauthorized',
    code: 'UNAUTHORIZED',
    details: { reason: 'requestId was already used' },
  }) as never;

  it('records the requestId in the append that makes the change, also when it changes nothing', () => {
    expect(types(given(active()).when(signed({ state: 'FROZEN' })))).toEqual([
      'SignedRequestApplied',
      'CardStateChanged',
    ]);
    expect(given(active()).when(signed({ state: 'FROZEN' }))[0]).toEqual({
      type: 'SignedRequestApplied',
      data: { platformId: PLATFORM, cardId: CARD, requestId: REQUEST },
    });
    expect(types(given(active()).when(signed({ fundingSources: [USD, USD_WALLET] })))).toEqual([
      'SignedRequestApplied',
    ]);
  });

  it('refuses a requestId it already applied with 401, before the state check that would be a 409', () => {
    const frozen = given(active()).then(signed({ state: 'FROZEN' }));
    expect(() => given(frozen).when(signed({ state: 'FROZEN' }))).toThrow(spent);
    expect(() => given(frozen).when(signed({ state: 'ACTIVE' }))).toThrow(spent);
    const another = signed({ state: 'ACTIVE' }, 'Request:00000000-0000-4000-8000-000000000778');
    expect(types(given(frozen).when(another))).toEqual(['SignedRequestApplied', 'CardStateChanged']);
  });

  it('records nothing for a refused change, so the requestId is not marked applied', () => {
    const refused = expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }) as never;
    expect(() => given(inState('CLOSED')).when(signed({ state: 'FROZEN' }))).toThrow(refused);
    expect(given(inState('CLOSED')).state().signedRequests.size).toBe(0);
  });
});

describe('card authorizations (decider)', () => {
  const merchant = { descriptor: 'COFFEE' };
  const authorize = (id: string, hold?: string): CardCommand => ({
    type: 'RecordAuthorization',
    authorizationId: id,
    amount: 500n,
    currency: 'USD',
    merchant,
    ...(hold ? { hold: { fundingSourceId: USD, transferId: hold } } : {}),
    now: at(20),
  });

  it('declines by card state and currency before funds are looked at', () => {
    expect(screenAuthorization(cardOf(inState('FROZEN')), 'USD')).toBe('CARD_PAUSED');
    expect(screenAuthorization(cardOf(inState('CLOSED')), 'USD')).toBe('CARD_CLOSED');
    expect(screenAuthorization(cardOf(inState('PENDING_ISSUE')), 'USD')).toBe('CARD_NOT_ACTIVE');
    expect(screenAuthorization(cardOf(active()), 'EUR')).toBe('CURRENCY_MISMATCH');
    expect(screenAuthorization(cardOf(active()), 'USD')).toBeUndefined();
  });

  it('records holds, clears, returns, and reverses open ones on close', () => {
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(authorize('A2', 'T2'));
    expect(given(events).state().authorizations.get('A1')).toMatchObject({
      status: 'APPROVED',
      holdTransferId: 'T1',
      fundingSourceId: USD,
    });
    // Frozen between authorization and clearing: the earlier one still clears.
    events = given(events).then(update({ state: 'FROZEN' }));
    expect(given(events).when(authorize('A3'))[0]).toMatchObject({
      data: { authorization: { status: 'DECLINED', declineReason: 'CARD_PAUSED' } },
    });
    expect(clearingPlan(given(events).state(), 'A1', 300n)).toMatchObject({ kind: 'HOLD', amount: 300n });
    events = given(events).then({
      type: 'RecordClearing',
      authorizationId: 'A1',
      amount: 300n,
      outcome: { posted: true, transferIds: ['T1p'], latePresentment: false },
      now: at(30),
    });
    expect(() => clearingPlan(given(events).state(), 'A1')).toThrow(
      expect.objectContaining({ code: 'AUTHORIZATION_ALREADY_CLEARED' }) as never,
    );
    expect(() => returnPlan(given(events).state(), 'A1', 301n)).toThrow(
      expect.objectContaining({ code: 'RETURN_EXCEEDS_CLEARED' }) as never,
    );
    events = given(events).then({
      type: 'RecordReturn',
      authorizationId: 'A1',
      amount: 100n,
      transferId: 'R1',
      now: at(31),
    });
    expect(returnPlan(given(events).state(), 'A1').amount).toBe(200n);
    const closing = given(events).when(update({ state: 'CLOSED' }));
    expect(closing.map((e) => e.type)).toEqual(['CardStateChanged', 'CardAuthorizationReversed']);
    events = [...events, ...closing];
    const a2 = given(events).state().authorizations.get('A2')!;
    expect(a2.status).toBe('REVERSED');
    expect(clearingPlan(given(events).state(), 'A2').kind).toBe('LATE');
    expect(toCardAuthorization(given(events).state().authorizations.get('A1')!)).toMatchObject({
      status: 'CLEARED',
      amount: 500,
      clearedAmount: 300,
      returnedAmount: 100,
    });
    // In-flight refunds still complete after close.
    events = given(events).then({
      type: 'RecordReturn',
      authorizationId: 'A1',
      amount: 200n,
      transferId: 'R2',
      now: at(40),
    });
    expect(() => returnPlan(given(events).state(), 'A1')).toThrow(
      expect.objectContaining({ code: 'AUTHORIZATION_FULLY_RETURNED' }) as never,
    );
  });

  it('expires only an authorization that still holds funds', () => {
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(authorize('A2', 'T2'));
    events = given(events).then({
      type: 'RecordClearing',
      authorizationId: 'A2',
      amount: 500n,
      outcome: { posted: true, transferIds: ['T2p'], latePresentment: false },
      now: at(30),
    });
    const expiry = (authorizationId: string): CardCommand => ({
      type: 'ExpireAuthorization',
      authorizationId,
      now: at(50),
    });
    const [reversed] = given(events).when(expiry('A1'));
    expect(reversed).toMatchObject({
      type: 'CardAuthorizationReversed',
      data: { authorization: { id: 'A1', status: 'REVERSED' } },
    });
    expect((reversed.data as { authorization: { activity: unknown[] } }).authorization.activity.at(-1)).toMatchObject({
      type: 'REVERSAL',
      reversalReason: 'EXPIRED',
    });
    expect(given([...events, reversed]).when(expiry('A1'))).toEqual([]);
    expect(given(events).when(expiry('A2'))).toEqual([]); // cleared
    expect(given(events).when(expiry('A-never-recorded'))).toEqual([]);
  });

  it('declines a hold recorded after the card closed so the caller releases it', () => {
    const [e] = given(inState('CLOSED')).when(authorize('A9', 'T9'));
    expect(e).toMatchObject({
      data: { authorization: { status: 'DECLINED', declineReason: 'CARD_CLOSED', holdTransferId: null } },
    });
  });

  it('reserves a clearing on the card stream first: the same one joins it, another is refused, expiry waits', () => {
    const start = (amount: bigint): CardCommand => ({
      type: 'StartClearing',
      authorizationId: 'A1',
      amount,
      latePresentment: false,
      now: at(30),
    });
    const conflict = (code: string) => expect.objectContaining({ code }) as never;
    type Outcome = Extract<CardCommand, { type: 'RecordClearing' }>['outcome'];
    const clearing = (amount: bigint, outcome: Outcome): CardCommand => ({
      type: 'RecordClearing',
      authorizationId: 'A1',
      amount,
      outcome,
      now: at(31),
    });
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(start(700n));
    expect(events.at(-1)).toEqual({
      type: 'CardClearingStarted',
      data: {
        platformId: PLATFORM,
        cardId: CARD,
        clearing: { authorizationId: 'A1', amount: '700', latePresentment: false, startedAt: at(30) },
      },
    });
    // A second process deciding on the fresh state: same clearing -> nothing new; a different amount -> 409.
    expect(given(events).when(start(700n))).toEqual([]);
    expect(() => given(events).when(start(600n))).toThrow(conflict('CLEARING_IN_PROGRESS'));
    expect(given(events).when({ type: 'ExpireAuthorization', authorizationId: 'A1', now: at(50) })).toEqual([]);
    expect(
      given(events)
        .when(update({ state: 'CLOSED' }))
        .map((e) => e.type),
    ).toEqual(['CardStateChanged']);
    const legs = [clearingTransferId('A1', 'overAuthorization'), clearingTransferId('A1', 'post')];
    events = given(events).then(clearing(700n, { posted: true, transferIds: legs, latePresentment: false }));
    expect(given(events).state().clearings.size).toBe(0);
    expect(() => given(events).when(start(700n))).toThrow(conflict('AUTHORIZATION_ALREADY_CLEARED'));
    // Derived leg ids: stable per authorization and leg, distinct otherwise.
    expect(clearingTransferId('A1', 'post')).toBe(legs[1]);
    expect(new Set([...legs, clearingTransferId('A2', 'post')]).size).toBe(3);
    expect(legs[0]).toMatch(/^Transfer:[0-9a-f-]{36}$/);
  });

  it('ends the reservation of a declined clearing so the authorization can be presented again', () => {
    let events = given(active()).then(authorize('A1', 'T1'));
    const start = (amount: bigint): CardCommand => ({
      type: 'StartClearing',
      authorizationId: 'A1',
      amount,
      latePresentment: false,
      now: at(30),
    });
    events = given(events).then(start(900n));
    const outcome = { posted: false as const, declineReason: 'INSUFFICIENT_FUNDS' as const };
    const declined: CardCommand = { type: 'RecordClearing', authorizationId: 'A1', amount: 900n, outcome, now: at(31) };
    events = given(events).then(declined);
    expect(given(events).state().clearings.size).toBe(0);
    expect(given(events).when(start(400n))).toHaveLength(1);
  });
});
