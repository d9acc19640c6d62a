import { describe, expect, it } from '@jest/globals';
import type { CardCommand, CardEvent, CardState, RequestedCardState } from './card-types.js';
import {
  PLATFORM,
  CARD,
  acct,
  USD,
  USD_WALLET,
  EUR,
  CLOSED_USD,
  at,
  create,
  given,
  created,
  active,
  inState,
  update,
  cardOf,
} from './card.fixtures.js';

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
