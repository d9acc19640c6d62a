import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import { streams } from '#domain/primitives.js';
import { freePort } from '../support/ports.js';
import { startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('webhooks: SSRF guard on endpoints and the sandbox test webhook', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-ssrf-'));
  let receiver: WebhookReceiver;
  let t: TestService;
  let unused: number;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // A port nothing listens on.
    unused = await freePort();
    // The endpoint is configured while the operator allow-lists 127.0.0.1 ...
    const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '2000' };
    const first = await startTestService({ dataDir, env });
    const set = await first.api.patch('/config', { webhookEndpoint: receiver.url });
    expect(set.status).toBe(200);
    await first.close();
    // ... and delivered after it allows only `localhost`: the stored loopback literal is now refused at delivery.
    t = await startTestService({ dataDir, env: { WEBHOOK_ALLOWED_HOSTS: 'localhost', WEBHOOK_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'refuses loopback, private and metadata endpoints in any spelling at configuration, recording ' + 'nothing',
    async () => {
      const other = await t.otherPlatform();
      const spellings = [
        'http://169.254.169.254/latest/meta-data/',
        'http://127.1/',
        'http://2130706433/',
        'http://0x7f000001/',
        'http://[::ffff:a9fe:a9fe]/',
        'http://0177.0.0.1/',
        'http://[::1]/',
        'http://[::ffff:127.0.0.1]/',
        'http://10.0.0.1/',
        'http://100.64.0.1/',
        'http://[fd00:ec2::254]/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://0.0.0.0:3000/',
      ];
      for (const webhookEndpoint of spellings) {
        const res = await other.api.patch('/config', { webhookEndpoint });
        const seen = { webhookEndpoint, status: res.status, code: res.body.code, error: res.body.details?.errors?.[0] };
        expect(seen).toEqual({
          webhookEndpoint,
          status: 400,
          code: 'INVALID_INPUT',
          error: { field: 'webhookEndpoint', constraint: 'isPublicHost', message: expect.any(String) },
        });
      }
      expect(await t.service.infra.eventStore.readStream(streams.webhooks(other.platformId))).toEqual([]);
      // The allow-listed name passes.
      const named = await other.api.patch('/config', { webhookEndpoint: `http://localhost:${unused}/hooks` });
      expect(named.status).toBe(200);
    },
  );

  it('answers a refused address and a closed port alike, revealing nothing, and records them alike', async () => {
    const refused = await t.api.post('/sandbox/webhooks/test');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
    expect(refused.body.details).toEqual({
      response_status: 0,
      url: receiver.url,
      response_body: '',
      error: UNREACHABLE,
    });
    expect(receiver.requests).toHaveLength(0); // never contacted

    const closedUrl = `http://localhost:${unused}/hooks`;
    expect((await t.api.patch('/config', { webhookEndpoint: closedUrl })).status).toBe(200);
    const closed = await t.api.post('/sandbox/webhooks/test');
    expect(closed.status).toBe(400);
    expect(closed.body.details).toEqual({ response_status: 0, url: closedUrl, response_body: '', error: UNREACHABLE });
    expect(closed.body.message).toBe(refused.body.message);
    expect(Object.keys(closed.headers)).toEqual(Object.keys(refused.headers));

    const list = await t.api.get('/webhooks/deliveries?type=TEST&sortOrder=asc');
    expect(list.body.data).toHaveLength(2);
    const shown = list.body.data.map((d: any) => ({
      status: d.status,
      lastError: d.lastError,
      lastStatusCode: d.lastStatusCode,
      attempt: { ...d.attempts[0], latencyMs: 0, attemptedAt: '', url: '' },
    }));
    expect(shown[0]).toEqual(shown[1]);
    expect(shown[0]).toMatchObject({ status: 'FAILED', lastError: UNREACHABLE });
    expect(JSON.stringify(list.body)).not.toMatch(/ECONN|refused:|loopback|timeout after/);
  });

  it('limits test webhooks to 10 per platform per minute with 429 RATE_LIMITED and Retry-After', async () => {
    const platform = await t.otherPlatform();
    const set = await platform.api.patch('/config', { webhookEndpoint: `http://localhost:${unused}/hooks` });
    expect(set.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await platform.api.post('/sandbox/webhooks/test')).status);
    // Each one is sent (the port is closed: a failed delivery, 400) and counted.
    expect(statuses).toEqual(Array(10).fill(400));
    const limited = await platform.api.post('/sandbox/webhooks/test');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: { retryAfterSeconds: expect.any(Number) },
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.details.retryAfterSeconds).toBe(retryAfter);
    // The limited call sent nothing and recorded nothing.
    expect((await platform.api.get('/webhooks/deliveries?type=TEST&limit=100')).body.data).toHaveLength(10);
    // Another platform has its own budget.
    const other = await t.otherPlatform();
    expect((await other.api.post('/sandbox/webhooks/test')).status).toBe(400);
  });
});
