import type {
  DeliveryAttempt,
  WebhookDeliveryEvent,
  WebhookDeliveryStatus,
  WebhookEnvelope,
} from '#domain/webhooks/webhook-delivery.js';
import { defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** Attempts kept on the document (the stream keeps them all). */
export const ATTEMPTS_KEPT = 50;

export interface WebhookDeliveryDoc extends Doc {
  platformId: string;
  webhookId: string;
  type: string;
  status: WebhookDeliveryStatus;
  url: string;
  payload: WebhookEnvelope;
  /** Attempts of every run, redeliveries included. */
  attemptCount: number;
  maxAttempts: number;
  redeliveries: number;
  nextAttemptAt?: string;
  deliveredAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  /** The newest ATTEMPTS_KEPT attempts, oldest first. */
  attempts: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
}

/** A delivery's document once one more attempt was made. */
async function recordAttempt(
  { data }: Extract<WebhookDeliveryEvent, { type: 'WebhookDeliveryAttempted' }>,
  tx: ProjectionTransaction,
): Promise<void> {
  const doc = await tx.get<WebhookDeliveryDoc>(Collections.webhookDeliveries, data.deliveryId);
  if (!doc) return;
  const { deliveryId: _d, platformId: _p, ...attempt } = data;
  const delivered = doc.status === 'DELIVERED' || attempt.outcome === 'DELIVERED';
  const status: WebhookDeliveryStatus = delivered
    ? 'DELIVERED'
    : attempt.outcome === 'RETRYING'
      ? 'PENDING'
      : attempt.outcome;
  const { nextAttemptAt: _n, lastStatusCode: _s, lastError: _e, ...rest } = doc;
  const next: WebhookDeliveryDoc = {
    ...rest,
    status,
    attemptCount: doc.attemptCount + 1,
    attempts: [...doc.attempts, attempt].slice(-ATTEMPTS_KEPT),
    updatedAt: attempt.attemptedAt,
    ...(attempt.statusCode !== undefined ? { lastStatusCode: attempt.statusCode } : {}),
    ...(attempt.error !== undefined ? { lastError: attempt.error } : {}),
    ...(status === 'PENDING' && attempt.nextAttemptAt ? { nextAttemptAt: attempt.nextAttemptAt } : {}),
    ...(attempt.outcome === 'DELIVERED' && !doc.deliveredAt ? { deliveredAt: attempt.attemptedAt } : {}),
  };
  tx.put(Collections.webhookDeliveries, next);
}

/** Webhook deliveries with their attempts: the `GET /webhooks/deliveries` read model. */
export const webhookDeliveryProjection = defineProjection<WebhookDeliveryEvent>({
  name: 'webhook-deliveries',
  collections: [Collections.webhookDeliveries],
  replayWeight: 3,
  // The list's filters: a status (the failed ones, to redeliver), a type.
  indexes: listIndexes(Collections.webhookDeliveries, [[], 'status', 'type'], { counted: [[], 'status', 'type'] }),
  on: {
    WebhookDeliveryScheduled: ({ data: d }, tx) => {
      const doc: WebhookDeliveryDoc = {
        id: d.deliveryId,
        platformId: d.platformId,
        webhookId: d.payload.id,
        type: d.payload.type,
        status: 'PENDING',
        url: d.url,
        payload: d.payload,
        attemptCount: 0,
        maxAttempts: d.maxAttempts,
        redeliveries: 0,
        attempts: [],
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      };
      tx.put(Collections.webhookDeliveries, doc);
    },
    WebhookDeliveryAttempted: recordAttempt,
    WebhookRedeliveryRequested: async ({ data }, tx) => {
      const doc = await tx.get<WebhookDeliveryDoc>(Collections.webhookDeliveries, data.deliveryId);
      if (!doc) return;
      const { nextAttemptAt: _n, ...rest } = doc;
      tx.put(Collections.webhookDeliveries, {
        ...rest,
        status: 'PENDING',
        url: data.url,
        maxAttempts: data.maxAttempts,
        redeliveries: data.redelivery,
        updatedAt: data.requestedAt,
      });
    },
  },
});

/** The API resource: the scope field stripped. */
export function toWebhookDelivery(doc: WebhookDeliveryDoc): Record<string, unknown> {
  const { platformId: _p, ...resource } = doc;
  return resource;
}
