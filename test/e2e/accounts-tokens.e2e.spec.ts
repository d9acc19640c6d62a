import vm from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import { basicAuth, client } from '../support/service.js';
import { uniqueValue } from '../support/sequence.js';
import { useTestService } from '../support/fixture.js';

/** The docs page is plain HTML with one inline script; a syntax error there would leave it blank. */
function expectValidScript(html: string) {
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
  expect(script).toBeDefined();
  expect(() => new Function(script!)).not.toThrow();
}

describe('internal accounts, sandbox funding and API tokens over HTTP', () => {
  const t = useTestService();
  const api = t.api;

  const customerWithAccount = async (currency = 'USD') => {
    const c = (
      await api.post('/customers', {
        platformCustomerId: uniqueValue('acct'),
        customerType: 'INDIVIDUAL',
        currencies: [currency],
      })
    ).body;
    const account = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`)).body.data[0];
    return { customer: c, account };
  };

  it('lists the platform settlement accounts separately from customer accounts', async () => {
    const platform = await api.get('/platform/internal-accounts?limit=100');
    expect(platform.status).toBe(200);
    expect(platform.body.totalCount).toBeGreaterThanOrEqual(10);
    expect(platform.body.data.every((a: any) => a.customerId === undefined)).toBe(true);
    const usd = await api.get('/platform/internal-accounts?currency=USD');
    expect(usd.body.totalCount).toBe(1);
    expect(usd.body.data[0]).toMatchObject({
      type: 'INTERNAL_FIAT',
      status: 'ACTIVE',
      balance: { amount: 0, currency: { code: 'USD', decimals: 2, symbol: '$' } },
    });
    const crypto = await api.get('/platform/internal-accounts?type=INTERNAL_CRYPTO');
    expect(crypto.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['BTC', 'USDC']);
  });

  it('funds an account as a balanced transfer from the settlement account', async () => {
    const { account } = await customerWithAccount('EUR');
    const funded = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 12345 });
    expect(funded.status).toBe(200);
    expect(funded.body.balance.amount).toBe(12345);
    await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 55 });
    expect((await api.get(`/internal-accounts/${account.id}`)).body.balance.amount).toBe(12400);
    const settlement = (await api.get('/platform/internal-accounts?currency=EUR')).body.data[0];
    expect(settlement.balance.amount).toBe(-12400);
  });

  it('refuses bad funding requests and changes nothing', async () => {
    const { account } = await customerWithAccount();
    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: 1.5 }, { amount: '100' }, {}, { amount: 2 ** 53 }]) {
      const res = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.details.errors[0].field).toBe('amount');
    }
    const settlement = (await api.get('/platform/internal-accounts?currency=USD')).body.data[0];
    expect((await api.post(`/sandbox/internal-accounts/${settlement.id}/fund`, { amount: 5 })).status).toBe(400);
    expect(
      (
        await api.post('/sandbox/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000abc/fund', {
          amount: 5,
        })
      ).status,
    ).toBe(404);
    expect((await api.get(`/internal-accounts/${account.id}`)).body.balance.amount).toBe(0);
    const other = await t.otherPlatform();
    expect((await other.api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 5 })).status).toBe(404);
    expect((await other.api.get(`/internal-accounts/${account.id}`)).status).toBe(404);
    const production = await t.otherPlatform({ sandbox: false });
    expect((await production.api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 5 })).status).toBe(
      403,
    );
  });

  it('refuses funding an account whose holder is not approved', async () => {
    const c = (
      await api.post('/customers', {
        platformCustomerId: 'pending-kyc',
        customerType: 'INDIVIDUAL',
        fullName: 'Lee Park001',
      })
    ).body;
    const account = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`)).body.data[0];
    const res = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 5 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ACCOUNT_NOT_ACTIVE');
  });

  it('opens further accounts and refuses duplicates and mismatched types', async () => {
    const { customer } = await customerWithAccount('USD');
    const opened = await api.post('/customers/internal-accounts', {
      customerId: customer.id,
      type: 'INTERNAL_CRYPTO',
      currency: 'BTC',
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      customerId: customer.id,
      type: 'INTERNAL_CRYPTO',
      balance: { currency: { code: 'BTC', decimals: 8 } },
    });
    expect(
      (
        await api.post('/customers/internal-accounts', {
          customerId: customer.id,
          type: 'INTERNAL_CRYPTO',
          currency: 'BTC',
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await api.post('/customers/internal-accounts', {
          customerId: customer.id,
          type: 'INTERNAL_FIAT',
          currency: 'BTC',
        })
      ).status,
    ).toBe(400);
    expect(
      (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=INTERNAL_CRYPTO`))
        .body.totalCount,
    ).toBe(1);
  });

  it('manages API tokens: secret once, hashed, revocable, last one kept', async () => {
    const created = await api.post('/tokens', { name: 'ci' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'ci', status: 'ACTIVE' });
    expect(created.body.clientSecret).toEqual(expect.any(String));
    expect(created.body.secretHash).toBeUndefined();
    const fresh = client(t.url, basicAuth(created.body.id, created.body.clientSecret));
    expect((await fresh.get('/customers')).status).toBe(200);
    const got = await api.get(`/tokens/${created.body.id}`);
    expect(got.body.clientSecret).toBeUndefined();
    expect(got.body.secretHash).toBeUndefined();
    const list = await api.get('/tokens');
    expect(list.body.data.map((x: any) => x.id)).toContain(created.body.id);
    expect((await api.delete(`/tokens/${created.body.id}`)).status).toBe(204);
    const revoked = await fresh.get('/customers');
    expect(revoked.status).toBe(401);
    expect(revoked.body.reason).toBe('the API token was revoked');
    expect((await api.post('/tokens', {})).status).toBe(400);

    const other = await t.otherPlatform();
    const otherTokens = (await other.api.get('/tokens')).body.data;
    expect(otherTokens).toHaveLength(1);
    const last = await other.api.delete(`/tokens/${otherTokens[0].id}`);
    expect(last.status).toBe(409);
    expect((await other.api.get(`/tokens/${created.body.id}`)).status).toBe(404);
  });

  it('serves the operations dashboard to an authenticated platform', async () => {
    expect((await t.anonymous.get('/audit/overview')).status).toBe(401);
    const page = await t.anonymous.get('/dashboard');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('Operations console');
    // Every file the page references is served from the same controller and parses as what it is.
    const refs = [...String(page.body).matchAll(/(?:src|href)="dashboard\/assets\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(['console.css', 'chart.umd.js', 'main.js']));
    for (const name of [...refs, 'api.js', 'format.js', 'views.js', 'charts.js']) {
      const file = await t.anonymous.get(`/dashboard/assets/${name}`);
      expect({ name, status: file.status }).toEqual({ name, status: 200 });
      if (!name.endsWith('.js')) continue;
      expect(file.headers.get('content-type')).toContain('text/javascript');
      if (name === 'chart.umd.js') expectValidScript(`<script>${file.body}</script>`);
      else expect(() => new vm.SourceTextModule(String(file.body))).not.toThrow();
    }
    expect((await t.anonymous.get('/dashboard/assets/..%2Fpackage.json')).status).toBe(404);
    expect((await t.anonymous.get('/dashboard/assets/constructor')).status).toBe(404);
    const overview = await api.get('/audit/overview');
    expect(overview.status).toBe(200);
    expect(overview.body.projections.lag).toBe('0');
    expect(Number(overview.body.eventLog.headPosition)).toBeGreaterThan(0);
    expect(overview.body.counts.customers).toBeGreaterThan(0);
    expect(overview.body.settlementBalances.find((b: any) => b.currency === 'EUR').amount).toBe(-12400);
    expect(overview.body.recentEvents.map((e: any) => e.type)).toContain('TransferCreated');
    // The platform's newest events of the log, newest first.
    const positions = overview.body.recentEvents.map((e: any) => BigInt(e.position));
    expect(positions.every((p: bigint, i: number) => i === 0 || p < positions[i - 1])).toBe(true);
    expect(positions.length).toBeGreaterThan(0);
    expect(overview.body.webhookDeliveries).toEqual({ PENDING: 0, DELIVERED: 0, FAILED: 0, DEAD: 0 });
    const idle = { waiting: 0, delayed: 0, active: 0, dead: 0 };
    expect(Object.keys(overview.body.queues).sort()).toEqual([
      'bulk-imports',
      'card-provisioning',
      'timers',
      'webhooks',
    ]);
    for (const depth of Object.values(overview.body.queues))
      expect(Object.keys(depth as object).sort()).toEqual(Object.keys(idle).sort());
    // The log head and the read models' position are the platform's own: its newest event.
    expect(overview.body.eventLog.headPosition).toBe(overview.body.recentEvents[0].position);
    expect(overview.body.projections.position).toBe(overview.body.recentEvents[0].position);
    // Another platform sees its own counts and none of this platform's events; its activity moves none of this
    // platform's figures.
    const otherPlatform = await t.otherPlatform();
    expect(
      (
        await otherPlatform.api.post('/customers', {
          platformCustomerId: uniqueValue('other'),
          customerType: 'INDIVIDUAL',
          currencies: ['USD'],
        })
      ).status,
    ).toBe(201);
    const other = await otherPlatform.api.get('/audit/overview');
    const again = await api.get('/audit/overview');
    expect(again.body.eventLog).toEqual(overview.body.eventLog);
    expect(again.body.projections).toEqual(overview.body.projections);
    expect(BigInt(other.body.eventLog.headPosition)).toBeGreaterThan(BigInt(overview.body.eventLog.headPosition));
    expect(
      other.body.recentEvents.every(
        (e: any) => !overview.body.recentEvents.some((m: any) => m.position === e.position),
      ),
    ).toBe(true);
    expect(other.body.counts.customers).toBe(1);
  });

  it('serves the OpenAPI document and the docs page without credentials', async () => {
    const doc = await t.anonymous.get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    for (const path of [
      '/customers',
      '/customers/{customerId}',
      '/customers/internal-accounts',
      '/platform/internal-accounts',
      '/tokens',
      '/sandbox/internal-accounts/{accountId}/fund',
    ]) {
      expect(doc.body.paths[path]).toBeDefined();
    }
    const createCustomer = doc.body.paths['/customers'].post;
    expect(createCustomer.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreateCustomerDto',
    );
    expect(doc.body.components.schemas.CreateCustomerDto.properties.customerType.enum).toEqual([
      'INDIVIDUAL',
      'BUSINESS',
    ]);
    expect(doc.body.paths['/customers'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'platformCustomerId', 'isIncludingDeleted']),
    );
    // What the service POSTs to endpoints: each family of webhook types with its payload schema.
    expect(Object.keys(doc.body.webhooks).sort()).toEqual(
      ['agent-action', 'bank-reconciliation', 'bulk-upload', 'card', 'customer', 'incoming-payment', 'internal-account']
        .concat(['invitation', 'outgoing-payment', 'test', 'verification'])
        .sort(),
    );
    const card = doc.body.webhooks.card.post.requestBody.content['application/json'].schema;
    expect(card.allOf[1].properties.data).toEqual({ $ref: '#/components/schemas/Card' });
    const page = await t.anonymous.get('/docs');
    expect(page.status).toBe(200);
    // Swagger UI from the installed package, started by docs.js over the document (test/e2e/docs.browser renders it).
    expect(String(page.body)).toContain('/docs/assets/swagger-ui-bundle.js');
    const init = await t.anonymous.get('/docs/assets/docs.js');
    expect(String(init.body)).toContain('openapi.json');
    expectValidScript(`<script>${init.body}</script>`);
    expect((await api.get('/no-such-route')).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
