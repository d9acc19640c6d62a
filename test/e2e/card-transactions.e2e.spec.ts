import { describe, expect, it } from '@jest/globals';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { authorizedTransaction, cardsHarness, usdAmount, type Holder } from './cards-support.js';

const STATUSES = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'];
const money = usdAmount;
/** Requests shaped as the public API's examples of the sandbox card simulators. */
const coffee = {
  amount: 1250,
  currency: { code: 'USD' },
  merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
};
const declinedInsufficientFunds = {
  amount: 50000,
  currency: { code: 'USD' },
  merchant: { descriptor: 'AMAZON RETAIL US-002', mcc: '5942', country: 'US' },
};

describe('card transactions: the sandbox simulators and the reads a card statement is built from', () => {
  const kit = cardsHarness(Date.UTC(2026, 4, 8, 14, 30));
  const api = () => kit.api;

  async function fundedCard(amount = 100_000): Promise<{ h: Holder; cardId: string }> {
    const h = await kit.holder();
    expect((await api().post(`/sandbox/internal-accounts/${h.usd}/fund`, { amount })).status).toBe(200);
    const card = await kit.activeCard(h, { fundingSources: [h.usd] });
    return { h, cardId: card.id };
  }
  const simulate = (cardId: string, what: string, body: unknown) =>
    api().post(`/sandbox/cards/${cardId}/simulate/${what}`, body);

  it('authorizes (200 CardTransaction), clears tip-on-top with a post-hoc pull, refunds in full', async () => {
    const { h, cardId } = await fundedCard();
    const now = kit.clock.now().toISOString();
    const auth = await simulate(cardId, 'authorization', coffee);
    expect(auth.status).toBe(200);
    expect(auth.body).toEqual(
      authorizedTransaction({
        cardId,
        customerId: h.customerId,
        issuerTransactionToken: expect.stringMatching(/^\S+$/),
        merchant: coffee.merchant,
        amount: 1250,
        accountId: h.usd,
        at: now,
      }),
    );
    expect(auth.body).not.toHaveProperty('lastEventAt');
    const id = auth.body.id as string;

    kit.clock.advance(60_000);
    const cleared = await simulate(cardId, 'clearing', { cardTransactionId: id, amount: 1500 });
    expect(cleared.status).toBe(200);
    const clearedAt = kit.clock.now().toISOString();
    expect(cleared.body).toMatchObject({
      id,
      status: 'SETTLED',
      authorizedAmount: money(1250),
      settledAmount: money(1500),
      pullSummary: { count: 2, totalAmount: 1500, pendingCount: 0 },
      settlementSummary: { count: 1, totalAmount: 1500 },
      lastEventAt: clearedAt,
      updatedAt: clearedAt,
      authorizedAt: now,
    });
    expect((await api().get(`/internal-accounts/${h.usd}`)).body.balance.amount).toBe(100_000 - 1500);

    const refunded = await simulate(cardId, 'return', { cardTransactionId: id, amount: 1500 });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({
      status: 'REFUNDED',
      refundedAmount: money(1500),
      refundSummary: { count: 1, totalAmount: 1500 },
    });
    expect((await api().get(`/internal-accounts/${h.usd}`)).body.balance.amount).toBe(100_000);
    expect((await api().get(`/card-transactions/${id}`)).body).toEqual(refunded.body);
    await expectBalancedLedger(kit.t.service.infra.eventStore, kit.t.service.sandbox!.platformId);
  });

  it('declines with 400 and the decline reason; a clearing of 0 lets the authorization expire', async () => {
    const { h, cardId } = await fundedCard(10_000);
    const declined = await simulate(cardId, 'authorization', declinedInsufficientFunds);
    expect({ status: declined.status, code: declined.body.code }).toEqual({ status: 400, code: 'INSUFFICIENT_FUNDS' });
    const auth = await simulate(cardId, 'authorization', coffee);
    expect(auth.status).toBe(200);
    const expired = await simulate(cardId, 'clearing', { cardTransactionId: auth.body.id, amount: 0 });
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({
      status: 'SETTLED',
      settledAmount: money(0),
      pullSummary: { count: 1, totalAmount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
    });
    expect(STATUSES).toContain(expired.body.status);
    // Nothing held, nothing moved.
    expect((await api().get(`/internal-accounts/${h.usd}`)).body.balance.amount).toBe(10_000);
    const again = await simulate(cardId, 'clearing', { cardTransactionId: auth.body.id, amount: 0 });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    // The currency as a bare string is not the public API's Currency object.
    const bare = await simulate(cardId, 'authorization', { ...coffee, currency: 'USD' });
    expect({ status: bare.status, code: bare.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    const full = { ...coffee, currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 } };
    expect((await simulate(cardId, 'authorization', full)).status).toBe(200);
    // Descriptor suffix 006: approved, then the pull is reported failed: released and in EXCEPTION.
    const failing = { ...coffee, amount: 300, merchant: { descriptor: 'CORNER DELI-006' } };
    const failed = await simulate(cardId, 'authorization', failing);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'EXCEPTION', pullSummary: { count: 1, totalAmount: 0 } });
    expect((await api().get(`/internal-accounts/${h.usd}`)).body.balance.amount).toBe(10_000);
    // Its clearing pulls anew from the funding source and settles it.
    const recovered = await simulate(cardId, 'clearing', { cardTransactionId: failed.body.id });
    expect(recovered.body).toMatchObject({ status: 'SETTLED', pullSummary: { count: 2, totalAmount: 300 } });
    expect((await api().get(`/internal-accounts/${h.usd}`)).body.balance.amount).toBe(10_000 - 300);
  });

  it('refuses clearings and returns that do not fit: status codes and error codes', async () => {
    const { cardId } = await fundedCard();
    const other = await fundedCard();
    const id = (await simulate(cardId, 'authorization', coffee)).body.id as string;
    const reply = async (what: string, body: unknown, card = cardId) => {
      const r = await simulate(card, what, body);
      return [r.status, r.body.code];
    };
    expect(await reply('return', { cardTransactionId: id, amount: 100 })).toEqual([400, 'INVALID_INPUT']);
    expect(await reply('clearing', { cardTransactionId: id, amount: 1250 })).toEqual([200, undefined]);
    expect(await reply('clearing', { cardTransactionId: id, amount: 10 })).toEqual([400, 'INVALID_INPUT']);
    expect(await reply('return', { cardTransactionId: id, amount: 1251 })).toEqual([400, 'INVALID_AMOUNT']);
    expect(await reply('return', { cardTransactionId: id, amount: 0 })).toEqual([400, 'INVALID_INPUT']);
    expect(await reply('clearing', { cardTransactionId: id, amount: -1 })).toEqual([400, 'INVALID_INPUT']);
    expect(await reply('clearing', { cardTransactionId: 'CardAuthorization:x' })).toEqual([400, 'INVALID_INPUT']);
    const unknown = 'CardTransaction:00000000-0000-4000-8000-000000000000';
    expect(await reply('clearing', { cardTransactionId: unknown })).toEqual([404, 'CARD_TRANSACTION_NOT_FOUND']);
    // Another card's transaction is not this card's.
    expect(await reply('return', { cardTransactionId: id }, other.cardId)).toEqual([404, 'CARD_TRANSACTION_NOT_FOUND']);
    expect(await reply('return', { cardTransactionId: id, amount: 250 })).toEqual([200, undefined]);
    expect((await api().get(`/card-transactions/${id}`)).body).toMatchObject({
      status: 'SETTLED',
      refundedAmount: money(250),
    });
    // Without an amount a return takes everything left; after that nothing is.
    expect(await reply('return', { cardTransactionId: id })).toEqual([200, undefined]);
    expect(await reply('return', { cardTransactionId: id })).toEqual([400, 'INVALID_INPUT']);
    // Malformed authorizations: a fraction, no merchant, an empty descriptor.
    expect(await reply('authorization', { ...coffee, amount: 1.5 })).toEqual([400, 'INVALID_INPUT']);
    expect(await reply('authorization', { amount: 10, currency: { code: 'USD' } })).toEqual([400, 'INVALID_INPUT']);
    const empty = { ...coffee, merchant: { descriptor: '' } };
    expect(await reply('authorization', empty)).toEqual([400, 'INVALID_INPUT']);
    // A production platform has no sandbox (403); another sandbox platform does not see the card (404).
    const production = await kit.t.otherPlatform({ sandbox: false });
    const prod = await production.api.post(`/sandbox/cards/${cardId}/simulate/authorization`, coffee);
    expect([prod.status, prod.body.code]).toEqual([403, 'FORBIDDEN']);
    const stranger = await kit.t.otherPlatform();
    const foreign = await stranger.api.post(`/sandbox/cards/${cardId}/simulate/authorization`, coffee);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'CARD_NOT_FOUND']);
  });

  it('lists a card’s transactions with cursor pagination, totalCount, status and createdAt filters', async () => {
    const { cardId } = await fundedCard();
    const times: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      kit.clock.advance(3_600_000);
      times.push(kit.clock.now().toISOString());
      ids.push((await simulate(cardId, 'authorization', { ...coffee, amount: 100 + i })).body.id);
    }
    expect((await simulate(cardId, 'clearing', { cardTransactionId: ids[1] })).status).toBe(200);
    expect((await simulate(cardId, 'clearing', { cardTransactionId: ids[3] })).status).toBe(200);
    const part = await simulate(cardId, 'clearing', { cardTransactionId: ids[4], amount: 50 });
    expect(part.body).toMatchObject({ status: 'PARTIALLY_SETTLED', settledAmount: money(50) });
    const list = (query = '') => api().get(`/cards/${cardId}/transactions${query}`);

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ totalCount: 5, hasMore: false });
    expect(all.body.data.map((t: any) => t.id)).toEqual([...ids].reverse());
    const first = await list('?limit=2&sortOrder=asc');
    expect(first.body).toMatchObject({ totalCount: 5, hasMore: true });
    expect(first.body.data.map((t: any) => t.id)).toEqual(ids.slice(0, 2));
    const second = await list(`?limit=2&sortOrder=asc&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data.map((t: any) => t.id)).toEqual(ids.slice(2, 4));

    const settled = await list('?status=SETTLED');
    expect(settled.body.totalCount).toBe(2);
    expect(settled.body.data.map((t: any) => t.id).sort()).toEqual([ids[1], ids[3]].sort());
    expect((await list('?status=AUTHORIZED')).body.totalCount).toBe(2);
    expect((await list('?status=PARTIALLY_SETTLED')).body.data.map((t: any) => t.id)).toEqual([ids[4]]);
    const q = encodeURIComponent;
    const window = await list(`?createdAfter=${q(times[1])}&createdBefore=${q(times[3])}`);
    expect(window.body.data.map((t: any) => t.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect((await list('?status=DECLINED')).status).toBe(400);
    expect((await list('?createdAfter=yesterday')).status).toBe(400);
  });

  it('answers 404 for another platform’s card and transaction, and 400 for malformed ids', async () => {
    const { cardId } = await fundedCard();
    const id = (await simulate(cardId, 'authorization', coffee)).body.id as string;
    const other = await kit.t.otherPlatform();
    const listed = await other.api.get(`/cards/${cardId}/transactions`);
    expect({ status: listed.status, code: listed.body.code }).toEqual({ status: 404, code: 'CARD_NOT_FOUND' });
    const got = await other.api.get(`/card-transactions/${id}`);
    expect({ status: got.status, code: got.body.code }).toEqual({ status: 404, code: 'CARD_TRANSACTION_NOT_FOUND' });
    const cleared = await other.api.post(`/sandbox/cards/${cardId}/simulate/clearing`, { cardTransactionId: id });
    expect(cleared.status).toBe(404);
    const unknown = await api().get('/card-transactions/CardTransaction:00000000-0000-4000-8000-000000000000');
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({
      status: 404,
      code: 'CARD_TRANSACTION_NOT_FOUND',
    });
    expect((await api().get('/card-transactions/Transaction:nope')).status).toBe(400);
    expect((await api().get(`/card-transactions/${id}`)).body.status).toBe('AUTHORIZED');
  });
});
