import { Logger } from '@nestjs/common';
import type { CommandRunner } from '#application/command-runner.js';
import type { PlatformClocks } from '#application/command-context.js';
import { APPROVAL_WEBHOOK_TYPE } from '#domain/webhooks/payment-webhooks.js';
import { NOT_SENT_BACKED_OFF, webhookDeliveryDecider, type AttemptOutcome } from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { DeferredJobError, UnrecoverableJobError, type Job, type JobQueue, type Worker } from '#jobs/job-queue.js';
import type { WebhookDeliverer } from './deliverer.js';
import { WEBHOOK_QUEUE, type DeliveryJob } from './delivery-jobs.js';
import type { DeliverySlots, SlotOutcome } from './delivery-slots.js';
import type { PaymentApprovals } from './payment-approvals.js';

/** What delivery runs with. */
export interface WebhookDeliveryDeps {
  jobs: JobQueue;
  runner: CommandRunner;
  deliverer: WebhookDeliverer;
  /** Carries out what replies to incoming-payment approval requests decide. */
  approvals?: PaymentApprovals;
  /** The platforms' clocks (attempt times of approval requests not sent again, circuits' open periods). */
  clocks: PlatformClocks;
  /** The platforms' slots and circuits. */
  slots: DeliverySlots;
  /**
   * Attempts run at once (default 32). An attempt holds its slot for the receiver's answer and the durable record of
   * the attempt, so a worker sends at most about this many webhooks per such round trip.
   */
  concurrency?: number;
}

const logger = new Logger('WebhookDelivery');

/**
 * Whether the job still has something to send: not when the delivery already succeeded (a job run again after a
 * crash; its approval decision is applied again, which changes nothing once it took effect), nor when an approval
 * request is no longer awaited (the payment was decided meanwhile: the attempt is recorded as not sent).
 */
async function stillToSend(deps: WebhookDeliveryDeps, job: Job<DeliveryJob>): Promise<boolean> {
  const data = job.data;
  const { state } = await deps.runner.load(webhookDeliveryStream(data.deliveryId), webhookDeliveryDecider);
  if (state.status === 'DELIVERED') {
    if (state.approval) await deps.approvals?.apply(data.platformId, data.webhookId, data.body, state.approval);
    return false;
  }
  const attempt = job.attemptsMade + 1;
  // An approval request is not sent again once the payment was decided (approved, rejected, timed out).
  if (data.webhookType === APPROVAL_WEBHOOK_TYPE && attempt > 1 && deps.approvals) {
    if (!(await deps.approvals.awaited(data.body))) {
      const { url: _dispatchedTo, ...request } = data;
      const reason = 'the payment was decided meanwhile: the approval request is not sent again';
      await deps.deliverer.recordNotSent({ ...request, attempt, maxAttempts: job.maxAttempts }, reason, 'FAILED');
      return false;
    }
  }
  return true;
}

/** One attempt of the job (or none, when nothing is left to send); `sent` gets the outcome of a request sent. */
async function runAttempt(
  deps: WebhookDeliveryDeps,
  job: Job<DeliveryJob>,
  circuitOpen: boolean,
  sent: { outcome?: SlotOutcome },
): Promise<void> {
  if (!(await stillToSend(deps, job))) return;
  const data = job.data;
  const attempt = job.attemptsMade + 1;
  const { url: _dispatchedTo, ...request } = data;
  const next = { ...request, attempt, maxAttempts: job.maxAttempts };
  let outcome: AttemptOutcome;
  let reason: string;
  let url: string | null = null;
  if (circuitOpen) {
    outcome = await deps.deliverer.recordNotSent(next, NOT_SENT_BACKED_OFF);
    reason = NOT_SENT_BACKED_OFF;
  } else {
    const delivered = await deps.deliverer.deliver(next);
    const at = await deps.clocks.now(data.platformId);
    sent.outcome = { timedOut: delivered.timedOut, latencyMs: delivered.result.latencyMs, at };
    ({ outcome, url } = delivered);
    const { result, approval } = delivered;
    if (outcome === 'DELIVERED') {
      // Recorded with the attempt first: a crash before it takes effect is made good when the job runs again.
      if (approval) await deps.approvals?.apply(data.platformId, data.webhookId, data.body, approval);
      return;
    }
    reason = result.error ?? `HTTP ${result.statusCode}`;
  }
  if (outcome === 'FAILED')
    throw new UnrecoverableJobError(`${data.webhookType} ${data.webhookId}: ${reason} (not retried)`);
  if (outcome === 'DEAD')
    logger.warn(`${data.webhookType} ${data.webhookId} to ${url}: last attempt failed (${reason}); dead-lettered`);
  throw new Error(`${data.webhookType} ${data.webhookId}: attempt ${attempt} failed: ${reason}`);
}

/**
 * Runs delivery jobs: one attempt per job run, recorded in the webhook's stream; the reply to an
 * incoming-payment approval request approves, rejects or fails the payment. A failed attempt
 * throws so that the queue retries it with the webhook backoff, or dead-letters it after the last
 * attempt; an attempt that must not be retried (TEST) ends the job at once. Runs are fair across platforms
 * (`DeliverySlots`): a run whose platform has all its slots taken is deferred without an attempt, and while a
 * platform's circuit is open its attempts are recorded as failed without being sent.
 */
export function startWebhookDelivery(deps: WebhookDeliveryDeps): Worker {
  return deps.jobs.process<DeliveryJob>(
    WEBHOOK_QUEUE,
    async (job: Job<DeliveryJob>) => {
      const data = job.data;
      // Before the delivery is read: a platform with a backlog defers its runs at little cost.
      const admission = deps.slots.admit(data.platformId, await deps.clocks.now(data.platformId));
      if (admission.kind === 'defer') throw new DeferredJobError(admission.delayMs);
      const sent: { outcome?: SlotOutcome } = {};
      try {
        await runAttempt(deps, job, admission.kind === 'refuse', sent);
      } finally {
        const opened = admission.kind === 'run' ? admission.slot.release(sent.outcome) : undefined;
        if (opened) {
          logger.warn(
            `webhook endpoint of ${data.platformId} got no answer to its last attempts in time: its attempts are ` +
              `recorded as not sent until ${opened.toISOString()}`,
          );
        }
      }
    },
    { concurrency: deps.concurrency ?? 32 },
  );
}
