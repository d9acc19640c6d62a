import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '../support/service.js';
import { type Customer, useMoneyService } from './money-support.js';

const START = Date.UTC(2026, 4, 4, 10);

/**
 * The operations of the public API that complete money movement: receipt confirmation, receiving
 * institutions by corridor and crypto withdrawal fee estimates, sent as that API's examples shape them.
 */
describe('confirm, discoveries and withdrawal fees over HTTP', () => {
  let ada: Customer;
  let paid: string;

  const { t, api, clock, m } = useMoneyService({ start: START });
  beforeAll(async () => {
    ada = await m.customer(['USD', 'USDC']);
    const bob = await m.customer(['USD']);
    await m.fund(ada.accounts.USD, 10_000);
    const quote = (await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 1_000)).body;
    expect((await api.post(`/quotes/${quote.id}/execute`)).body.status).toBe('COMPLETED');
    paid = quote.transactionId;
  });

  describe('POST /transactions/{transactionId}/confirm', () => {
    it('records the platform’s time without a body, the given time with one, and moves it when repeated', async () => {
      clock.advance(60_000);
      const bare = await api.post(`/transactions/${paid}/confirm`);
      expect(bare.status).toBe(200);
      expect(bare.body).toMatchObject({
        id: paid,
        type: 'OUTGOING',
        status: 'COMPLETED',
        receiptDeliveryConfirmedAt: new Date(START + 60_000).toISOString(),
      });
      const given = await api.post(`/transactions/${paid}/confirm`, {
        receiptDeliveryConfirmedAt: '2026-05-04T10:00:30Z',
      });
      expect(given.status).toBe(200);
      expect(given.body.receiptDeliveryConfirmedAt).toBe('2026-05-04T10:00:30.000Z');
      expect((await m.transaction(paid)).receiptDeliveryConfirmedAt).toBe('2026-05-04T10:00:30.000Z');
      const listed = await api.get(`/transactions?customerId=${encodeURIComponent(ada.id)}`);
      expect(listed.body.data.find((d: { id: string }) => d.id === paid).receiptDeliveryConfirmedAt).toBe(
        '2026-05-04T10:00:30.000Z',
      );
    });

    it('confirms transfers and incoming payments too', async () => {
      const ext = await m.external(ada.id, 'USD', '777');
      const out = await api.post('/transfer-out', {
        source: { accountId: ada.accounts.USD },
        destination: { accountId: ext, paymentRail: 'ACH' },
        amount: 100,
      });
      const confirmed = await api.post(`/transactions/${out.body.id}/confirm`, {});
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.receiptDeliveryConfirmedAt).toBe(clock.now().toISOString());
      const incoming = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$carol@else.example.com',
        customerId: ada.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 300,
      });
      const received = await api.post(`/transactions/${incoming.body.id}/confirm`);
      expect(received.body).toMatchObject({ type: 'INCOMING', receiptDeliveryConfirmedAt: clock.now().toISOString() });
    });

    it('refuses a time in the future or before the transaction, and unknown or foreign ids', async () => {
      const future = await api.post(`/transactions/${paid}/confirm`, {
        receiptDeliveryConfirmedAt: '2030-01-01T00:00:00Z',
      });
      expect({ status: future.status, code: future.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
      expect(future.body.details.errors[0].field).toBe('receiptDeliveryConfirmedAt');
      const before = await api.post(`/transactions/${paid}/confirm`, {
        receiptDeliveryConfirmedAt: '2020-01-01T00:00:00Z',
      });
      expect(before.status).toBe(400);
      const malformed = await api.post(`/transactions/${paid}/confirm`, { receiptDeliveryConfirmedAt: 'yesterday' });
      expect(malformed.status).toBe(400);
      const unknown = await api.post('/transactions/Transaction:00000000-0000-4000-8000-000000000000/confirm');
      expect({ status: unknown.status, code: unknown.body.code }).toEqual({
        status: 404,
        code: 'TRANSACTION_NOT_FOUND',
      });
      const other = await t.otherPlatform();
      const foreign = await other.api.post(`/transactions/${paid}/confirm`);
      expect({ status: foreign.status, code: foreign.body.code }).toEqual({
        status: 404,
        code: 'TRANSACTION_NOT_FOUND',
      });
    });
  });

  describe('GET /discoveries', () => {
    it('lists the institutions of a corridor with the fields and codes of the public API', async () => {
      const res = await api.get('/discoveries?country=PH&currency=PHP');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          { bankName: 'BDO Unibank', displayName: 'BDO Unibank', country: 'PH', currency: 'PHP' },
          { bankName: 'BPI', displayName: 'Bank of the Philippine Islands', country: 'PH', currency: 'PHP' },
        ]),
      );
      for (const d of res.body.data) expect(d).toMatchObject({ country: 'PH', currency: 'PHP' });
    });

    it('lists every corridor without filters and none for an unknown one', async () => {
      const all = await api.get('/discoveries');
      expect(new Set(all.body.data.map((d: { country: string }) => d.country)).size).toBeGreaterThan(5);
      expect((await api.get('/discoveries?country=ph')).body.data.length).toBeGreaterThan(0);
      expect((await api.get('/discoveries?country=ZZ&currency=XXX')).body).toEqual({ data: [] });
    });
  });

  describe('POST /crypto/estimate-withdrawal-fee', () => {
    const body = (internalAccountId: string, extra: Record<string, unknown> = {}) => ({
      internalAccountId,
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      amount: 1_000_000,
      destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      ...extra,
    });

    it('estimates the fee of a USDC withdrawal on Solana', async () => {
      const res = await api.post('/crypto/estimate-withdrawal-fee', body(ada.accounts.USDC));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        networkFee: 5_000,
        networkFeeAsset: 'SOL',
        applicationFee: 0,
        totalFee: 1_000,
        netAmount: 999_000,
      });
      expect(res.body.totalFee + res.body.netAmount).toBe(1_000_000);
    });

    it('answers 400 for the wrong currency, network or amount, and 404 for foreign or unknown accounts', async () => {
      const code = async (b: unknown, a: Client = api) => {
        const res = await a.post('/crypto/estimate-withdrawal-fee', b);
        return [res.status, res.body.code];
      };
      expect(await code(body(ada.accounts.USD, { currency: 'USD' }))).toEqual([400, 'INVALID_CURRENCY']);
      expect(await code(body(ada.accounts.USDC, { cryptoNetwork: 'LIGHTNING' }))).toEqual([400, 'INVALID_INPUT']);
      expect(await code(body(ada.accounts.USDC, { amount: 500 }))).toEqual([400, 'AMOUNT_OUT_OF_RANGE']);
      expect(await code({ ...body(ada.accounts.USDC), amount: undefined })).toEqual([400, 'INVALID_INPUT']);
      expect(await code(body('InternalAccount:00000000-0000-4000-8000-000000000000'))).toEqual([
        404,
        'INTERNAL_ACCOUNT_NOT_FOUND',
      ]);
      const other = await t.otherPlatform();
      expect(await code(body(ada.accounts.USDC), other.api)).toEqual([404, 'INTERNAL_ACCOUNT_NOT_FOUND']);
    });
  });
});
