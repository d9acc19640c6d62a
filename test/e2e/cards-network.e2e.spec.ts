import { describe, expect, it } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { ManualClock } from '#domain/clock.js';
import { available, postedBalance } from '#domain/ledger/ledger.js';
import { expectBalancedLedger, loadLedger } from '../support/ledger-check.js';
import { AUTHORIZATION_VALIDITY_MS } from '#domain/cards/card-authorization.js';
import { authorizationIdOf } from '#domain/cards/card-transaction.js';
import { useTestService } from '../support/fixture.js';
import { signedRequest, walletHolder, type WalletSession } from '../support/wallet-session.js';
import { poll } from '../support/poll.js';
import { authorizedTransaction, usdAmount } from './cards-support.js';

const money = usdAmount;
const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };

interface Holder {
  customerId: string;
  usd: string;
  wallet: WalletSession;
}

describe('sandbox card network: authorizations, clearings and returns on the ledger', () => {
  const clock = new ManualClock(Date.UTC(2026, 1, 2, 9));

  const t = useTestService({ clock });
  const api = t.api;

  async function holder(funds: { usd?: number; wallet?: number } = {}): Promise<Holder> {
    const { customerId, usd, wallet } = await walletHolder(api, { fullName: 'Grace Hopper' });
    if (funds.usd)
      expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: funds.usd })).status).toBe(200);
    if (funds.wallet)
      expect(
        (await api.post(`/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: funds.wallet })).status,
      ).toBe(200);
    return { customerId, usd, wallet };
  }

  const until = poll;

  async function activeCard(h: Holder, fundingSources = [h.usd, h.wallet.accountId]) {
    const created = await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources });
    expect(created.status).toBe(201);
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    const card = await until(
      async () => (await api.get(`/cards/${created.body.id}`)).body,
      (c) => c.state === 'ACTIVE',
    );
    expect(card.state).toBe('ACTIVE');
    return card;
  }

  /** A holder funded with `funds` and its active card, on its USD account alone with `usdOnly`. */
  async function holderWithCard(funds: { usd?: number; wallet?: number }, usdOnly = false) {
    const h = await holder(funds);
    return { h, card: await activeCard(h, usdOnly ? [h.usd] : undefined) };
  }

  const attempt = (cardId: string, amount: number, currency = 'USD') =>
    api.post(`/sandbox/cards/${cardId}/simulate/authorization`, { amount, currency: { code: currency }, merchant });
  const authorize = async (cardId: string, amount: number, currency = 'USD') => {
    const res = await attempt(cardId, amount, currency);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** A declined authorization: 400 with the decline reason as the code. */
  const decline = async (cardId: string, amount: number, currency = 'USD') => {
    const res = await attempt(cardId, amount, currency);
    expect(res.status).toBe(400);
    return res.body.code;
  };
  const clear = (cardId: string, cardTransactionId: string, amount?: number) =>
    api.post(`/sandbox/cards/${cardId}/simulate/clearing`, {
      cardTransactionId,
      ...(amount === undefined ? {} : { amount }),
    });
  const refund = (cardId: string, cardTransactionId: string, amount?: number) =>
    api.post(`/sandbox/cards/${cardId}/simulate/return`, {
      cardTransactionId,
      ...(amount === undefined ? {} : { amount }),
    });
  const read = async (id: string) => (await api.get(`/card-transactions/${id}`)).body;
  const setState = async (cardId: string, state: string, session: WalletSession) => {
    const res = await signedRequest(api, 'PATCH', `/cards/${cardId}`, { state }, session);
    expect(res.result.status).toBe(200);
    return res.result.body;
  };
  const ledgerAccount = async (id: string) =>
    (await loadLedger(t.service.infra.eventStore, t.service.sandbox!.platformId)).accounts.get(id)!;
  const balance = async (id: string) => (await api.get(`/internal-accounts/${id}`)).body.balance.amount;

  it('tries funding sources in priority order and holds funds on approval', async () => {
    const { h, card } = await holderWithCard({ usd: 1000, wallet: 5000 });
    const first = await authorize(card.id, 800);
    expect(first).toEqual(
      authorizedTransaction({
        cardId: card.id,
        customerId: h.customerId,
        issuerTransactionToken: expect.any(String),
        merchant,
        amount: 800,
        accountId: h.usd,
        at: clock.now().toISOString(),
      }),
    );
    // The first source has 200 left: the second one pays.
    const second = await authorize(card.id, 800);
    expect(second).toMatchObject({ status: 'AUTHORIZED', accountId: h.wallet.accountId });
    expect(await decline(card.id, 4500)).toBe('INSUFFICIENT_FUNDS');
    expect(available(await ledgerAccount(h.usd))).toBe(200n);
    expect(available(await ledgerAccount(h.wallet.accountId))).toBe(4200n);
    // A hold is not a posting: balances stay until clearing.
    expect(await balance(h.usd)).toBe(1000);
    expect(await read(first.id)).toEqual(first);
  });

  it('declines on the card state and currency before looking at funds', async () => {
    const h = await holder({ usd: 1000 });
    const pending = await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.usd] });
    expect(await decline(pending.body.id, 100)).toBe('CARD_NOT_ACTIVE');
    const card = await activeCard(h, [h.usd]);
    expect(await decline(card.id, 100, 'EUR')).toBe('CURRENCY_MISMATCH');
    // The sandbox's descriptor suffixes: 002 the pull fails, 003 the card refuses as if frozen.
    const suffixed = (descriptor: string) =>
      api.post(`/sandbox/cards/${card.id}/simulate/authorization`, {
        amount: 100,
        currency: { code: 'USD' },
        merchant: { descriptor },
      });
    expect((await suffixed('AMAZON RETAIL US-002')).body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await suffixed('AMAZON RETAIL US-003')).body.code).toBe('CARD_PAUSED');
    expect((await api.get(`/cards/${card.id}/transactions`)).body.totalCount).toBe(0);
    expect(available(await ledgerAccount(h.usd))).toBe(1000n);
  });

  it(
    'freezes between authorization and clearing: new authorizations CARD_PAUSED, the earlier one ' + 'still clears',
    async () => {
      const { h, card } = await holderWithCard({ usd: 1000 });
      const earlier = await authorize(card.id, 300);
      expect(earlier.status).toBe('AUTHORIZED');
      await setState(card.id, 'FROZEN', h.wallet);
      expect(await decline(card.id, 50)).toBe('CARD_PAUSED');
      const cleared = await clear(card.id, earlier.id);
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ status: 'SETTLED', settledAmount: money(300) });
      expect(await balance(h.usd)).toBe(700);
      await setState(card.id, 'ACTIVE', h.wallet);
      expect((await authorize(card.id, 50)).status).toBe('AUTHORIZED');
    },
  );

  it(
    'expires an authorization left uncleared for seven days: reversed, hold voided, a late ' + 'clearing still posts',
    async () => {
      const { h, card } = await holderWithCard({ usd: 1000 });
      const stale = await authorize(card.id, 300);
      clock.advance(AUTHORIZATION_VALIDITY_MS - 1000);
      const fresh = await authorize(card.id, 200);
      await t.service.infra.jobs.promoteDue();
      expect(available(await ledgerAccount(h.usd))).toBe(500n);
      clock.advance(1000);
      await t.service.infra.jobs.promoteDue();
      const expired = await until(
        async () => read(stale.id),
        (a) => a.status === 'SETTLED',
      );
      expect(expired).toMatchObject({
        status: 'SETTLED',
        settledAmount: money(0),
        pullSummary: { count: 1, totalAmount: 0 },
        lastEventAt: clock.now().toISOString(),
      });
      expect(
        await until(
          async () => available(await ledgerAccount(h.usd)),
          (v) => v === 800n,
        ),
      ).toBe(800n);
      expect((await read(fresh.id)).status).toBe('AUTHORIZED');
      const late = await clear(card.id, stale.id);
      expect(late.status).toBe(200);
      expect(late.body).toMatchObject({ status: 'SETTLED', pullSummary: { count: 2, totalAmount: 300 } });
      expect(await balance(h.usd)).toBe(700);
      await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
    },
  );

  it(
    'clears in parts (the rest held again until it clears), over-authorizations when funds allow, ' +
      'EXCEPTION otherwise',
    async () => {
      const { h, card } = await holderWithCard({ usd: 1000 }, true);
      const partial = await authorize(card.id, 400);
      expect((await clear(card.id, partial.id, 250)).body).toMatchObject({
        status: 'PARTIALLY_SETTLED',
        settledAmount: money(250),
        pullSummary: { count: 1, totalAmount: 400 },
        settlementSummary: { count: 1, totalAmount: 250 },
      });
      // 250 posted, the other 150 still held for the next clearing.
      expect(await balance(h.usd)).toBe(750);
      expect(available(await ledgerAccount(h.usd))).toBe(600n);
      expect((await clear(card.id, partial.id, 150)).body).toMatchObject({
        status: 'SETTLED',
        settledAmount: money(400),
        pullSummary: { count: 1, totalAmount: 400 },
        settlementSummary: { count: 2, totalAmount: 400 },
      });
      expect(available(await ledgerAccount(h.usd))).toBe(600n);
      const over = await authorize(card.id, 100);
      expect((await clear(card.id, over.id, 150)).body).toMatchObject({
        status: 'SETTLED',
        authorizedAmount: money(100),
        settledAmount: money(150),
        pullSummary: { count: 2, totalAmount: 150 },
      });
      expect(await balance(h.usd)).toBe(450);
      const tooMuch = await authorize(card.id, 100);
      const declined = await clear(card.id, tooMuch.id, 5000);
      expect(declined.status).toBe(200);
      expect(declined.body).toMatchObject({ status: 'EXCEPTION', settledAmount: money(0) });
      expect(available(await ledgerAccount(h.usd))).toBe(350n);
      expect((await clear(card.id, tooMuch.id)).body.status).toBe('SETTLED');
      // A clearing of 0: the authorization expires at once and its hold is released, a partial one's rest too.
      const dropped = await authorize(card.id, 70);
      expect((await clear(card.id, dropped.id, 0)).body).toMatchObject({
        status: 'SETTLED',
        settledAmount: money(0),
        pullSummary: { count: 1, totalAmount: 0 },
      });
      const split = await authorize(card.id, 90);
      expect((await clear(card.id, split.id, 40)).body.status).toBe('PARTIALLY_SETTLED');
      expect((await clear(card.id, split.id, 0)).body).toMatchObject({
        status: 'SETTLED',
        settledAmount: money(40),
        pullSummary: { count: 1, totalAmount: 40 },
      });
      expect(available(await ledgerAccount(h.usd))).toBe(310n);
      expect((await ledgerAccount(h.usd)).debitsPending).toBe(0n);
      await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
    },
  );

  it(
    'keeps the ledger balanced through a scripted sequence of authorizations, clearings, returns ' + 'and a close',
    async () => {
      const { h, card } = await holderWithCard({ usd: 10_000, wallet: 5_000 });
      const a1 = await authorize(card.id, 3000);
      const a2 = await authorize(card.id, 6000);
      const a3 = await authorize(card.id, 2000);
      expect([a1.accountId, a2.accountId, a3.accountId]).toEqual([h.usd, h.usd, h.wallet.accountId]);
      expect(await decline(card.id, 9000)).toBe('INSUFFICIENT_FUNDS');
      await setState(card.id, 'FROZEN', h.wallet);
      expect(await decline(card.id, 100)).toBe('CARD_PAUSED');
      // 2500 of 3000: the other 500 stays held (released when the card closes below).
      expect((await clear(card.id, a1.id, 2500)).body.status).toBe('PARTIALLY_SETTLED');
      await setState(card.id, 'ACTIVE', h.wallet);
      expect((await clear(card.id, a2.id, 6500)).body.settledAmount).toEqual(money(6500));
      expect((await clear(card.id, a3.id, 10_000)).body.status).toBe('EXCEPTION');
      expect((await refund(card.id, a1.id, 1000)).body.refundedAmount).toEqual(money(1000));
      const a6 = await authorize(card.id, 400);
      expect(a6.accountId).toBe(h.usd);

      const closed = await setState(card.id, 'CLOSED', h.wallet);
      expect(closed).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
      // Pending authorizations reconciled to a terminal state, their holds released.
      expect(await read(a6.id)).toMatchObject({ status: 'SETTLED', pullSummary: { totalAmount: 0 } });
      expect(await read(a1.id)).toMatchObject({ status: 'SETTLED', pullSummary: { totalAmount: 2500 } });
      expect(await read(a3.id)).toMatchObject({ status: 'EXCEPTION', pullSummary: { totalAmount: 0 } });
      expect((await ledgerAccount(h.usd)).debitsPending).toBe(0n);
      expect((await ledgerAccount(h.wallet.accountId)).debitsPending).toBe(0n);
      expect(await decline(card.id, 10)).toBe('CARD_CLOSED');
      // Late presentment: posts as a new transfer if the funding source still has the money.
      expect((await clear(card.id, a6.id)).body).toMatchObject({
        status: 'SETTLED',
        settledAmount: money(400),
        pullSummary: { count: 2, totalAmount: 400 },
      });
      const short = await clear(card.id, a3.id, 6000);
      expect(short.body).toMatchObject({ status: 'EXCEPTION', settledAmount: money(0) });
      expect((await clear(card.id, a3.id)).body).toMatchObject({
        status: 'SETTLED',
        settledAmount: money(2000),
        pullSummary: { count: 2, totalAmount: 2000 },
      });
      // In-flight refunds still complete after the close.
      expect((await refund(card.id, a2.id)).body).toMatchObject({ status: 'REFUNDED', refundedAmount: money(6500) });

      const ledger = await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
      const expected = { [h.usd]: 10_000 - 2500 + 1000 - 6500 - 400 + 6500, [h.wallet.accountId]: 5000 - 2000 };
      for (const [id, amount] of Object.entries(expected)) {
        const account = ledger.accounts.get(id)!;
        expect({ id, posted: postedBalance(account), pending: account.debitsPending }).toEqual({
          id,
          posted: BigInt(amount),
          pending: 0n,
        });
        expect(await balance(id)).toBe(amount);
      }
      // Every transfer of the card references one of its authorizations.
      const transfers = (
        await t.service.infra.eventStore.readStream(`ledger-${t.service.sandbox!.platformId.split(':')[1]}`)
      ).filter(
        (e) =>
          e.type === 'TransferCreated' &&
          String(e.data.code).startsWith('CARD_') &&
          [a1, a2, a3, a6].some((a) => authorizationIdOf(a.id) === e.data.reference),
      );
      expect(transfers.map((e) => e.data.code).sort()).toEqual(
        [
          'CARD_AUTHORIZATION',
          'CARD_AUTHORIZATION',
          'CARD_AUTHORIZATION',
          'CARD_AUTHORIZATION',
          'CARD_AUTHORIZATION',
          'CARD_CLEARING_OVER_AUTHORIZATION',
          'CARD_LATE_PRESENTMENT',
          'CARD_LATE_PRESENTMENT',
          'CARD_RETURN',
          'CARD_RETURN',
        ].sort(),
      );
    },
  );
});
