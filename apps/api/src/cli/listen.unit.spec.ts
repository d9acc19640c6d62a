import { describe, expect, it } from '@jest/globals';
import { webhookIdsFor } from '#domain/webhooks/webhook-ids.js';
import type { EventStore, ReadAllOptions, RecordedEvent } from '#event-store/event-store.js';
import { resolveTarget } from '#net/resolve-target.js';
import { UsageError } from './command.js';
import { forwardTarget } from './listen.js';
import { locateWebhook } from './listener.js';

const A = 'Platform:00000000-0000-4000-8000-00000000000a';
const B = 'Platform:00000000-0000-4000-8000-00000000000b';

describe('forwardTarget: the receiver named with --forward-to', () => {
  const noDns = async () => [];

  it.each([
    ['http://localhost:4242/hooks', 'localhost', 4242],
    ['http://127.0.0.1:8080/', '127.0.0.1', 8080],
    ['http://127.3.4.5/x', '127.3.4.5', 80],
    ['https://[::1]:3000/hooks', '[::1]', 3000],
  ])('lets the loopback receiver %s through the address policy, for this command', async (raw, hostname, port) => {
    const target = forwardTarget(raw, []);
    expect(target.allowedHosts).toEqual([{ hostname, port }]);
    const url = new URL(target.url);
    const vetted = await resolveTarget(url, {
      allowedHosts: target.allowedHosts,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(vetted.ok).toBe(true);
  });

  it('holds any other host to the policy deliveries are held to (the operator’s list kept)', async () => {
    const operator = [{ hostname: 'hooks.example.com' }];
    for (const raw of ['http://10.0.0.1/hooks', 'http://169.254.169.254/', 'http://192.168.1.2:4242/']) {
      const target = forwardTarget(raw, operator);
      expect(target.allowedHosts).toEqual(operator);
      expect(await resolveTarget(new URL(target.url), { allowedHosts: target.allowedHosts, resolve: noDns })).toEqual({
        ok: false,
        reason: expect.any(String),
      });
    }
  });

  it('refuses a URL that is not http(s) as a command line that cannot run', () => {
    expect(() => forwardTarget('ftp://localhost/hooks', [])).toThrow(UsageError);
    expect(() => forwardTarget('localhost:4242', [])).toThrow(UsageError);
    expect(() => forwardTarget('not a url', [])).toThrow(UsageError);
  });
});

describe('locateWebhook: where a webhook id stands in the log', () => {
  const event = (position: number, type: string, platformId: string): RecordedEvent => ({
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type,
    data: { platformId },
    metadata: {},
    streamName: 'verification-1',
    revision: 0n,
    position: BigInt(position),
    recordedAt: new Date(0),
  });
  const log = [
    event(1, 'VerificationCreated', A),
    event(2, 'SomethingElse', A),
    event(3, 'VerificationCreated', B),
    event(4, 'VerificationCreated', A),
    event(5, 'VerificationCreated', A),
  ];
  const store = {
    async readAll({ after, maxCount, types }: ReadAllOptions = {}) {
      return log
        .filter((e) => (after === undefined || e.position > after) && (!types || types.includes(e.type)))
        .slice(0, maxCount);
    },
  } as unknown as EventStore;

  it('finds the event and the place among its webhooks, with a position before it to read from', async () => {
    const { webhookId } = webhookIdsFor(log[3].id, 1);
    expect(await locateWebhook(store, A, webhookId)).toEqual({ webhookId, eventId: log[3].id, index: 1, after: '3' });
    const first = webhookIdsFor(log[0].id, 0).webhookId;
    expect(await locateWebhook(store, A, first)).toEqual({
      webhookId: first,
      eventId: log[0].id,
      index: 0,
      after: null,
    });
  });

  it('finds only its platform’s webhooks', async () => {
    const theirs = webhookIdsFor(log[2].id, 0).webhookId;
    await expect(locateWebhook(store, A, theirs)).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
    expect(await locateWebhook(store, B, theirs)).toMatchObject({ eventId: log[2].id, index: 0 });
  });

  it('takes the state file’s cursor when it names the same webhook', async () => {
    const saved = { webhookId: 'Webhook:00000000-0000-4000-8000-000000000001', eventId: 'e', index: 0, after: '7' };
    expect(await locateWebhook(store, A, saved.webhookId, saved)).toBe(saved);
  });
});
