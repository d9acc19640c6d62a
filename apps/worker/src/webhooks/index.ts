import type { CommandRunner } from '#application/command-runner.js';
import type { Infrastructure, ProcessObservers } from '#application/infrastructure.js';
import type { PlatformClocks } from '#application/command-context.js';
import { loadSecretsKey, SecretBox } from '#crypto/secret-box.js';
import { PaymentProcess } from '#application/payments/transactions/payment-process.js';
import type { AppConfig } from '#config/config.js';
import { systemClock } from '#domain/clock.js';
import { WEBHOOK_RETRY_POLICY } from '#domain/webhooks/retry-policy.js';
import { WebhookDeliverer } from './deliverer.js';
import { startWebhookDelivery } from './delivery.js';
import { DeliverySlots } from './delivery-slots.js';
import { WebhookDispatcher } from './dispatcher.js';
import { PaymentApprovals } from './payment-approvals.js';

export interface RunningWebhooks {
  dispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

/**
 * The deliverer attempts are made with, on `runner`: the delivery workers' own, and the one a process serving the API
 * supplies to the application for the synchronous sandbox test.
 */
export function createWebhookDeliverer(
  runner: CommandRunner,
  clocks: PlatformClocks,
  config: AppConfig,
  observers?: ProcessObservers,
) {
  return new WebhookDeliverer({
    ...(observers ? { observers } : {}),
    runner,
    box: new SecretBox(loadSecretsKey(config.secretsKey)),
    clocks,
    wallClock: systemClock,
    timeoutMs: config.webhookTimeoutMs,
    allowedHosts: config.webhookAllowedHosts,
  });
}

/** The dispatcher (log -> jobs) and the delivery workers (jobs -> receivers). */
export async function startWebhooks(
  infra: Pick<Infrastructure, 'eventStore' | 'readModels' | 'jobs' | 'projections' | 'clocks' | 'runner' | 'observers'>,
  config: AppConfig,
): Promise<RunningWebhooks> {
  // Deliveries and approvals have no reader waiting for the read models to show them; the delivery streams are
  // cached apart from the requests' streams.
  const runner = infra.runner.for({ answersAfter: 'append', cache: { name: 'webhooks' } });
  const deliverer = createWebhookDeliverer(runner, infra.clocks, config, infra.observers);
  const dispatcher = new WebhookDispatcher({
    eventStore: infra.eventStore,
    readModels: infra.readModels,
    jobs: infra.jobs,
    projections: infra.projections,
    runner,
  });
  const approvals = new PaymentApprovals(
    runner,
    new PaymentProcess(runner, infra.clocks, infra.jobs),
    infra.readModels,
    infra.clocks,
  );
  const delivery = startWebhookDelivery({
    jobs: infra.jobs,
    runner,
    deliverer,
    approvals,
    clocks: infra.clocks,
    slots: new DeliverySlots({
      perPlatform: config.webhookPlatformConcurrency,
      timeoutMs: config.webhookTimeoutMs,
      // A circuit stays open as long as the webhook schedule's first and longest delays.
      openMs: WEBHOOK_RETRY_POLICY.firstDelayMs,
      maxOpenMs: WEBHOOK_RETRY_POLICY.maxDelayMs,
      realClock: systemClock,
    }),
    concurrency: config.webhookConcurrency,
  });
  await dispatcher.start();
  return {
    dispatcher,
    async close() {
      await dispatcher.stop();
      await delivery.close();
    },
  };
}
