import type { AttemptOutcome } from '#domain/webhooks/webhook-delivery.js';
import type { AnswersAfter } from '../command-runner.js';

/** One attempt to make of a scheduled delivery. */
export interface DeliveryRequest {
  deliveryId: string;
  platformId: string;
  webhookId: string;
  webhookType: string;
  /** The exact bytes to send (the envelope's JSON). */
  body: string;
  /** 1-based. */
  attempt: number;
  maxAttempts: number;
}

/** What an attempt got: its outcome, the endpoint it went to (null when none was configured) and the answer. */
export interface AttemptResult {
  outcome: AttemptOutcome;
  url: string | null;
  /** The receiver's status and the excerpt of its body; no status when no response arrived. */
  result: { statusCode?: number; responseBody?: string };
}

/**
 * Makes one delivery attempt now and records it in the delivery's stream: what the synchronous sandbox test
 * (`POST /webhooks/test`) sends through. The worker's deliverer (apps/worker/src/webhooks/deliverer.ts) serves it; the
 * process that serves the API supplies it (`ApplicationModule.register`).
 */
export interface WebhookAttempts {
  deliver(request: DeliveryRequest, options?: { answersAfter?: AnswersAfter }): Promise<AttemptResult>;
}

/** Where no deliverer was supplied (the CLI): no attempt can be made. */
export const NO_WEBHOOK_ATTEMPTS: WebhookAttempts = {
  deliver: () => Promise.reject(new Error('this process does not send webhooks')),
};
