import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { basicAuth, client, type Client } from '../support/service.js';
import { money } from './money-support.js';
import { useTestService } from '../support/fixture.js';

const START = Date.UTC(2026, 2, 6, 9);

/** API tokens and GET/PATCH /config shaped as the public API. */
describe('API tokens and platform configuration', () => {
  const clock = new ManualClock(START);
  const t = useTestService({ clock, receiver: 'ok' });

  const tokenClient = (token: { clientId: string; clientSecret: string }): Client =>
    client(t.url, basicAuth(token.clientId, token.clientSecret));

  it('creates tokens with permissions and clientId, and lists them with the public API’s filters', async () => {
    const viewer = await t.api.post('/tokens', { name: 'Reporting', permissions: ['VIEW'] });
    expect(viewer.status).toBe(201);
    expect(viewer.body).toEqual({
      id: expect.stringMatching(/^ApiToken:/),
      name: 'Reporting',
      permissions: ['VIEW'],
      clientId: viewer.body.id,
      clientSecret: expect.any(String),
      status: 'ACTIVE',
      createdAt: new Date(START).toISOString(),
      updatedAt: new Date(START).toISOString(),
    });
    clock.advance(60_000);
    const payer = await t.api.post('/tokens', { name: 'Payouts', permissions: ['VIEW', 'TRANSACT'] });
    const all = await t.api.post('/tokens', { name: 'Backoffice' });
    expect(all.body.permissions).toEqual(['VIEW', 'TRANSACT', 'MANAGE']);
    expect((await t.api.get(`/tokens/${payer.body.id}`)).body).toMatchObject({
      permissions: ['VIEW', 'TRANSACT'],
      clientId: payer.body.id,
    });
    expect((await t.api.post('/tokens', { name: 'x', permissions: ['ADMIN'] })).status).toBe(400);
    expect((await t.api.post('/tokens', { name: 'x', permissions: [] })).status).toBe(400);

    const names = async (query: string) => {
      const res = await t.api.get(`/tokens?${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((x: any) => x.name);
    };
    expect(await names('name=Reporting')).toEqual(['Reporting']);
    const at = new Date(START + 30_000).toISOString();
    expect(await names(`createdBefore=${encodeURIComponent(at)}&name=Reporting`)).toEqual(['Reporting']);
    expect((await names(`createdAfter=${encodeURIComponent(at)}`)).sort()).toEqual(['Backoffice', 'Payouts']);
    expect(await names(`updatedAfter=${encodeURIComponent(at)}&name=Reporting`)).toEqual([]);
    expect((await t.api.get('/tokens?createdAfter=yesterday')).status).toBe(400);
  });

  it('enforces permissions: VIEW reads, TRANSACT pays, MANAGE changes (403 FORBIDDEN otherwise)', async () => {
    const m = money(t);
    const c = await m.customer(['USD']);
    const other = await m.customer(['USD']);
    await m.fund(c.accounts.USD, 5_000);
    const viewer = tokenClient((await t.api.post('/tokens', { name: 'v', permissions: ['VIEW'] })).body);
    const payer = tokenClient((await t.api.post('/tokens', { name: 'p', permissions: ['TRANSACT'] })).body);

    expect((await viewer.get(`/customers/${c.id}`)).status).toBe(200);
    expect((await viewer.get('/config')).status).toBe(200);
    const refused = await viewer.post('/customers', { customerType: 'INDIVIDUAL' });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await viewer.patch('/config', { umaDomain: 'other.example.com' })).status).toBe(403);
    expect((await viewer.post('/tokens', { name: 'escalate' })).status).toBe(403);

    expect((await payer.get(`/customers/${c.id}`)).status).toBe(403);
    expect((await payer.post('/customers', { customerType: 'INDIVIDUAL' })).status).toBe(403);
    const quote = await payer.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: c.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: other.accounts.USD },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect(quote.status).toBe(201);
  });

  it('GET /config has every field of the public API, with no webhookEndpoint while none is set', async () => {
    const res = await t.api.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: t.service.sandbox!.platformId,
      umaDomain: expect.any(String),
      proxyUmaSubdomain: expect.stringContaining('.'),
      isRegulatedFinancialInstitution: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body).not.toHaveProperty('webhookEndpoint');
    expect(res.body).not.toHaveProperty('embeddedWalletConfig');
    const usd = res.body.supportedCurrencies.find((c: any) => c.currencyCode === 'USD');
    expect(usd).toEqual({
      currencyCode: 'USD',
      minAmount: expect.any(Number),
      maxAmount: expect.any(Number),
      requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
      providerRequiredCustomerFields: ['FULL_NAME'],
      providerRequiredCounterpartyCustomerFields: ['FULL_NAME'],
      enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
    });
  });

  it('PATCH /config takes the writable fields as the public API shapes them', async () => {
    // A platform of its own: the sandbox platform's config is the GET test's subject.
    const own = await t.otherPlatform();
    clock.advance(60_000);
    const body = {
      umaDomain: 'pay.acme.example.com',
      webhookEndpoint: t.receiver.url,
      supportedCurrencies: [
        {
          currencyCode: 'USD',
          minAmount: 100,
          maxAmount: 1_000_000,
          enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
          requiredCounterpartyFields: [
            { name: 'FULL_NAME', mandatory: true },
            { name: 'BIRTH_DATE', mandatory: false },
          ],
        },
      ],
      embeddedWalletConfig: {
        appName: 'Acme Wallet',
        sendFromEmailAddress: 'noreply@acme.example.com',
        sendFromEmailSenderName: 'Acme Notifications',
        replyToEmailAddress: 'support@acme.example.com',
        logoUrl: 'https://acme.example.com/logo.png',
      },
    };
    const res = await own.api.patch('/config', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...body, updatedAt: new Date(clock.now()).toISOString() });
    expect(res.body.proxyUmaSubdomain).toMatch(/\.pay\.acme\.example\.com$/);
    // embeddedWalletConfig: omitted fields stay.
    const otp = await own.api.patch('/config', { embeddedWalletConfig: { otpLength: 8, alphanumeric: true } });
    expect(otp.body.embeddedWalletConfig).toEqual({ ...body.embeddedWalletConfig, otpLength: 8, alphanumeric: true });
    expect(otp.body.webhookEndpoint).toBe(t.receiver.url);
    // New customers' UMA addresses are generated in the new domain.
    const c = await own.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'new-domain' });
    expect(c.body.umaAddress).toBe('$new-domain@pay.acme.example.com');

    const invalid = async (patch: Record<string, unknown>, code: string) => {
      const r = await own.api.patch('/config', patch);
      expect({ patch, status: r.status, code: r.body.code }).toEqual({ patch, status: 400, code });
    };
    const usd = body.supportedCurrencies[0];
    await invalid({ supportedCurrencies: [{ ...usd, currencyCode: 'JPY' }] }, 'INVALID_CURRENCY');
    await invalid({ supportedCurrencies: [{ ...usd, minAmount: -1 }] }, 'INVALID_INPUT');
    await invalid({ supportedCurrencies: [{ currencyCode: 'USD' }] }, 'INVALID_INPUT');
    await invalid({ embeddedWalletConfig: { otpLength: 3 } }, 'INVALID_INPUT');
    await invalid({ umaDomain: 'not a domain' }, 'INVALID_INPUT');
    await invalid({ isRegulatedFinancialInstitution: true }, 'INVALID_INPUT');
    // The provider's required fields are read-only: shown with the platform's list, never stored with it.
    const readOnly = {
      providerRequiredCustomerFields: ['FULL_NAME'],
      providerRequiredCounterpartyCustomerFields: ['FULL_NAME'],
    };
    expect((await own.api.get('/config')).body.supportedCurrencies).toEqual(
      body.supportedCurrencies.map((c) => ({ ...c, ...readOnly })),
    );

    // A request refused for one of its fields changes none: here the endpoint stays as it was.
    const before = (await own.api.get('/config')).body;
    const rails = [{ currency: 'USD', account: { accountNumber: '1', routingNumber: '1' } }];
    const mixed = await own.api.patch('/config', { webhookEndpoint: null, rails });
    expect([mixed.status, mixed.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect((await own.api.get('/config')).body).toEqual(before);
    const refusedTogether = await own.api.patch('/config', { webhookEndpoint: null, umaDomain: 'not a domain' });
    expect(refusedTogether.status).toBe(400);
    expect((await own.api.get('/config')).body).toEqual(before);

    const off = await own.api.patch('/config', { webhookEndpoint: null });
    expect(off.status).toBe(200);
    expect(off.body).not.toHaveProperty('webhookEndpoint');
  });
});
