import { createdFrom, type Decider, type Unset } from '../decider.js';
import { plantedFaults } from '../planted-faults.js';
import { conflict, notFound } from '../errors.js';
import { WEBHOOK_MAX_ATTEMPTS } from './retry-policy.js';
import { APPROVAL_ANSWERS, type ApprovalReply } from './payment-approval.js';
import { APPROVAL_WEBHOOK_TYPE } from './payment-webhooks.js';

/**
 * One webhook's delivery to a platform's endpoint: scheduled once, then one record per attempt.
 * PENDING until an attempt succeeds (DELIVERED; a 409 reply counts: the receiver already has
 * it; so do 403 and 422 to an incoming-payment approval request, which reject the payment),
 * FAILED when it was not to be retried (TEST), DEAD when the retry budget ran out. A failed
 * or dead delivery can be requested again (back to PENDING).
 */
export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'DEAD';
export type AttemptOutcome = 'DELIVERED' | 'RETRYING' | 'FAILED' | 'DEAD';

/** What the receiver gets, byte for byte the JSON of this object. */
export interface WebhookEnvelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The error an attempt records when no response arrived: always these words, so a refused address, a closed port and
 * a timeout cannot be told apart (no probing of networks through webhooks).
 */
export const UNREACHABLE = 'the webhook endpoint could not be reached or did not answer in time';

/** What an attempt not sent while its platform's receiver is backed off records (shown to the platform). */
export const NOT_SENT_BACKED_OFF =
  'not sent: recent attempts to the webhook endpoint got no answer in time, so attempts are held back for a while';

/** The TEST webhook the sandbox sends on request (`POST /webhooks/test`). */
export const testWebhook = (id: string, timestamp: string): WebhookEnvelope => ({
  id,
  type: 'TEST',
  timestamp,
  data: { message: 'This is a test webhook.' },
});

export interface DeliveryAttempt {
  /** 1-based within the current run (a redelivery starts again at 1). */
  attempt: number;
  attemptedAt: string;
  /** Absent when there was no endpoint to send to. */
  url?: string;
  statusCode?: number;
  latencyMs: number;
  /** At most 1 KB of the response body. */
  responseBody?: string;
  error?: string;
  outcome: AttemptOutcome;
  nextAttemptAt?: string;
  /** An approval request's reply: what it decided for the payment. */
  approval?: ApprovalReply;
}

/** What a delivery's stream holds from its scheduling on. */
interface ScheduledDelivery {
  deliveryId: string;
  platformId: string;
  payload: WebhookEnvelope;
  url: string;
  status: WebhookDeliveryStatus;
}

/** What every delivery's stream holds, before its scheduling too. */
interface DeliveryCounts {
  maxAttempts: number;
  attemptCount: number;
  redeliveries: number;
  /** What the reply that delivered an approval request decided (applied again if the worker stopped before). */
  approval?: ApprovalReply;
}

export type ExistingWebhookDelivery = { exists: true } & ScheduledDelivery & DeliveryCounts;

export type WebhookDeliveryState =
  ({ exists: false } & Unset<ScheduledDelivery> & DeliveryCounts) | ExistingWebhookDelivery;

/** A delivery as scheduling asks for it and the WebhookDeliveryScheduled event records it. */
export interface NewDelivery {
  deliveryId: string;
  platformId: string;
  url: string;
  payload: WebhookEnvelope;
  maxAttempts: number;
  sourceEventId?: string;
}

export type WebhookDeliveryEvent =
  | { type: 'WebhookDeliveryScheduled'; data: NewDelivery & { createdAt: string } }
  | { type: 'WebhookDeliveryAttempted'; data: DeliveryAttempt & { deliveryId: string; platformId: string } }
  | {
      type: 'WebhookRedeliveryRequested';
      data: {
        deliveryId: string;
        platformId: string;
        url: string;
        maxAttempts: number;
        redelivery: number;
        requestedAt: string;
      };
    };

export type WebhookDeliveryCommand =
  | ({ type: 'ScheduleDelivery'; now: string } & NewDelivery)
  | { type: 'RecordAttempt'; attempt: DeliveryAttempt }
  | { type: 'RequestRedelivery'; url: string; maxAttempts: number; now: string };

/** TEST webhooks are sent once; everything else retries within the policy. */
export const isRetried = (webhookType: string) => webhookType !== 'TEST';

/** Attempts a webhook of this type gets. */
export const maxAttemptsFor = (webhookType: string) => (isRetried(webhookType) ? WEBHOOK_MAX_ATTEMPTS : 1);

/** The outcome of attempt `attempt` of `maxAttempts` given the receiver's status (undefined: no reply). */
export function attemptOutcome(input: {
  statusCode?: number;
  attempt: number;
  maxAttempts: number;
  webhookType: string;
}): AttemptOutcome {
  const { statusCode } = input;
  if (statusCode !== undefined && ((statusCode >= 200 && statusCode < 300) || statusCode === 409)) return 'DELIVERED';
  if (plantedFaults.webhookErrorCountsAsDelivered && statusCode !== undefined && statusCode >= 500) return 'DELIVERED';
  // An approval request answered 403 (rejected) or 422 (information missing) was received and decided.
  const answers: readonly number[] = APPROVAL_ANSWERS;
  if (input.webhookType === APPROVAL_WEBHOOK_TYPE && statusCode !== undefined && answers.includes(statusCode))
    return 'DELIVERED';
  if (!isRetried(input.webhookType)) return 'FAILED';
  return input.attempt >= input.maxAttempts ? 'DEAD' : 'RETRYING';
}

const statusAfter: Record<AttemptOutcome, WebhookDeliveryStatus> = {
  DELIVERED: 'DELIVERED',
  RETRYING: 'PENDING',
  FAILED: 'FAILED',
  DEAD: 'DEAD',
};

function decide(cmd: WebhookDeliveryCommand, state: WebhookDeliveryState): WebhookDeliveryEvent[] {
  if (cmd.type === 'ScheduleDelivery') {
    // Scheduling is idempotent: a dispatcher running the same source event again changes nothing.
    if (state.exists) return [];
    return [{ type: 'WebhookDeliveryScheduled', data: createdFrom(cmd) }];
  }
  if (!state.exists) throw notFound('WEBHOOK_DELIVERY', 'unknown');
  const ids = { deliveryId: state.deliveryId, platformId: state.platformId };
  switch (cmd.type) {
    case 'RecordAttempt':
      return [{ type: 'WebhookDeliveryAttempted', data: { ...ids, ...cmd.attempt } }];
    case 'RequestRedelivery':
      if (state.status !== 'FAILED' && state.status !== 'DEAD') {
        throw conflict(
          'INVALID_STATE_TRANSITION',
          `the delivery is ${state.status}; only FAILED or DEAD deliveries can be redelivered`,
        );
      }
      return [
        {
          type: 'WebhookRedeliveryRequested',
          data: {
            ...ids,
            url: cmd.url,
            maxAttempts: cmd.maxAttempts,
            redelivery: state.redeliveries + 1,
            requestedAt: cmd.now,
          },
        },
      ];
  }
}

function evolve(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryScheduled': {
      const { deliveryId, platformId, payload, url, maxAttempts } = event.data;
      return { ...state, exists: true, deliveryId, platformId, payload, url, maxAttempts, status: 'PENDING' };
    }
    case 'WebhookDeliveryAttempted':
      // Attempts and redeliveries are only ever recorded on a scheduled delivery.
      if (!state.exists) return state;
      // Delivered stays delivered: a late duplicate attempt (a job run again after a crash) does not undo it.
      return {
        ...state,
        attemptCount: state.attemptCount + 1,
        status: state.status === 'DELIVERED' ? 'DELIVERED' : statusAfter[event.data.outcome],
        ...(state.status !== 'DELIVERED' && event.data.approval ? { approval: event.data.approval } : {}),
      };
    case 'WebhookRedeliveryRequested':
      if (!state.exists) return state;
      return {
        ...state,
        status: 'PENDING',
        url: event.data.url,
        maxAttempts: event.data.maxAttempts,
        redeliveries: event.data.redelivery,
      };
  }
}

export const webhookDeliveryDecider: Decider<WebhookDeliveryState, WebhookDeliveryCommand, WebhookDeliveryEvent> = {
  initialState: (): WebhookDeliveryState => ({ exists: false, maxAttempts: 1, attemptCount: 0, redeliveries: 0 }),
  evolve,
  decide,
};

export const WEBHOOK_DELIVERY_EVENTS = [
  'WebhookDeliveryScheduled',
  'WebhookDeliveryAttempted',
  'WebhookRedeliveryRequested',
] as const;
