import { Logger } from '@nestjs/common';
import type { CommandRunner } from '#application/command-runner.js';
import { recordUnsent, type WebhookDeliverer } from '#application/webhooks/webhook-deliverer.js';
import type { PlatformClocks } from '#application/platforms/platform-clocks.js';
import { APPROVAL_WEBHOOK_TYPE } from '#domain/webhooks/payment-webhooks.js';
import type { PaymentApprovals } from '#application/webhooks/payment-approvals.js';
import { webhookDeliveryDecider } from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { UnrecoverableJobError, type Job, type JobQueue, type Worker } from '#jobs/job-queue.js';
import { WEBHOOK_QUEUE, type DeliveryJob } from './delivery-jobs.js';

/**
 * Runs delivery jobs: one attempt per job run, recorded in the webhook's stream; the reply to an
 * incoming-payment approval request approves, rejects or fails the payment. A failed attempt
 * throws so that the queue retries it with the webhook backoff, or dead-letters it after the last
 * attempt; an attempt that must not be retried (TEST) ends the job at once.
 */
export function startWebhookDelivery(deps: {
  jobs: JobQueue;
  runner: CommandRunner;
  deliverer: WebhookDeliverer;
  /** Carries out what replies to incoming-payment approval requests decide. */
  approvals?: PaymentApprovals;
  /** The platforms' clocks (attempt times of approval requests not sent again). */
  clocks?: PlatformClocks;
  /**
   * Attempts run at once (default 32). An attempt holds its slot for the receiver's answer and the durable record of
   * the attempt, so a worker sends at most about this many webhooks per such round trip.
   */
  concurrency?: number;
}): Worker {
  const logger = new Logger('WebhookDelivery');
  return deps.jobs.process<DeliveryJob>(
    WEBHOOK_QUEUE,
    async (job: Job<DeliveryJob>) => {
      const data = job.data;
      // A job run again after a crash that followed a successful attempt sends nothing more.
      const { state } = await deps.runner.load(webhookDeliveryStream(data.deliveryId), webhookDeliveryDecider);
      // Its approval decision too: applying one that already took effect changes nothing.
      if (state.status === 'DELIVERED') {
        if (state.approval) await deps.approvals?.apply(data.platformId, data.webhookId, data.body, state.approval);
        return;
      }
      const attempt = job.attemptsMade + 1;
      const { url: _dispatchedTo, ...request } = data;
      // An approval request is not sent again once the payment was decided (approved, rejected, timed out).
      if (data.webhookType === APPROVAL_WEBHOOK_TYPE && attempt > 1 && deps.approvals && deps.clocks) {
        if (!(await deps.approvals.awaited(data.body))) {
          const reason = 'the payment was decided meanwhile: the approval request is not sent again';
          await recordUnsent(deps.runner, deps.clocks, { ...request, attempt, maxAttempts: job.maxAttempts }, reason);
          return;
        }
      }
      const { outcome, url, result, approval } = await deps.deliverer.deliver({
        ...request,
        attempt,
        maxAttempts: job.maxAttempts,
      });
      if (outcome === 'DELIVERED') {
        // Recorded with the attempt first: a crash before it takes effect is made good when the job runs again.
        if (approval) await deps.approvals?.apply(data.platformId, data.webhookId, data.body, approval);
        return;
      }
      const reason = result.error ?? `HTTP ${result.statusCode}`;
      if (outcome === 'FAILED')
        throw new UnrecoverableJobError(`${data.webhookType} ${data.webhookId}: ${reason} (not retried)`);
      if (outcome === 'DEAD')
        logger.warn(`${data.webhookType} ${data.webhookId} to ${url}: last attempt failed (${reason}); dead-lettered`);
      throw new Error(`${data.webhookType} ${data.webhookId}: attempt ${attempt} failed: ${reason}`);
    },
    { concurrency: deps.concurrency ?? 32 },
  );
}
