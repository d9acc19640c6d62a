import { describe, expect, it } from '@jest/globals';
import { parseAllowedHosts, refusedUrlHost } from '#net/address-policy.js';
import { DomainError } from '../errors.js';
import { deciderSpec } from '../testing/decider-spec.js';
import { attemptBudget, lastAttemptOffsetMs, retryDelayMs, WEBHOOK_RETRY_POLICY } from './retry-policy.js';
import {
  checkWebhookEndpoint,
  webhookConfigDecider,
  type WebhookConfigEvent,
  type WebhookSigningMaterial,
} from './webhook-config.js';
import {
  attemptOutcome,
  webhookDeliveryDecider,
  type WebhookDeliveryEvent,
  type WebhookDeliveryState,
} from './webhook-delivery.js';
import { uuidFromName, webhookIdsFor } from './webhook-ids.js';

const keys: WebhookSigningMaterial = { publicKeyPem: 'PEM', sealedPrivateKey: 'v1.a.b.c', sealedSecret: 'v1.d.e.f' };
const platformId = 'Platform:00000000-0000-4000-8000-000000000001';

const config = deciderSpec(webhookConfigDecider);
const invalidField = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).details?.errors?.[0]?.field;
  }
  throw new Error('expected an error');
};

describe('webhook endpoint rules', () => {
  const policy = (allowed: string[]) => {
    const hosts = parseAllowedHosts(allowed);
    return { hosts: { refuses: (url: URL) => refusedUrlHost(url, hosts) !== undefined } };
  };
  const none = policy([]);
  const local = policy(['127.0.0.1', 'localhost']);

  it('requires https on production platforms, even for allow-listed hosts; sandbox platforms may use http', () => {
    const https = 'https://hooks.example.com/in?x=1';
    expect(checkWebhookEndpoint(https, { sandbox: false, ...none })).toBe(https);
    const plain = 'http://hooks.example.com/in';
    expect(checkWebhookEndpoint(plain, { sandbox: true, ...none })).toBe(plain);
    for (const url of ['http://hooks.example.com/in', 'http://127.0.0.1:8080/in', 'http://localhost/in']) {
      expect(invalidField(() => checkWebhookEndpoint(url, { sandbox: false, ...local }))).toBe('webhookEndpoint');
    }
    const listed = 'https://127.0.0.1:8443/in';
    expect(checkWebhookEndpoint(listed, { sandbox: false, ...local })).toBe(listed);
  });

  it('refuses non-public hosts unless allow-listed', () => {
    const loopbacks = ['http://127.1:8080/in', 'http://localhost/in', 'http://api.localhost/in', 'http://[::1]:9/in'];
    for (const url of [...loopbacks, 'http://169.254.169.254/']) {
      expect(invalidField(() => checkWebhookEndpoint(url, { sandbox: true, ...none }))).toBe('webhookEndpoint');
    }
    for (const url of ['http://127.1:8080/in', 'http://localhost/in']) {
      expect(checkWebhookEndpoint(url, { sandbox: true, ...local })).toBe(url);
    }
  });

  it('refuses what is not an absolute http(s) URL, credentials and fragments', () => {
    for (const url of [
      'hooks.example.com',
      '/relative',
      'ftp://example.com',
      'javascript:alert(1)',
      'https://u:p@example.com',
      'https://example.com/#frag',
    ]) {
      expect(invalidField(() => checkWebhookEndpoint(url, { sandbox: true, ...none }))).toBe('webhookEndpoint');
    }
  });
});

describe('webhook configuration decider', () => {
  const set = (webhookEndpoint: string | null, now: string, withKeys = true) => ({
    type: 'SetWebhookEndpoint' as const,
    platformId,
    webhookEndpoint,
    sandbox: true,
    hosts: { refuses: () => false },
    ...(withKeys ? { newKeys: keys } : {}),
    now,
  });

  it('generates the signing material with the first configuration only', () => {
    const first = webhookConfigDecider.decide(set('https://a.example.com', 't1'), webhookConfigDecider.initialState());
    expect(first.map((e) => e.type)).toEqual(['WebhookSigningKeyGenerated', 'WebhookEndpointChanged']);
    const state = config.fold(first);
    expect(state).toMatchObject({
      configured: true,
      webhookEndpoint: 'https://a.example.com',
      keys,
      createdAt: 't1',
      updatedAt: 't1',
    });
    const next = webhookConfigDecider.decide(set('https://b.example.com', 't2', false), state);
    expect(next).toEqual([
      {
        type: 'WebhookEndpointChanged',
        data: { platformId, webhookEndpoint: 'https://b.example.com', updatedAt: 't2' },
      },
    ]);
    expect(config.fold([...first, ...next] as WebhookConfigEvent[])).toMatchObject({
      keys,
      createdAt: 't1',
      updatedAt: 't2',
    });
  });

  it('rotates the secret only once configured, keeping the replaced one for the grace period', () => {
    const rotate = (sealedSecret: string, now: string) => ({
      type: 'RotateWebhookSecret' as const,
      platformId,
      sealedSecret,
      graceSeconds: 86_400,
      now,
    });
    const refusal = () => webhookConfigDecider.decide(rotate('v1.x', 't'), webhookConfigDecider.initialState());
    expect(refusal).toThrow(expect.objectContaining({ code: 'WEBHOOK_ENDPOINT_NOT_SET' }));
    const first = webhookConfigDecider.decide(set('https://a.example.com', 't1'), webhookConfigDecider.initialState());
    const rotated = webhookConfigDecider.decide(rotate('v1.new', '2026-05-01T00:00:00.000Z'), config.fold(first));
    const state = config.fold([...first, ...rotated] as WebhookConfigEvent[]);
    expect(state.keys).toEqual({ ...keys, sealedSecret: 'v1.new' });
    expect(state.previousSecret).toEqual({ sealedSecret: keys.sealedSecret, validUntil: '2026-05-02T00:00:00.000Z' });
    expect(state.updatedAt).toBe('2026-05-01T00:00:00.000Z');
  });

  it('changes nothing for the same endpoint, and clears it with null', () => {
    const state = config.fold(
      webhookConfigDecider.decide(set('https://a.example.com', 't1'), webhookConfigDecider.initialState()),
    );
    expect(webhookConfigDecider.decide(set('https://a.example.com', 't2'), state)).toEqual([]);
    const cleared = webhookConfigDecider.decide(set(null, 't3'), state);
    expect(
      config.fold([
        ...webhookConfigDecider.decide(set('https://a.example.com', 't1'), webhookConfigDecider.initialState()),
        ...cleared,
      ]).webhookEndpoint,
    ).toBeNull();
  });

  it('validates the endpoint before anything is recorded', () => {
    expect(() =>
      webhookConfigDecider.decide(
        { ...set('http://example.com', 't1'), sandbox: false },
        webhookConfigDecider.initialState(),
      ),
    ).toThrow(DomainError);
  });
});

describe('webhook retry policy', () => {
  it('doubles from 30 s up to 30 minutes apart', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => retryDelayMs(WEBHOOK_RETRY_POLICY, n) / 1000)).toEqual([
      30, 60, 120, 240, 480, 960, 1800, 1800, 1800,
    ]);
  });

  it('fits every attempt in 7 days, and one more would not fit', () => {
    const budget = attemptBudget(WEBHOOK_RETRY_POLICY);
    expect(budget).toBe(341);
    const last = lastAttemptOffsetMs(WEBHOOK_RETRY_POLICY);
    expect(last).toBeLessThanOrEqual(WEBHOOK_RETRY_POLICY.windowMs);
    expect(last + retryDelayMs(WEBHOOK_RETRY_POLICY, budget)).toBeGreaterThan(WEBHOOK_RETRY_POLICY.windowMs);
  });

  it('derives the budget from the policy', () => {
    // 1 s, 2 s, 4 s; 4 s more would pass 10 s
    expect(attemptBudget({ firstDelayMs: 1000, maxDelayMs: 4000, windowMs: 10_000 })).toBe(4);
    expect(attemptBudget({ firstDelayMs: 1000, maxDelayMs: 1000, windowMs: 500 })).toBe(1);
  });
});

describe('attempt outcomes', () => {
  const outcome = (statusCode: number | undefined, attempt = 1, webhookType = 'CUSTOMER.KYC_APPROVED') =>
    attemptOutcome({ statusCode, attempt, maxAttempts: 3, webhookType });
  it('counts 2xx and 409 as delivered, retries the rest until the last attempt', () => {
    expect([200, 201, 204, 299, 409].map((s) => outcome(s))).toEqual(Array(5).fill('DELIVERED'));
    expect([undefined, 301, 400, 404, 410, 429, 500, 503].map((s) => outcome(s))).toEqual(Array(8).fill('RETRYING'));
    expect(outcome(500, 3)).toBe('DEAD');
  });
  it('never retries TEST', () => {
    expect(outcome(500, 1, 'TEST')).toBe('FAILED');
    expect(outcome(undefined, 1, 'TEST')).toBe('FAILED');
    expect(outcome(200, 1, 'TEST')).toBe('DELIVERED');
  });
});

describe('webhook delivery decider', () => {
  const deliveryId = 'WebhookDelivery:00000000-0000-4000-8000-000000000009';
  const payload = {
    id: 'Webhook:00000000-0000-4000-8000-000000000009',
    type: 'CUSTOMER.KYC_APPROVED',
    timestamp: 't0',
    data: {},
  };
  const schedule = {
    type: 'ScheduleDelivery' as const,
    deliveryId,
    platformId,
    url: 'https://a.example.com',
    payload,
    maxAttempts: 3,
    now: 't0',
  };
  const attempt = (outcome: 'DELIVERED' | 'RETRYING' | 'FAILED' | 'DEAD', n = 1) => ({
    type: 'RecordAttempt' as const,
    attempt: { attempt: n, attemptedAt: `t${n}`, url: 'https://a.example.com', latencyMs: 5, outcome },
  });
  const run = (state: WebhookDeliveryState, ...cmds: Parameters<typeof webhookDeliveryDecider.decide>[0][]) => {
    const events: WebhookDeliveryEvent[] = [];
    for (const cmd of cmds) {
      const produced = webhookDeliveryDecider.decide(cmd, state);
      for (const e of produced) state = webhookDeliveryDecider.evolve(state, e);
      events.push(...produced);
    }
    return { state, events };
  };

  it('schedules once', () => {
    const { state, events } = run(webhookDeliveryDecider.initialState(), schedule, schedule);
    expect(events.map((e) => e.type)).toEqual(['WebhookDeliveryScheduled']);
    expect(state).toMatchObject({ status: 'PENDING', attemptCount: 0, payload });
  });

  it('follows attempts, keeps DELIVERED, and redelivers only FAILED or DEAD', () => {
    const scheduled = run(webhookDeliveryDecider.initialState(), schedule).state;
    expect(run(scheduled, attempt('RETRYING')).state.status).toBe('PENDING');
    const dead = run(scheduled, attempt('RETRYING'), attempt('RETRYING', 2), attempt('DEAD', 3)).state;
    expect(dead).toMatchObject({ status: 'DEAD', attemptCount: 3 });
    const again = run(dead, { type: 'RequestRedelivery', url: 'https://b.example.com', maxAttempts: 3, now: 't9' });
    expect(again.events[0].data).toMatchObject({ redelivery: 1, url: 'https://b.example.com' });
    expect(again.state).toMatchObject({ status: 'PENDING', url: 'https://b.example.com', redeliveries: 1 });
    expect(() => run(again.state, { type: 'RequestRedelivery', url: 'x', maxAttempts: 3, now: 't10' })).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }),
    );
    const delivered = run(scheduled, attempt('DELIVERED'), attempt('RETRYING', 2)).state;
    expect(delivered.status).toBe('DELIVERED');
    expect(run(scheduled, attempt('FAILED')).state.status).toBe('FAILED');
  });

  it('refuses attempts on a delivery that was never scheduled', () => {
    expect(() => webhookDeliveryDecider.decide(attempt('RETRYING'), webhookDeliveryDecider.initialState())).toThrow(
      expect.objectContaining({ code: 'WEBHOOK_DELIVERY_NOT_FOUND' }),
    );
  });
});

describe('derived webhook ids', () => {
  it('are stable per source event and index, distinct otherwise, and valid uuids', () => {
    const a = webhookIdsFor('event-1', 0);
    expect(webhookIdsFor('event-1', 0)).toEqual(a);
    expect(webhookIdsFor('event-1', 1).uuid).not.toBe(a.uuid);
    expect(webhookIdsFor('event-2', 0).uuid).not.toBe(a.uuid);
    expect(a.webhookId).toBe(`Webhook:${a.uuid}`);
    expect(a.deliveryId).toBe(`WebhookDelivery:${a.uuid}`);
    expect(uuidFromName('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
