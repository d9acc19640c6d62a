import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueValue } from '../support/sequence.js';
import type { Client } from '../support/service.js';
import {
  pointWebhooksAt,
  startWebhookReceiver,
  waitForDelivery,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';
import { money } from './money-support.js';
import { useTestService } from '../support/fixture.js';
import { cli, cliFailure as failure, cliJson as json } from '../support/cli.js';

describe('the operators’ CLI', () => {
  const t = useTestService();
  const api = t.api;
  let platformA: string;
  let other: { platformId: string; api: Client };
  let production: { platformId: string; api: Client };

  beforeAll(async () => {
    platformA = t.service.sandbox!.platformId;
    other = await t.otherPlatform();
    production = await t.otherPlatform({ sandbox: false });
  });

  it('creates platforms and tokens and lists platforms, as JSON with --json and as text without', async () => {
    const created = await json(t.dataDir, 'platform:create', '--name', 'Ops', '--sandbox');
    expect(created).toEqual({
      platformId: expect.stringMatching(/^Platform:/),
      tokenId: expect.stringMatching(/^ApiToken:/),
      clientSecret: expect.any(String),
    });
    const token = await json(t.dataDir, 'token:create', '--platform', created.platformId, '--name', 'ops');
    expect(token).toEqual({
      platformId: created.platformId,
      tokenId: expect.stringMatching(/^ApiToken:/),
      clientSecret: expect.any(String),
    });

    const listed = await json(t.dataDir, 'platforms:list');
    expect(listed.map((p: any) => p.id)).toEqual(expect.arrayContaining([platformA, other.platformId]));
    const text = await cli(t.dataDir, 'platforms:list');
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^platform\s+name\s+sandbox\s+created$/);
    expect(text.stdout).toContain(platformA);

    const unknown = 'Platform:00000000-0000-4000-8000-000000000000';
    expect(await failure(t.dataDir, 'token:create', '--platform', unknown)).toEqual({
      status: 1,
      error: { status: 404, code: 'PLATFORM_NOT_FOUND', message: `platform ${unknown} not found` },
    });
    const usage = await cli(t.dataDir, 'token:create');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^error: token:create needs --platform Platform:<uuid>\n\nusage:/);
  });

  it('lists customers as GET /customers does, with its filters, limit and cursor, within the platform', async () => {
    // A platform of its own: the counts are of its customers only.
    const mine = await t.otherPlatform();
    const ids: string[] = [];
    for (const region of ['NL', 'ES', 'NL']) {
      const res = await mine.api.post('/customers', {
        customerType: 'INDIVIDUAL',
        platformCustomerId: uniqueValue('cli-list'),
        region,
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    expect(
      (await other.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'elsewhere' })).status,
    ).toBe(201);

    const first = await json(t.dataDir, 'customers:list', '--platform', mine.platformId, '--limit', '2');
    expect(first).toEqual((await mine.api.get('/customers?limit=2')).body);
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    const next = await json(
      t.dataDir,
      'customers:list',
      '--platform',
      mine.platformId,
      '--limit',
      '2',
      '--cursor',
      first.nextCursor,
    );
    expect(next).toEqual(
      (await mine.api.get(`/customers?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).body,
    );
    const spanish = await json(
      t.dataDir,
      'customers:list',
      '--platform',
      mine.platformId,
      '--region',
      'ES',
      '--customer-type',
      'INDIVIDUAL',
    );
    expect(spanish).toEqual((await mine.api.get('/customers?region=ES&customerType=INDIVIDUAL')).body);
    expect(spanish.data.map((c: any) => c.id)).toEqual([ids[1]]);

    const elsewhere = await json(
      t.dataDir,
      'customers:list',
      '--platform',
      mine.platformId,
      '--platform-customer-id',
      'elsewhere',
    );
    expect(elsewhere).toMatchObject({ data: [], hasMore: false, totalCount: 0 });

    const refused = await failure(t.dataDir, 'customers:list', '--platform', mine.platformId, '--limit', '0');
    expect(refused.status).toBe(1);
    expect(refused.error).toEqual((await mine.api.get('/customers?limit=0')).body);
    expect(refused.error.code).toBe('INVALID_INPUT');

    const text = await cli(t.dataDir, 'customers:list', '--platform', mine.platformId, '--limit', '2');
    // The first page as the API gives it (the three share one creation time: the id orders them).
    for (const customer of first.data as { id: string }[]) expect(text.stdout).toContain(customer.id);
    expect(text.stdout.trim().split('\n').pop()).toBe(
      `2 of ${first.totalCount}; next page: --cursor ${first.nextCursor}`,
    );
  });

  it('searches customers by id, platformCustomerId, email (any case) or UMA address, on one platform', async () => {
    const platformCustomerId = uniqueValue('cli-search');
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId,
      email: 'Grace.Hopper@Example.com',
      umaAddress: `$${platformCustomerId}@sandbox.uma.local`,
    });
    expect(created.status).toBe(201);
    const customer = (await api.get(`/customers/${created.body.id}`)).body;
    const search = (term: string) => json(t.dataDir, 'customers:search', '--platform', platformA, term);
    for (const term of [customer.id, platformCustomerId, 'grace.hopper@example.COM', customer.umaAddress])
      expect(await search(term)).toEqual({ data: [customer] });
    expect(await search('nobody@example.com')).toEqual({ data: [] });

    const theirs = (
      await other.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: uniqueValue('x') })
    ).body;
    expect(await failure(t.dataDir, 'customers:search', '--platform', platformA, theirs.id)).toEqual({
      status: 1,
      error: (await api.get(`/customers/${theirs.id}`)).body,
    });
    expect(await search(theirs.platformCustomerId)).toEqual({ data: [] });
    const text = await cli(t.dataDir, 'customers:search', '--platform', platformA, theirs.id);
    expect({ status: text.status, stdout: text.stdout }).toEqual({ status: 1, stdout: '' });
    expect(text.stderr).toBe(`error: CUSTOMER_NOT_FOUND: customer ${theirs.id} not found\n`);
  });

  it('shows a transaction as the API renders it with its ledger legs; another platform’s is not found', async () => {
    const m = money(t);
    const [alice, bob] = [await m.customer(['USD']), await m.customer(['USD'])];
    await m.fund(alice.accounts.USD, 5_000);
    const quote = (await m.accountQuote(alice.accounts.USD, bob.accounts.USD, 1_200)).body;
    expect((await api.post(`/quotes/${quote.id}/execute`)).status).toBe(200);
    const completed = await m.eventually(quote.transactionId, 'COMPLETED');

    const shown = await json(t.dataDir, 'transactions:show', '--platform', platformA, completed.id);
    expect(shown.transaction).toEqual((await api.get(`/transactions/${completed.id}`)).body);
    expect(shown.ledger).toEqual((await api.get(`/audit/transactions/${completed.id}/ledger?limit=100`)).body.data);
    expect(shown.ledger.length).toBeGreaterThan(0);
    expect(shown.ledger.map((l: any) => l.leg.kind)).toContain('PENDING');

    expect(await failure(t.dataDir, 'transactions:show', '--platform', other.platformId, completed.id)).toEqual({
      status: 1,
      error: (await other.api.get(`/transactions/${completed.id}`)).body,
    });
    const text = await cli(t.dataDir, 'transactions:show', '--platform', platformA, completed.id);
    expect(text.stdout).toMatch(new RegExp(`^id\\s+${completed.id}$`, 'm'));
    expect(text.stdout).toContain('ledger legs:');
  });

  describe('webhooks:redeliver', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver('error');
    });
    afterAll(async () => receiver?.close());

    it('queues a failed delivery again: a new attempt reaches the endpoint; not another platform’s', async () => {
      await pointWebhooksAt(api, receiver);
      expect((await api.post('/sandbox/webhooks/test')).body).toMatchObject({ details: { response_status: 500 } });
      const [failed] = (await api.get('/webhooks/deliveries?type=TEST&status=FAILED')).body.data;
      expect(failed).toMatchObject({ attemptCount: 1, redeliveries: 0 });
      await receiver.setMode('ok');

      expect(await failure(t.dataDir, 'webhooks:redeliver', '--platform', other.platformId, failed.id)).toEqual({
        status: 1,
        error: { status: 404, code: 'WEBHOOK_DELIVERY_NOT_FOUND', message: `webhook delivery ${failed.id} not found` },
      });
      const redelivered = await json(t.dataDir, 'webhooks:redeliver', '--platform', platformA, failed.id);
      expect(redelivered).toMatchObject({ id: failed.id, webhookId: failed.webhookId, redeliveries: 1 });
      const delivered = await waitForDelivery(api, failed.id, 'DELIVERED');
      expect(delivered).toMatchObject({ attemptCount: 2, redeliveries: 1, lastStatusCode: 200 });
      expect(delivered.attempts.map((a: any) => [a.attempt, a.outcome])).toEqual([
        [1, 'FAILED'],
        [1, 'DELIVERED'],
      ]);
      expect(receiver.requests.filter((r) => r.json?.id === failed.webhookId).map((r) => r.answered)).toEqual([
        500, 200,
      ]);

      const again = await failure(t.dataDir, 'webhooks:redeliver', '--platform', platformA, failed.id);
      expect(again).toEqual({ status: 1, error: (await api.post(`/webhooks/deliveries/${failed.id}/redeliver`)).body });
      expect(again.error.code).toBe('INVALID_STATE_TRANSITION');
    });
  });

  it('reads and advances a sandbox platform’s clock; refuses a production platform as the API does', async () => {
    const before = await json(t.dataDir, 'sandbox:clock', '--platform', other.platformId);
    expect(before).toEqual({ now: expect.any(String), offsetMs: 0 });
    const advanced = await json(
      t.dataDir,
      'sandbox:clock:advance',
      '--platform',
      other.platformId,
      '--seconds',
      '3600',
    );
    expect(advanced).toEqual({ now: expect.any(String), offsetMs: 3_600_000, promotedJobs: expect.any(Number) });
    expect((await other.api.get('/sandbox/clock')).body.offsetMs).toBe(3_600_000);
    expect((await api.get('/sandbox/clock')).body.offsetMs).toBe(0);

    const refused = await failure(
      t.dataDir,
      'sandbox:clock:advance',
      '--platform',
      production.platformId,
      '--seconds',
      '60',
    );
    expect(refused).toEqual({
      status: 1,
      error: (await production.api.post('/sandbox/clock/advance', { seconds: 60 })).body,
    });
    expect(refused.error).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await json(t.dataDir, 'sandbox:clock', '--platform', production.platformId)).toEqual({
      now: expect.any(String),
      offsetMs: 0,
    });
    const invalid = await failure(
      t.dataDir,
      'sandbox:clock:advance',
      '--platform',
      other.platformId,
      '--seconds',
      '1.5',
    );
    expect(invalid.error).toEqual((await other.api.post('/sandbox/clock/advance', { seconds: 1.5 })).body);
    const text = await cli(t.dataDir, 'sandbox:clock:advance', '--platform', production.platformId, '--seconds', '60');
    expect({ status: text.status, stdout: text.stdout }).toEqual({ status: 1, stdout: '' });
    expect(text.stderr).toBe(`error: FORBIDDEN: ${refused.error.message}\n`);
  });
});
