import type { BackoffPolicy } from '#jobs/job-queue.js';
import { WEBHOOK_RETRY_POLICY } from '#domain/webhooks/retry-policy.js';

export { WEBHOOK_QUEUE } from '#domain/webhooks/retry-policy.js';
export const DELIVER_JOB = 'deliver';

export interface DeliveryJob {
  deliveryId: string;
  platformId: string;
  webhookId: string;
  webhookType: string;
  /** The endpoint when the webhook was dispatched (attempts go to the platform's current one). */
  url: string;
  /** The exact JSON sent on every attempt. */
  body: string;
}

/** The queue computes retry delays with the webhook retry policy (same formula, same clock). */
export const WEBHOOK_BACKOFF: BackoffPolicy = {
  type: 'exponential',
  delayMs: WEBHOOK_RETRY_POLICY.firstDelayMs,
  maxDelayMs: WEBHOOK_RETRY_POLICY.maxDelayMs,
};
