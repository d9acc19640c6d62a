import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { useTestService } from '../support/fixture.js';
import { money } from './money-support.js';

const START = Date.UTC(2026, 2, 4, 9);
const ada = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };

/**
 * Currency codes are free ISO 4217-shaped strings, as in the public API, in the 13 inputs that take one; the
 * service's supported set is enforced where money moves (400 INVALID_CURRENCY, the public API's code).
 */
describe('currency codes', () => {
  const clock = new ManualClock(START);
  const t = useTestService({ clock });

  it('filters by any well-formed code: one nobody uses matches nothing', async () => {
    const m = money(t);
    await m.customer(['USD']);
    for (const path of [
      '/customers?currency=JPY',
      '/customers/internal-accounts?currency=JPY',
      '/platform/internal-accounts?currency=JPY',
      '/customers/external-accounts?currency=KES',
      '/platform/external-accounts?currency=KES',
    ]) {
      const res = await t.api.get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 200,
        body: { data: [], hasMore: false, totalCount: 0 },
      });
    }
    expect((await t.api.get('/exchange-rates?sourceCurrency=JPY')).body).toEqual({ data: [] });
    const some = await t.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=JPY&destinationCurrency=EUR');
    expect(some.status).toBe(200);
    expect(new Set(some.body.data.map((r: any) => r.destinationCurrency.code))).toEqual(new Set(['EUR']));
    for (const path of [
      '/customers?currency=usd',
      '/exchange-rates?sourceCurrency=US',
      '/customers/internal-accounts?currency=1',
    ]) {
      const res = await t.api.get(path);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'INVALID_INPUT' });
    }
  });

  it('stores an external account in any currency its type holds', async () => {
    const m = money(t);
    const c = await m.customer(['USD']);
    const kes = await t.api.post('/customers/external-accounts', {
      customerId: c.id,
      currency: 'KES',
      accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'M-PESA', beneficiary: ada },
    });
    expect(kes.status).toBe(201);
    expect(kes.body).toMatchObject({ currency: 'KES', accountInfo: { accountType: 'KES_ACCOUNT' } });
    const listed = await t.api.get('/customers/external-accounts?currency=KES');
    expect(listed.body.data.map((a: any) => a.id)).toEqual([kes.body.id]);
  });

  it('refuses a currency the service does not move money in with 400 INVALID_CURRENCY', async () => {
    const m = money(t);
    const expectInvalid = (res: { status: number; body: any }, field: string) =>
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: expect.objectContaining({
          status: 400,
          code: 'INVALID_CURRENCY',
          message: expect.stringContaining('JPY'),
          details: { errors: [expect.objectContaining({ field })] },
        }),
      });
    const created = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'yen-1',
      currencies: ['USD', 'JPY'],
    });
    expectInvalid(created, 'currencies[1]');
    expect((await t.api.get('/customers?platformCustomerId=yen-1')).body.totalCount).toBe(0);
    const c = await m.customer(['USD']);
    expectInvalid(await t.api.patch(`/customers/${c.id}`, { currencies: ['JPY'] }), 'currencies[0]');
    const quoteId = 'Quote:00000000-0000-4000-8000-000000000001';
    expectInvalid(await t.api.post('/sandbox/send', { quoteId, currencyCode: 'JPY' }), 'currencyCode');
    const receive = await t.api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$alice@bank.example.com',
      customerId: c.id,
      receivingCurrencyCode: 'JPY',
      receivingCurrencyAmount: 100,
    });
    expectInvalid(receive, 'receivingCurrencyCode');
    // A payout to an account held in a currency the service does not trade in is refused, never a 5xx.
    const yen = await t.api.post('/customers/external-accounts', {
      customerId: c.id,
      currency: 'JPY',
      accountInfo: {
        accountType: 'SWIFT_ACCOUNT',
        country: 'JP',
        swiftCode: 'MHCBJPJT',
        bankName: 'Mizuho',
        accountNumber: '1234567',
        beneficiary: ada,
      },
    });
    expect(yen.status).toBe(201);
    await m.fund(c.accounts.USD, 10_000);
    const quote = await m.accountQuote(c.accounts.USD, yen.body.id, 1_000);
    expect({ status: quote.status, code: quote.body.code }).toEqual({ status: 400, code: 'INVALID_CURRENCY' });
  });
});
