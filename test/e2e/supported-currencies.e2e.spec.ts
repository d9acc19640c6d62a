import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { startTestService, type Client, type TestService } from '../support/service.js';
import { agents, policy } from './agents-support.js';
import { fundingQuoteBody, money, type Customer } from './money-support.js';

/** Quotes and transfers move money only in the currencies of the platform's `supportedCurrencies` (GET /config). */
describe('supportedCurrencies enforced where money moves', () => {
  /** The body of a transfer between two accounts (`amount` left out when not given). */
  const move = (source: string, destination: string, amount?: number) => ({
    source: { accountId: source },
    destination: { accountId: destination },
    ...(amount === undefined ? {} : { amount }),
  });
  let t: TestService;
  let api: Client;
  let m: ReturnType<typeof money>;
  let payer: Customer;
  let eurExternal: string;
  let usdExternal: string;

  const offer = (currencyCode: string) => ({
    currencyCode,
    minAmount: 1,
    maxAmount: 100_000_000,
    requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
    enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
  });
  const refused = (res: { status: number; body: any }, field: string) =>
    expect({
      status: res.status,
      code: res.body.code,
      fields: res.body.details?.errors?.map((e: any) => e.field),
    }).toEqual({ status: 400, code: 'INVALID_CURRENCY', fields: [field] });
  const counts = async () => ({
    quotes: (await api.get('/quotes?limit=100')).body.data.length,
    transactions: (await api.get(`/transactions?customerId=${payer.id}`)).body.data.length,
    usd: await m.balance(payer.accounts.USD),
    eur: await m.balance(payer.accounts.EUR),
  });

  beforeAll(async () => {
    t = await startTestService({ clock: new ManualClock(Date.UTC(2026, 4, 2, 10)) });
    ({ api } = await t.otherPlatform());
    m = money(t, api);
    payer = await m.customer(['USD', 'EUR']);
    await m.fund(payer.accounts.USD, 50_000);
    await m.fund(payer.accounts.EUR, 50_000);
    usdExternal = await m.external(payer.id, 'USD', '888');
    eurExternal = await m.external(payer.id, 'EUR', '888');
    const res = await api.patch('/config', { supportedCurrencies: [offer('USD')] });
    expect(res.status).toBe(200);
    expect(res.body.supportedCurrencies.map((c: any) => c.currencyCode)).toEqual(['USD']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a quote whose sending or receiving currency the platform does not offer is 400 and records nothing', async () => {
    const before = await counts();
    refused(await m.accountQuote(payer.accounts.EUR, usdExternal, 1_000), 'source.accountId');
    refused(await m.accountQuote(payer.accounts.USD, payer.accounts.EUR, 1_000), 'destination.accountId');
    refused(await m.quote(fundingQuoteBody(payer.id, 'EUR', payer.accounts.USD, 'SENDING', 1_000)), 'source.currency');
    expect(await counts()).toEqual(before);
    const usd = await m.accountQuote(payer.accounts.USD, usdExternal, 1_000);
    expect(usd.status).toBe(201);
  });

  it('a transfer in a currency the platform does not offer is 400 and moves nothing', async () => {
    const before = await counts();
    const out = await api.post('/transfer-out', move(payer.accounts.EUR, eurExternal, 1_000));
    refused(out, 'source.accountId');
    const whole = await api.post('/transfer-out', move(payer.accounts.EUR, eurExternal));
    refused(whole, 'source.accountId');
    const into = await api.post('/transfer-in', move(eurExternal, payer.accounts.EUR, 1_000));
    refused(into, 'destination.accountId');
    expect(await counts()).toEqual(before);
    const usd = await api.post('/transfer-out', move(payer.accounts.USD, usdExternal, 1_000));
    expect(usd.status).toBe(201);
  });

  it('an agent’s transfer in such a currency is 400 before its policy reserves anything', async () => {
    const a = agents(t, api);
    const { agent, deviceCode } = await a.create(payer.id, policy());
    const me = a.bearer((await a.redeem(deviceCode.code)).body.accessToken);
    const before = await counts();
    const res = await me.post('/agents/me/transfer-out', move(payer.accounts.EUR, eurExternal, 1_000));
    refused(res, 'source.accountId');
    expect((await me.get('/agents/me/actions')).body.data).toEqual([]);
    expect((await api.get(`/agents/${agent.id}`)).body.usage).toMatchObject({ dailyTransactionCount: 0 });
    expect(await counts()).toEqual(before);
  });

  it('a currency offered again moves money again', async () => {
    expect((await api.patch('/config', { supportedCurrencies: [offer('USD'), offer('EUR')] })).status).toBe(200);
    const res = await m.accountQuote(payer.accounts.EUR, payer.accounts.USD, 1_000);
    expect(res.status).toBe(201);
  });
});
