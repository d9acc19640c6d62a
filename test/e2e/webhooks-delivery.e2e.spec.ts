import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { attemptBudget, retryDelayMs, WEBHOOK_RETRY_POLICY } from '#domain/webhooks/retry-policy.js';
import { webhookDeliveryStream, webhookIdsFor } from '#domain/webhooks/webhook-ids.js';
import { NOT_SENT_BACKED_OFF, UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import { describeEachJobQueue, useTestService } from '../support/fixture.js';
import type { Client } from '../support/service.js';
import {
  pointWebhooksAt,
  startWebhookReceiver,
  type ReceiverMode,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';

const START = Date.UTC(2026, 2, 2, 9);
const MINUTE = 60_000;

/**
 * At-least-once delivery with retries driven by the sandbox clock: the clock is advanced and due
 * jobs promoted, never waited for. The same tests run on both job-queue adapters.
 */
describeEachJobQueue('webhook delivery', (adapter) => {
  // Long enough for a loaded test machine; a hanging receiver costs this much per attempt.
  const t = useTestService({ start: START, jobs: adapter, env: { WEBHOOK_TIMEOUT_MS: '1500' } });
  const clock = t.clock;
  let api: Client;
  let receiver: WebhookReceiver;
  let accountId: string;

  // Every test delivers for a platform of its own, to a receiver of its own, from an account of its own.
  beforeEach(async () => {
    api = (await t.otherPlatform()).api;
    receiver = await startWebhookReceiver();
    await pointWebhooksAt(api, receiver);
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'delivery' });
    accountId = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`)).body
      .data[0].id;
  });
  afterEach(async () => receiver?.close());

  const delivery = async (id: string) => (await api.get(`/webhooks/deliveries/${id}`)).body;
  const allDeliveries = async (query = '') => {
    const out: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get(
        `/webhooks/deliveries?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      out.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    return out;
  };
  /**
   * Polls (real time, bounded) for an async condition. Each round also promotes due jobs: a job
   * whose failure was still being recorded when the clock moved is promoted on the next round.
   */
  const poll = async <T>(
    what: string,
    read: () => Promise<T>,
    done: (value: T) => boolean,
    timeoutMs = 15_000,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await t.service.infra.jobs.promoteDue();
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  };
  /** The queue job of a delivery: its id derives from the source event and the webhook's index. */
  const jobOf = async (deliveryId: string) => {
    const [scheduled] = await t.service.infra.eventStore.readStream(webhookDeliveryStream(deliveryId));
    const source = (scheduled.data as { sourceEventId: string }).sourceEventId;
    const index = [0, 1, 2, 3].find((i) => webhookIdsFor(source, i).deliveryId === deliveryId)!;
    return t.service.infra.jobs.getJob('webhooks', `webhook:${source}:${index}`);
  };
  /** The delivery's job once it is in `state` (polled; `what` names the wait). */
  const jobIn = (deliveryId: string, state: string, what: string) =>
    poll(
      what,
      () => jobOf(deliveryId),
      (job) => job?.state === state,
    );
  /** Fundings whose webhooks are wanted: returns their delivery ids once scheduled. */
  const fundAndSchedule = async (count: number) => {
    const before = new Set((await allDeliveries('&type=INTERNAL_ACCOUNT.BALANCE_UPDATED')).map((d) => d.id));
    for (let i = 0; i < count; i++) {
      clock.advance(1000);
      expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1 })).status).toBe(200);
    }
    const fresh = await poll(
      'scheduled deliveries',
      () => allDeliveries('&type=INTERNAL_ACCOUNT.BALANCE_UPDATED'),
      (list) => list.filter((d) => !before.has(d.id)).length >= count,
    );
    return fresh.filter((d) => !before.has(d.id)).map((d) => d.id as string);
  };
  /** Advances the sandbox clock, runs what became due and waits until those attempts are recorded. */
  const advance = async (ms: number, ids: string[]) => {
    clock.advance(ms);
    const now = clock.now().toISOString();
    await poll(
      `attempts due at ${now}`,
      () => Promise.all(ids.map(delivery)),
      (list) => list.every((d) => d.status !== 'PENDING' || (d.attemptCount > 0 && d.nextAttemptAt > now)),
    );
  };

  it('delivers every event once the receiver is back after refusing, failing and hanging for hours', async () => {
    await receiver.setMode('refuse');
    const ids = await fundAndSchedule(12);
    await poll(
      'first attempts',
      () => Promise.all(ids.map(delivery)),
      (list) => list.every((d) => d.attemptCount >= 1),
    );
    const phases: ReceiverMode[] = ['refuse', 'refuse', 'error', 'error', 'error', 'hang', 'hang', 'ok'];
    for (const mode of phases) {
      await receiver.setMode(mode);
      await advance(30 * MINUTE, ids);
    }
    // Up again: whatever an unlucky attempt still missed goes with the next ones.
    for (
      let round = 0;
      round < 5 && (await Promise.all(ids.map(delivery))).some((d) => d.status !== 'DELIVERED');
      round++
    )
      await advance(30 * MINUTE, ids);
    const done = await Promise.all(ids.map(delivery));
    expect(done.map((d) => d.status)).toEqual(ids.map(() => 'DELIVERED'));
    const delivered = receiver.delivered();
    for (const d of done) {
      expect(delivered.has(d.webhookId)).toBe(true);
      // Every copy the receiver saw (hung ones included) is the same webhook, byte for byte.
      const copies = receiver.requests.filter((r) => r.json?.id === d.webhookId);
      expect(copies.length).toBeGreaterThanOrEqual(3);
      expect(new Set(copies.map((r) => r.body))).toEqual(new Set([JSON.stringify(d.payload)]));
      expect(new Set(copies.map((r) => r.headers['webhook-id']))).toEqual(new Set([d.webhookId]));
      expect(copies.every((r) => r.ecdsaValid && r.standardValid)).toBe(true);
      expect(d.nextAttemptAt).toBeUndefined();
    }
    const balances = done.map((d) => d.payload.data.balance.amount).sort((a: number, b: number) => a - b);
    expect(balances).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const { attempts } = done[0];
    expect(attempts.at(-1)).toMatchObject({ outcome: 'DELIVERED', statusCode: 200 });
    expect(attempts.some((a: any) => a.outcome === 'RETRYING' && a.statusCode === 500 && a.responseBody)).toBe(true);
    // Refused connections and timeouts read alike (one generic error); the hung ones took the whole timeout. Once
    // attempts in a row got no answer in time, the platform's attempts were recorded as not sent for a while.
    const unanswered = done
      .flatMap((d) => d.attempts)
      .filter((a: any) => a.outcome === 'RETRYING' && a.statusCode === undefined);
    const sent = unanswered.filter((a: any) => a.error !== NOT_SENT_BACKED_OFF);
    expect(new Set(sent.map((a: any) => a.error))).toEqual(new Set([UNREACHABLE]));
    expect(sent.some((a: any) => a.latencyMs < 1500)).toBe(true);
    expect(sent.some((a: any) => a.latencyMs >= 1500)).toBe(true);
    for (const notSent of unanswered.filter((a: any) => a.error === NOT_SENT_BACKED_OFF))
      expect(notSent).toMatchObject({ latencyMs: 0, outcome: 'RETRYING' });
    expect(attempts.every((a: any) => Number.isInteger(a.latencyMs) && a.latencyMs >= 0)).toBe(true);
  });

  it('stops retrying on 409: the receiver already has the webhook', async () => {
    await receiver.setMode('conflict');
    const [id] = await fundAndSchedule(1);
    const d = await poll(
      'the 409',
      () => delivery(id),
      (x) => x.status === 'DELIVERED',
    );
    expect(d).toMatchObject({ attemptCount: 1, lastStatusCode: 409 });
    // The job ended with that attempt: nothing is left to retry.
    expect(await jobIn(id, 'completed', 'the job to complete')).toMatchObject({ attemptsMade: 1 });
    await receiver.setMode('error');
    for (let i = 0; i < 3; i++) await advance(30 * MINUTE, [id]);
    expect(receiver.requests.filter((r) => r.json?.id === d.webhookId)).toHaveLength(1);
    expect((await delivery(id)).attemptCount).toBe(1);
  });

  it('never retries a TEST webhook', async () => {
    await receiver.setMode('error');
    const res = await api.post('/sandbox/webhooks/test');
    expect(res.body.details.response_status).toBe(500);
    const [test] = await allDeliveries('&type=TEST');
    expect(test).toMatchObject({ status: 'FAILED', attemptCount: 1, maxAttempts: 1 });
    await receiver.setMode('ok');
    for (let i = 0; i < 3; i++) await advance(30 * MINUTE, [test.id]);
    expect(receiver.requests.filter((r) => r.json?.id === test.webhookId)).toHaveLength(1);
    expect((await delivery(test.id)).status).toBe('FAILED');
    // Sent synchronously, never queued.
    expect((await t.service.infra.eventStore.readStream(webhookDeliveryStream(test.id)))[0].data).not.toHaveProperty(
      'sourceEventId',
    );
  });

  it('sends retries to the current endpoint, and stops when webhooks are turned off', async () => {
    await receiver.setMode('error');
    const [moved] = await fundAndSchedule(1);
    await poll(
      'the first attempt',
      () => delivery(moved),
      (x) => x.attemptCount === 1,
    );
    const second = await startWebhookReceiver();
    try {
      await pointWebhooksAt(api, second);
      await advance(30 * MINUTE, [moved]);
      const d = await delivery(moved);
      expect(d).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
      expect(d.attempts.map((a: any) => a.url)).toEqual([receiver.url, second.url]);
      expect(second.delivered().has(d.webhookId)).toBe(true);
      expect(second.requests.every((r) => r.ecdsaValid && r.standardValid)).toBe(true);
    } finally {
      await second.close();
    }
    await pointWebhooksAt(api, receiver);
    const [off] = await fundAndSchedule(1);
    await poll(
      'the first attempt',
      () => delivery(off),
      (x) => x.attemptCount === 1,
    );
    expect((await api.patch('/config', { webhookEndpoint: null })).status).toBe(200);
    await receiver.setMode('ok');
    await advance(30 * MINUTE, [off]);
    const stopped = await delivery(off);
    expect(stopped).toMatchObject({
      status: 'FAILED',
      attemptCount: 2,
      lastError: expect.stringContaining('turned off'),
    });
    expect(stopped.attempts[1].url).toBeUndefined();
    expect(receiver.requests.filter((r) => r.json?.id === stopped.webhookId)).toHaveLength(1);
    expect(await jobIn(off, 'dead', 'the job to end')).toMatchObject({ attemptsMade: 2 });
    await pointWebhooksAt(api, receiver);
  });

  it(
    'retries with capped exponential backoff for 7 days, dead-letters the job, and redelivers on ' + 'request',
    async () => {
      await receiver.setMode('error');
      const [id] = await fundAndSchedule(1);
      let d = await poll(
        'the first attempt',
        () => delivery(id),
        (x) => x.attemptCount === 1,
      );
      while (d.status === 'PENDING') {
        const count = d.attemptCount;
        clock.set(new Date(d.nextAttemptAt));
        d = await poll(
          `attempt ${count + 1}`,
          () => delivery(id),
          (x) => x.attemptCount > count,
        );
      }
      const budget = attemptBudget(WEBHOOK_RETRY_POLICY);
      expect(d).toMatchObject({ status: 'DEAD', attemptCount: budget, maxAttempts: budget });
      const attempts = (await t.service.infra.eventStore.readStream(webhookDeliveryStream(id)))
        .filter((e) => e.type === 'WebhookDeliveryAttempted')
        .map((e) => e.data as any);
      expect(attempts).toHaveLength(budget);
      attempts.slice(0, -1).forEach((a, i) => {
        expect(a.outcome).toBe('RETRYING');
        expect(Date.parse(a.nextAttemptAt) - Date.parse(a.attemptedAt)).toBe(retryDelayMs(WEBHOOK_RETRY_POLICY, i + 1));
        expect(Date.parse(attempts[i + 1].attemptedAt) - Date.parse(a.attemptedAt)).toBeLessThanOrEqual(30 * MINUTE);
      });
      expect(attempts.at(-1)).toMatchObject({ outcome: 'DEAD', statusCode: 500 });
      expect(Date.parse(attempts.at(-1).attemptedAt) - Date.parse(attempts[0].attemptedAt)).toBeLessThanOrEqual(
        7 * 24 * 60 * MINUTE,
      );
      expect(await jobIn(id, 'dead', 'the dead letter')).toMatchObject({ attemptsMade: budget, maxAttempts: budget });
      const dead = await t.service.infra.jobs.deadLetters('webhooks', { limit: 1000 });
      expect(dead.map((j: any) => j.data.deliveryId)).toContain(id);

      await receiver.setMode('ok');
      const again = await api.post(`/webhooks/deliveries/${id}/redeliver`);
      expect(again.status).toBe(202);
      const redelivered = await poll(
        'the redelivery',
        () => delivery(id),
        (x) => x.status === 'DELIVERED',
      );
      expect(redelivered).toMatchObject({ attemptCount: budget + 1, redeliveries: 1, lastStatusCode: 200 });
      const copies = receiver.requests.filter((r) => r.json?.id === d.webhookId);
      expect(copies).toHaveLength(budget + 1);
      expect(new Set(copies.map((r) => r.body)).size).toBe(1);
      expect(copies.at(-1)!.answered).toBe(200);
    },
    120_000,
  );
});
