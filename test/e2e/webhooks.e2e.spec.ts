import { describe, expect, it } from '@jest/globals';
import { createPublicKey } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { streams } from '#domain/primitives.js';
import { ManualClock } from '#domain/clock.js';
import { UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import type { Client } from '../support/service.js';
import { useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import {
  pointWebhooksAt,
  startWebhookReceiver,
  type ReceivedRequest,
  waitForDelivery,
} from '../support/webhook-receiver.js';
import { steppedRequests } from '../support/stepped-requests.js';

const START = Date.UTC(2026, 1, 2, 9);

describe('webhooks: configuration, API and payloads (embedded stores)', () => {
  const clock = new ManualClock(START);

  // Each test configures a platform of its own (and its own receiver): config and deliveries are per platform.
  const t = useTestService({ clock, env: { WEBHOOK_TIMEOUT_MS: '500' } });

  const ofType = (type: string) => (requests: ReceivedRequest[]) => requests.filter((r) => r.json?.type === type);
  const step = steppedRequests(clock);
  const createCustomer = async (api: Client, body: Record<string, unknown> = {}) => {
    const customer = await step(201, () =>
      api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${clock.now().getTime()}`, ...body }),
    );
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
    return { customer, accountId: accounts.body.data[0].id as string };
  };
  const fund = (api: Client, accountId: string, amount: number) =>
    step(200, () => api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount }));

  it('has no endpoint and no keys before the first configuration', async () => {
    const { api } = await t.otherPlatform();
    const res = await api.get('/config');
    expect(res.status).toBe(200);
    // As in the public API, an unset endpoint is absent rather than null.
    expect(res.body).not.toHaveProperty('webhookEndpoint');
    expect(res.body).toMatchObject({ webhookSigningPublicKey: null, webhookSecret: null });
    expect(typeof res.body.createdAt).toBe('string');
  });

  it('validates PATCH /config and changes nothing on bad input', async () => {
    const { api, platformId } = await t.otherPlatform();
    const bad = [
      { webhookEndpoint: 42 },
      { webhookEndpoint: 'not a url' },
      { webhookEndpoint: 'ftp://example.com/hook' },
      { webhookEndpoint: 'https://user:pw@example.com/hook' },
      { webhookEndpoint: 'https://example.com/#x' },
      { webhookEndpoint: 'https://example.com', extra: true },
    ];
    for (const body of bad) {
      const res = await api.patch('/config', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'INVALID_INPUT' });
      expect(res.body.details.errors.length).toBeGreaterThan(0);
    }
    expect((await api.get('/config')).body.webhookEndpoint).toBeUndefined();
    expect(await t.service.infra.eventStore.readStream(streams.webhooks(platformId))).toEqual([]);
  });

  it('requires https on production platforms (allow-listed hosts too); sandbox platforms may use http', async () => {
    const production = await t.otherPlatform({ sandbox: false });
    const plain = await production.api.patch('/config', { webhookEndpoint: 'http://example.com/hook' });
    expect(plain.status).toBe(400);
    expect(plain.body.details.errors[0]).toMatchObject({ field: 'webhookEndpoint' });
    expect((await production.api.patch('/config', { webhookEndpoint: 'https://example.com/hook' })).status).toBe(200);
    expect((await production.api.patch('/config', { webhookEndpoint: 'http://127.0.0.1:9/hook' })).status).toBe(400);
    expect((await production.api.patch('/config', { webhookEndpoint: 'https://127.0.0.1:9/hook' })).status).toBe(200);
    expect((await production.api.patch('/config', { webhookEndpoint: 'https://localhost:9/hook' })).status).toBe(200);
    const sandbox = await t.otherPlatform();
    expect((await sandbox.api.patch('/config', { webhookEndpoint: 'http://example.com/hook' })).status).toBe(200);
  });

  it(
    'generates the signing material on first configuration, keeps it, and stores private parts ' + 'only sealed',
    async () => {
      const { api, platformId, receiver } = await t.webhookPlatform({ point: false });
      clock.advance(1000);
      const first = await pointWebhooksAt(api, receiver);
      expect(first.webhookEndpoint).toBe(receiver.url);
      const key = createPublicKey(first.webhookSigningPublicKey);
      expect(key.asymmetricKeyType).toBe('ec');
      expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
      expect(first.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(first.createdAt).toBe(clock.now().toISOString());
      clock.advance(1000);
      const again = await api.patch('/config', { webhookEndpoint: receiver.url });
      expect(again.body).toEqual(first); // same endpoint: nothing changes
      const other = await api.patch('/config', { webhookEndpoint: `${receiver.url}?v=2` });
      expect(other.body).toMatchObject({
        webhookSigningPublicKey: first.webhookSigningPublicKey,
        webhookSecret: first.webhookSecret,
        createdAt: first.createdAt,
        updatedAt: clock.now().toISOString(),
      });
      await pointWebhooksAt(api, receiver);

      const log = JSON.stringify(
        (await t.service.infra.eventStore.readStream(streams.webhooks(platformId))).map((e) => e.data),
      );
      expect(log).not.toContain(first.webhookSecret.slice('whsec_'.length));
      expect(log).not.toContain('PRIVATE KEY');
      expect(log).toContain('sealedPrivateKey');
      expect(statSync(join(t.dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    },
  );

  it('sends a TEST webhook synchronously, signed with both schemes, and records it', async () => {
    const { api, receiver } = await t.webhookPlatform();
    const res = await api.post('/sandbox/webhooks/test');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      response_status: 200,
      url: receiver.url,
      response_body: expect.stringContaining('"status":200'),
    });
    const test = ofType('TEST')(receiver.requests);
    expect(test).toHaveLength(1);
    const [request] = test;
    expect(request).toMatchObject({ method: 'POST', ecdsaValid: true, standardValid: true });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toBe(request.json!.id);
    expect(request.json).toEqual({
      id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/),
      type: 'TEST',
      timestamp: clock.now().toISOString(),
      data: expect.any(Object),
    });
    const listed = await api.get('/webhooks/deliveries?type=TEST');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      webhookId: request.json!.id,
      status: 'DELIVERED',
      attemptCount: 1,
      maxAttempts: 1,
      url: receiver.url,
      lastStatusCode: 200,
    });
    expect(listed.body.data[0].attempts[0]).toMatchObject({
      attempt: 1,
      statusCode: 200,
      outcome: 'DELIVERED',
      responseBody: expect.any(String),
    });
    expect(listed.body.data[0].payload).toEqual(request.json);
  });

  it('reports a failed TEST, never retries it, and redelivers it on request', async () => {
    const { api, receiver } = await t.webhookPlatform();
    await receiver.setMode('error');
    clock.advance(1000);
    const failed = await api.post('/sandbox/webhooks/test');
    const answer = { status: 400, code: 'WEBHOOK_DELIVERY_ERROR' };
    expect(failed.body).toMatchObject({ ...answer, details: { response_status: 500, url: receiver.url } });
    await receiver.setMode('refuse');
    clock.advance(1000);
    const refused = await api.post('/sandbox/webhooks/test');
    const unreachable = { response_status: 0, url: receiver.url, response_body: '', error: UNREACHABLE };
    expect(refused.body).toMatchObject({ ...answer, details: unreachable });
    await receiver.setMode('ok');

    const list = await api.get('/webhooks/deliveries?type=TEST&status=FAILED&sortOrder=asc');
    expect(list.body.data).toHaveLength(2);
    const [first] = list.body.data;
    expect(first).toMatchObject({ status: 'FAILED', attemptCount: 1, maxAttempts: 1, lastStatusCode: 500 });
    expect(list.body.data[1]).toMatchObject({ status: 'FAILED', attemptCount: 1, lastError: UNREACHABLE });
    const again = await api.post(`/webhooks/deliveries/${first.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('PENDING');
    await receiver.waitFor(
      (r) => r.some((x) => x.json?.id === first.webhookId && x.answered === 200),
      10_000,
      'the redelivered TEST',
    );
    const redelivered = receiver.requests.filter((x) => x.json?.id === first.webhookId);
    expect(redelivered.at(-1)!.body).toBe(JSON.stringify(first.payload));
    await waitForDelivery(api, first.id, 'DELIVERED');
    const conflict = await api.post(`/webhooks/deliveries/${first.id}/redeliver`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('answers 400 without an endpoint and 403 on production platforms', async () => {
    const sandbox = await t.webhookPlatform({ point: false });
    const none = await sandbox.api.post('/sandbox/webhooks/test');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
    const production = await t.otherPlatform({ sandbox: false });
    const https = sandbox.receiver.url.replace('http:', 'https:');
    expect((await production.api.patch('/config', { webhookEndpoint: https })).status).toBe(200);
    expect((await production.api.post('/sandbox/webhooks/test')).status).toBe(403);
  });

  it('sends INTERNAL_ACCOUNT.BALANCE_UPDATED with the balance right after each transfer', async () => {
    const { api, receiver } = await t.webhookPlatform();
    const { customer, accountId } = await createCustomer(api);
    await Promise.all([fund(api, accountId, 100), fund(api, accountId, 250), fund(api, accountId, 50)]);
    const mine = (r: ReceivedRequest[]) =>
      ofType('INTERNAL_ACCOUNT.BALANCE_UPDATED')(r).filter((x) => x.json!.data.id === accountId && x.answered === 200);
    await receiver.waitFor((r) => mine(r).length >= 3, 10_000, 'three balance webhooks');
    const received = mine(receiver.requests);
    const amounts = received.map((x) => x.json!.data.balance.amount).sort((a, b) => a - b);
    expect(new Set(amounts).size).toBe(3);
    expect(amounts[2]).toBe(400);
    // Each is the balance after one of the transfers, in some order: consecutive sums.
    const steps = [amounts[0], amounts[1] - amounts[0], amounts[2] - amounts[1]].sort((a, b) => a - b);
    expect(steps).toEqual([50, 100, 250]);
    for (const x of received) {
      expect(x).toMatchObject({ ecdsaValid: true, standardValid: true });
      expect(x.json!.data).toMatchObject({
        id: accountId,
        customerId: customer.id,
        type: 'INTERNAL_FIAT',
        status: 'ACTIVE',
        balance: { currency: { code: 'USD' } },
      });
      expect(x.json!.data.platformId).toBeUndefined();
      expect(x.json!.timestamp).toBe(x.json!.data.updatedAt);
    }
    // The platform's settlement account is not a customer account: no webhook for it.
    expect(ofType('INTERNAL_ACCOUNT.BALANCE_UPDATED')(receiver.requests).every((x) => x.json!.data.customerId)).toBe(
      true,
    );
  });

  it('sends CUSTOMER.KYC_<STATUS> when a verification changes the KYC status', async () => {
    const { api, receiver } = await t.webhookPlatform();
    const { customer } = await createCustomer(api, { fullName: 'Pat Smith001' });
    expect(customer.kycStatus).toBe('PENDING');
    clock.advance(1000);
    const updated = await api.patch(`/customers/${customer.id}`, {
      fullName: 'Pat Smith',
      birthDate: '1990-01-01',
      address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
    });
    expect(updated.status).toBe(200);
    clock.advance(1000);
    const verification = await api.post('/verifications', { customerId: customer.id });
    expect(verification.status).toBe(200);
    expect(verification.body.verificationStatus).toBe('APPROVED');
    await receiver.waitFor(
      (r) => ofType('CUSTOMER.KYC_APPROVED')(r).some((x) => x.json!.data.id === customer.id),
      10_000,
      'CUSTOMER.KYC_APPROVED',
    );
    const [hook] = ofType('CUSTOMER.KYC_APPROVED')(receiver.requests).filter((x) => x.json!.data.id === customer.id);
    expect(hook.json!.data).toMatchObject({
      id: customer.id,
      kycStatus: 'APPROVED',
      fullName: 'Pat Smith',
      platformCustomerId: customer.platformCustomerId,
      updatedAt: clock.now().toISOString(),
    });
    expect(hook.json!.timestamp).toBe(clock.now().toISOString());
    expect(hook).toMatchObject({ ecdsaValid: true, standardValid: true });
  });

  it('sends INVITATION_CLAIMED to the inviter platform only', async () => {
    const { api, receiver } = await t.webhookPlatform();
    const { customer } = await createCustomer(api);
    const invitation = await api.post('/invitations', {
      inviterUma: customer.umaAddress,
      firstName: 'Ada',
      amountToSend: 500,
    });
    expect(invitation.status).toBe(201);
    const invitee = await t.otherPlatform();
    const inviteeReceiver = await startWebhookReceiver();
    try {
      await pointWebhooksAt(invitee.api, inviteeReceiver);
      clock.advance(1000);
      const claimed = await invitee.api.post(`/invitations/${invitation.body.code}/claim`, {
        inviteeUma: '$bob@other.example.com',
      });
      expect(claimed.status).toBe(200);
      await receiver.waitFor(
        (r) => ofType('INVITATION_CLAIMED')(r).some((x) => x.json!.data.code === invitation.body.code),
        10_000,
        'INVITATION_CLAIMED',
      );
      const [hook] = ofType('INVITATION_CLAIMED')(receiver.requests);
      expect(hook.json!.data).toEqual(claimed.body);
      expect(hook.json!.data).toMatchObject({
        status: 'CLAIMED',
        inviteeUma: '$bob@other.example.com',
        amountToSend: { amount: 500 },
      });
      expect(ofType('INVITATION_CLAIMED')(inviteeReceiver.requests)).toHaveLength(0);
    } finally {
      await inviteeReceiver.close();
    }
  });

  it('sends nothing for platforms without an endpoint, nor after the endpoint is removed', async () => {
    const { api, receiver } = await t.webhookPlatform();
    const other = await t.otherPlatform();
    const accounts = await other.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'quiet' });
    const account = (
      await other.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(accounts.body.id)}`)
    ).body.data[0];
    await fund(other.api, account.id, 10);
    const cleared = await api.patch('/config', { webhookEndpoint: null });
    expect(cleared.body.webhookEndpoint).toBeUndefined();
    expect(cleared.body.webhookSigningPublicKey).toEqual(expect.any(String));
    const { accountId } = await createCustomer(api);
    await fund(api, accountId, 7);
    // A marker after both: once it is delivered, the dispatcher has passed the fundings above.
    await pointWebhooksAt(api, receiver);
    const { accountId: marker } = await createCustomer(api);
    await fund(api, marker, 1);
    await receiver.waitFor((r) => r.some((x) => x.json?.data?.id === marker), 10_000, 'the marker webhook');
    expect(receiver.requests.some((x) => x.json?.data?.id === account.id || x.json?.data?.id === accountId)).toBe(
      false,
    );
    expect((await other.api.get('/webhooks/deliveries')).body.totalCount).toBe(0);
  });

  it('lists with filters, sort and cursor, gets one, and hides other platforms’ deliveries', async () => {
    const { api } = await t.webhookPlatform();
    // Deliveries of its own: the balance updates of eight fundings, all delivered before the lists are read.
    const { accountId } = await createCustomer(api);
    for (const amount of [1, 2, 3, 4, 5, 6, 7, 8]) await fund(api, accountId, amount);
    const total = async (query: string) => (await api.get(`/webhooks/deliveries?${query}`)).body.totalCount as number;
    await poll(
      () => total('type=INTERNAL_ACCOUNT.BALANCE_UPDATED&status=DELIVERED'),
      (n) => n >= 8,
      {
        what: 'eight delivered balance webhooks',
        timeoutMs: 10_000,
      },
    );
    await poll(
      () => total('status=PENDING'),
      (n) => n === 0,
      { what: 'no pending delivery', timeoutMs: 10_000 },
    );
    const all = await api.get('/webhooks/deliveries?limit=100');
    // The operations dashboard counts the same deliveries by status.
    const counts = (await api.get('/audit/overview')).body.webhookDeliveries;
    for (const status of ['PENDING', 'DELIVERED', 'FAILED', 'DEAD']) {
      expect({ status, count: counts[status] }).toEqual({
        status,
        count: all.body.data.filter((d: { status: string }) => d.status === status).length,
      });
    }
    expect(counts.DELIVERED + counts.FAILED).toBeGreaterThan(0);
    expect(all.status).toBe(200);
    expect(all.body.totalCount).toBeGreaterThanOrEqual(8);
    const asc = await api.get('/webhooks/deliveries?limit=100&sortOrder=asc');
    expect(asc.body.data.map((d: any) => d.id)).toEqual([...all.body.data].reverse().map((d: any) => d.id));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get(
        `/webhooks/deliveries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((d: any) => d.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((d: any) => d.id));
    const balance = await api.get('/webhooks/deliveries?type=INTERNAL_ACCOUNT.BALANCE_UPDATED&status=DELIVERED');
    expect(balance.body.data.length).toBeGreaterThanOrEqual(4);
    expect(
      balance.body.data.every((d: any) => d.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && d.status === 'DELIVERED'),
    ).toBe(true);
    expect((await api.get('/webhooks/deliveries?status=LOST')).status).toBe(400);
    expect((await api.get('/webhooks/deliveries?limit=0')).status).toBe(400);

    const one = await api.get(`/webhooks/deliveries/${balance.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(balance.body.data[0]);
    expect(one.body.platformId).toBeUndefined();
    const other = await t.otherPlatform();
    const hidden = await other.api.get(`/webhooks/deliveries/${one.body.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    expect((await other.api.post(`/webhooks/deliveries/${one.body.id}/redeliver`)).status).toBe(404);
    expect((await api.get('/webhooks/deliveries/Webhook:not-an-id')).status).toBe(400);
  });
});
