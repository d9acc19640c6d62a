import { isRetried, webhookDeliveryDecider, type WebhookDeliveryEvent } from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { MemoryEventStore, type MemoryLog } from '#event-store/memory/event-store.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import {
  EndpointHistory,
  LedgerReplay,
  webhookPlatformOf,
  webhookSources,
} from '../../apps/host/src/webhooks/sources.js';
import { planDeliveries } from '../../apps/worker/src/webhooks/dispatcher.js';
import { InvariantViolation } from './invariants.js';
import type { SimReceivers } from './receivers.js';

const fail = (invariant: string, detail: string, ...streams: string[]): never => {
  throw new InvariantViolation(invariant, detail, streams);
};

const DELIVERY_STREAM = 'webhookdelivery-';

/** A delivery the service recorded: its stream, platform, webhook, status and how its last attempt went. */
interface RecordedDelivery {
  stream: string;
  platformId: string;
  webhookId: string;
  type: string;
  status: string;
  maxAttempts: number;
  /** Whether an attempt was recorded as delivered. */
  delivered: boolean;
  lastAttempt?: { attempt: number; url?: string };
}

function recordedDeliveries(log: MemoryLog): Map<string, RecordedDelivery> {
  const deliveries = new Map<string, RecordedDelivery>();
  for (const [stream, events] of log.streams) {
    if (!stream.startsWith(DELIVERY_STREAM)) continue;
    let state = webhookDeliveryDecider.initialState();
    let delivered = false;
    let lastAttempt: RecordedDelivery['lastAttempt'];
    for (const e of events) {
      const event = { type: e.type, data: e.data } as WebhookDeliveryEvent;
      state = webhookDeliveryDecider.evolve(state, event);
      if (event.type === 'WebhookDeliveryAttempted') {
        delivered ||= event.data.outcome === 'DELIVERED';
        lastAttempt = { attempt: event.data.attempt, ...(event.data.url ? { url: event.data.url } : {}) };
      }
      if (event.type === 'WebhookRedeliveryRequested') lastAttempt = undefined;
    }
    if (!state.exists) continue;
    const { platformId, payload, status, maxAttempts } = state;
    deliveries.set(payload.id, {
      stream,
      platformId,
      webhookId: payload.id,
      type: payload.type,
      status,
      maxAttempts,
      delivered,
      ...(lastAttempt ? { lastAttempt } : {}),
    });
  }
  return deliveries;
}

/**
 * Webhooks are delivered at least once, signed, to their own platform only:
 * - every request a receiver got is a webhook the service recorded, for that receiver's platform, signed with that
 *   platform's keys (both signatures verify); copies of one webhook id (at-least-once) carry the same body;
 * - a delivery recorded as delivered was taken by its platform's receiver at least once.
 * With `settled` (faults over, receivers healthy, the clock past the retry schedule): the dispatcher has passed every
 * event that makes webhooks, and every delivery recorded was delivered, or ran out of attempts and is recorded so
 * (DEAD after its last attempt; FAILED when it is not retried or webhooks were turned off): none is left pending but
 * a TEST webhook whose request was cut off.
 */
export function checkWebhooks(log: MemoryLog, receivers: SimReceivers, settled = false): void {
  const deliveries = recordedDeliveries(log);
  for (const [webhookId, receipts] of receivers.received) {
    const delivery = deliveries.get(webhookId);
    if (!delivery) fail('webhooks: every webhook received was recorded', `${webhookId} got by ${receipts[0].receiver}`);
    for (const receipt of receipts) {
      if (receipt.receiver !== delivery!.platformId)
        fail(
          'platform isolation',
          `${webhookId} of ${delivery!.platformId} sent to ${receipt.receiver}`,
          delivery!.stream,
        );
      if (!receipt.signed) fail('webhooks: every webhook carries valid signatures', webhookId, delivery!.stream);
      if (receipt.body !== receipts[0].body || receipt.bodyId !== webhookId)
        fail('webhooks: copies of a webhook are the same webhook', webhookId, delivery!.stream);
    }
  }
  for (const delivery of deliveries.values()) {
    const taken = receivers.received.get(delivery.webhookId)?.some((r) => r.accepted) ?? false;
    if (delivery.delivered && !taken)
      fail(
        'webhooks: a delivered webhook reached its receiver',
        `${delivery.webhookId} recorded as delivered`,
        delivery.stream,
      );
    if (settled) checkSettled(delivery);
  }
  if (settled) {
    for (const e of log.all) {
      if (e.position > receivers.dispatched && webhookPlatformOf(e))
        fail('webhooks: every event that makes webhooks is dispatched', `${e.type} at ${e.position}`, e.streamName);
    }
  }
}

/** Once everything settled: delivered, or out of attempts and recorded as such. */
function checkSettled(delivery: RecordedDelivery): void {
  const { status, lastAttempt, maxAttempts, stream, webhookId } = delivery;
  if (status === 'DELIVERED') return;
  // A TEST webhook is sent by its request, never by a job: a request cut off between recording the delivery and
  // recording its attempt leaves it PENDING, and nothing sends it again (its caller got no answer).
  if (status === 'PENDING' && !isRetried(delivery.type)) return;
  if (status === 'PENDING')
    fail('webhooks: every webhook is delivered or recorded as failed', `${webhookId} still PENDING`, stream);
  const outOfAttempts =
    lastAttempt !== undefined &&
    (lastAttempt.attempt >= maxAttempts || !isRetried(delivery.type) || lastAttempt.url === undefined);
  if (!outOfAttempts)
    fail(
      'webhooks: a failed delivery ran out of attempts',
      `${webhookId} ${status} after ${lastAttempt?.attempt}`,
      stream,
    );
}

/**
 * Every webhook an event makes is scheduled: each event the dispatcher passed is planned again at the end, over read
 * models that have passed every event (and the endpoint its platform had at the event's position), and each of its
 * deliveries must be recorded. A batch planned while a rebuild had dropped a document it reads would plan fewer.
 */
export async function checkEveryWebhookScheduled(
  log: MemoryLog,
  readModels: ReadModelStore,
  dispatched: bigint,
): Promise<void> {
  const store = new MemoryEventStore({ log });
  const endpoints = new EndpointHistory(store);
  const passing = { passed: async () => undefined, storedPassed: async () => undefined };
  const sources = webhookSources(readModels, passing, new LedgerReplay(store));
  for (const e of log.all) {
    if (e.position > dispatched) break;
    for (const { job } of await planDeliveries(e, sources, endpoints)) {
      if (!log.streams.has(webhookDeliveryStream(job.data.deliveryId)))
        fail(
          'webhooks: every webhook an event makes is scheduled',
          `${job.data.webhookType} ${job.data.webhookId} of ${e.type} at ${e.position} was never scheduled`,
          e.streamName,
        );
    }
  }
}
