import { describe, expect, it } from '@jest/globals';
import { accountQuoteBody, useMoneyService } from './money-support.js';

const START = Date.UTC(2026, 2, 2, 10);

describe('quotes over HTTP', () => {
  const { t, api, clock, m, ledgerOk } = useMoneyService({ start: START });

  it('quotes and executes a same-currency payment between internal accounts', async () => {
    const { ada, bob } = await m.payerAndPayee(50_000);
    const created = await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 10_000, {
      description: 'rent',
      purposeOfPayment: 'SELF',
    });
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q).toMatchObject({
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: ada.accounts.USD, customerId: ada.id },
      destination: { destinationType: 'ACCOUNT', accountId: bob.accounts.USD, paymentRail: 'INTERNAL' },
      sendingCurrency: { code: 'USD', decimals: 2 },
      receivingCurrency: { code: 'USD' },
      totalSendingAmount: 10_000,
      totalReceivingAmount: 10_000,
      feesIncluded: 0,
      exchangeRate: 1,
      lockedCurrencySide: 'SENDING',
      description: 'rent',
      purposeOfPayment: 'SELF',
    });
    expect(q.id).toMatch(/^Quote:[0-9a-f-]{36}$/);
    expect(q.transactionId).toMatch(/^Transaction:[0-9a-f-]{36}$/);
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(300_000);
    expect(q.paymentInstructions).toBeUndefined();
    expect((await api.get(`/quotes/${q.id}`)).body).toEqual(q);
    const pending = await m.transaction(q.transactionId);
    expect(pending).toMatchObject({
      status: 'PENDING',
      type: 'OUTGOING',
      quoteId: q.id,
      customerId: ada.id,
      reconciliationInstructions: { reference: expect.stringMatching(/^TX-/) },
    });

    const executed = await api.post(`/quotes/${q.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe('COMPLETED');
    expect(await m.balance(ada.accounts.USD)).toBe(40_000);
    expect(await m.balance(bob.accounts.USD)).toBe(10_000);
    const tx = await m.transaction(q.transactionId);
    expect(tx).toMatchObject({
      status: 'COMPLETED',
      sentAmount: { amount: 10_000 },
      receivedAmount: { amount: 10_000, currency: { code: 'USD' } },
      fees: 0,
    });
    expect(tx.settledAt).toBeDefined();
    expect((await api.get(`/quotes/${q.id}`)).body.status).toBe('COMPLETED');
    const again = await api.post(`/quotes/${q.id}/execute`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE_TRANSITION');
    await ledgerOk();
  });

  it('converts between currencies with bigint arithmetic and balanced settlement legs', async () => {
    const ada = await m.customer(['USD']);
    const bob = await m.customer(['EUR']);
    await m.fund(ada.accounts.USD, 100_000);
    const sending = await m.accountQuote(ada.accounts.USD, bob.accounts.EUR, 10_000);
    expect(sending.status).toBe(201);
    // 0.92 EUR per USD less 0.5% margin: 10000 cents -> floor(10000 * 0.92 * 0.995) = 9154 cents.
    expect(sending.body).toMatchObject({
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9154,
      feesIncluded: 0,
      exchangeRate: 0.9154,
    });
    const receiving = await m.accountQuote(ada.accounts.USD, bob.accounts.EUR, 9154, {
      lockedCurrencySide: 'RECEIVING',
    });
    expect(receiving.body).toMatchObject({
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9154,
      lockedCurrencySide: 'RECEIVING',
    });
    expect((await api.post(`/quotes/${sending.body.id}/execute`)).body.status).toBe('COMPLETED');
    expect(await m.balance(ada.accounts.USD)).toBe(90_000);
    expect(await m.balance(bob.accounts.EUR)).toBe(9154);
    await ledgerOk();
  });

  it('fails INSUFFICIENT_FUNDS cleanly: nothing moves and the quote stays executable', async () => {
    const { ada, q } = await m.usdQuote(1_000, 500);
    const refused = await api.post(`/quotes/${q.id}/execute`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await m.balance(ada.accounts.USD)).toBe(500);
    expect((await m.transaction(q.transactionId)).status).toBe('PENDING');
    await m.fund(ada.accounts.USD, 500);
    expect((await api.post(`/quotes/${q.id}/execute`)).body.status).toBe('COMPLETED');
    expect(await m.balance(ada.accounts.USD)).toBe(0);
    await ledgerOk();
  });

  it('cannot execute after expiresAt: EXPIRED, QUOTE_EXPIRED, no money moves', async () => {
    const { ada, bob, q } = await m.usdQuote(1_000, 5_000);
    clock.advance(300_000);
    const late = await api.post(`/quotes/${q.id}/execute`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('QUOTE_EXPIRED');
    expect((await api.get(`/quotes/${q.id}`)).body.status).toBe('EXPIRED');
    expect(await m.transaction(q.transactionId)).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    expect(await m.balance(ada.accounts.USD)).toBe(5_000);
    expect(await m.balance(bob.accounts.USD)).toBe(0);
    await ledgerOk();
  });

  it('refuses to execute once an account of the quote closed: payee deleted, external account deleted', async () => {
    const { ada, bob, q } = await m.usdQuote(1_000, 5_000);
    expect((await api.delete(`/customers/${bob.id}`)).status).toBe(200);
    const toDeleted = await api.post(`/quotes/${q.id}/execute`);
    expect({ status: toDeleted.status, code: toDeleted.body.code }).toEqual({
      status: 409,
      code: 'ACCOUNT_NOT_ACTIVE',
    });
    const ext = await m.external(ada.id, 'USD', '0000');
    const payout = (await m.accountQuote(ada.accounts.USD, ext, 1_000)).body;
    expect((await api.delete(`/customers/external-accounts/${ext}`)).status).toBe(204);
    const toRemoved = await api.post(`/quotes/${payout.id}/execute`);
    expect({ status: toRemoved.status, code: toRemoved.body.code }).toEqual({
      status: 409,
      code: 'ACCOUNT_NOT_ACTIVE',
    });
    // Refused before the hold: nothing moved, and both quotes are still PENDING.
    expect(await m.balance(ada.accounts.USD)).toBe(5_000);
    for (const quote of [q, payout]) expect((await m.transaction(quote.transactionId)).status).toBe('PENDING');
    await ledgerOk();
  });

  it('expires an unexecuted quote by its durable timer', async () => {
    const { q } = await m.usdQuote(1_000);
    await m.advance(301);
    await m.eventually(q.transactionId, 'EXPIRED');
    expect((await api.get(`/quotes/${q.id}`)).body.status).toBe('EXPIRED');
  });

  it('documents every money-movement route in the OpenAPI document', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).body;
    const routes: [string, string][] = [
      ['/exchange-rates', 'get'],
      ['/receiver/uma/{receiverUmaAddress}', 'get'],
      ['/receiver/external-account/{accountId}', 'get'],
      ['/quotes', 'post'],
      ['/quotes', 'get'],
      ['/quotes/{quoteId}', 'get'],
      ['/quotes/{quoteId}/execute', 'post'],
      ['/transactions', 'get'],
      ['/transactions/{transactionId}', 'get'],
      ['/transactions/{transactionId}/approve', 'post'],
      ['/transactions/{transactionId}/reject', 'post'],
      ['/transfer-in', 'post'],
      ['/transfer-out', 'post'],
      ['/sandbox/send', 'post'],
      ['/sandbox/uma/receive', 'post'],
      ['/sandbox/clock', 'get'],
      ['/sandbox/clock/advance', 'post'],
    ];
    for (const [path, verb] of routes)
      expect({ path, verb, documented: Boolean(doc.paths[path]?.[verb]?.summary) }).toEqual({
        path,
        verb,
        documented: true,
      });
    for (const [path, verb] of [
      ['/quotes', 'post'],
      ['/quotes/{quoteId}/execute', 'post'],
      ['/transfer-in', 'post'],
      ['/transfer-out', 'post'],
    ]) {
      expect(doc.paths[path][verb].parameters.map((p: any) => p.name)).toContain('Idempotency-Key');
    }
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([A-Za-z0-9_]+)"/g)].map((r) => r[1]);
    for (const name of new Set(refs))
      expect({ name, defined: Boolean(doc.components.schemas[name]) }).toEqual({ name, defined: true });
    expect(doc.paths['/transactions'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining([
        'customerId',
        'platformCustomerId',
        'accountIdentifier',
        'status',
        'type',
        'reference',
        'startDate',
        'endDate',
        'limit',
        'cursor',
        'sortOrder',
      ]),
    );
  });

  it('validates the body and the amounts', async () => {
    const { ada, bob } = await m.payerAndPayee();
    const bad = await m.quote(accountQuoteBody(ada.accounts.USD, bob.accounts.USD, 9_000_000_000_000_001));
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: any) => e.field)).toContain('lockedCurrencyAmount');
    const extra = await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 100, { unknown: 1 });
    expect(extra.status).toBe(400);
    const same = await m.accountQuote(ada.accounts.USD, ada.accounts.USD, 100);
    expect(same.status).toBe(400);
    const purpose = await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 100, { purposeOfPayment: 'BRIBE' });
    expect(purpose.status).toBe(400);
    const other = await t.otherPlatform();
    const foreign = await other.api.get(
      `/quotes/${(await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 100)).body.id}`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('QUOTE_NOT_FOUND');
  });
});
