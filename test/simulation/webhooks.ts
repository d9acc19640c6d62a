import type { SecretBox } from '#crypto/secret-box.js';
import { streams } from '#domain/primitives.js';
import { WEBHOOK_RETRY_POLICY } from '#domain/webhooks/retry-policy.js';
import { webhookConfigDecider } from '#domain/webhooks/webhook-config.js';
import { webhookDeliveryDecider, type WebhookDeliveryEvent } from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { WrongExpectedVersion } from '#event-store/event-store.js';
import type { JobQueue, Worker } from '#jobs/job-queue.js';
import { refusedUrlHost } from '#net/address-policy.js';
import { Collections } from '#read-models/projections/collections.js';
import type { CommandRunner } from '#application/command-runner.js';
import {
  ConfigureWebhooksCommand,
  ConfigureWebhooksHandler,
  SendTestWebhookCommand,
} from '#application/webhooks/webhook-commands.js';
import type { AppConfig } from '#config/config.js';
import { EndpointHistory, LedgerReplay, webhookSources } from '../../apps/host/src/webhooks/sources.js';
import { WebhookDeliverer } from '../../apps/worker/src/webhooks/deliverer.js';
import { startWebhookDelivery } from '../../apps/worker/src/webhooks/delivery.js';
import { DELIVER_JOB, WEBHOOK_BACKOFF, WEBHOOK_QUEUE } from '../../apps/worker/src/webhooks/delivery-jobs.js';
import { DeliverySlots } from '../../apps/worker/src/webhooks/delivery-slots.js';
import { planDeliveries, type Planned } from '../../apps/worker/src/webhooks/dispatcher.js';
import { clearBox, type FaultPlan, type SimProcess } from './process.js';
import type { SimReceivers } from './receivers.js';
import type { Random, Scheduler } from './scheduler.js';
import type { Operation } from './workload.js';
import type { World } from './world.js';

/** The receiver timeout (`WEBHOOK_TIMEOUT_MS`'s default). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Attempts at once, in all and per platform (`WEBHOOK_CONCURRENCY`, `WEBHOOK_PLATFORM_CONCURRENCY` defaults). */
const CONCURRENCY = 32;
const PER_PLATFORM = 8;

/** The collections the event map reads (webhookSources): webhooks wait for their projections. */
const SOURCE_COLLECTIONS = new Set<string>([
  Collections.customers,
  Collections.internalAccounts,
  Collections.platforms,
]);

/**
 * Half the platforms (a sandbox one and the production one) get signing material drawn from the seed and a receiver of
 * their own; the production one sets its endpoint now, the sandbox one when a receiver's change first turns its
 * webhooks on. The others have none, so their events make no webhooks.
 */
export async function configureWebhooks(
  process: SimProcess,
  world: World,
  receivers: SimReceivers,
  box: SecretBox,
): Promise<void> {
  for (const [i, platform] of world.platforms.entries()) {
    if (i % 2 === 1) continue;
    const url = `https://receiver-${i}.example.com/webhooks`;
    // The sandbox platform starts with its webhooks off (a receiver's change turns them on).
    const on = !platform.sandbox;
    const newKeys = receivers.add(platform.id, url, box, on ? 'ok' : 'off');
    await process.runner.run(
      streams.webhooks(platform.id),
      webhookConfigDecider,
      {
        type: 'SetWebhookEndpoint',
        platformId: platform.id,
        webhookEndpoint: on ? url : null,
        sandbox: platform.sandbox,
        hosts: { refuses: (target: URL) => refusedUrlHost(target, []) !== undefined },
        newKeys,
        now: process.clocks.base.now().toISOString(),
      },
      {
        metadata: { platformId: platform.id, actor: 'ApiToken:simulation', correlationId: 'setup' },
        answersAfter: 'append',
      },
    );
  }
}

/**
 * The worker's webhook delivery (its job handler, slots and circuits, and the deliverer that signs, sends and records
 * each attempt) on the process's queue and runner, sending to the simulated receivers; a job is now and then
 * delivered twice, as an at-least-once queue may.
 */
export function startDelivery(
  process: SimProcess,
  scheduler: Scheduler,
  faults: FaultPlan,
  receivers: SimReceivers,
  hold: (label: string) => Promise<void>,
  box: SecretBox,
): { worker: Worker; deliverer: WebhookDeliverer } {
  const runner = webhookRunner(process);
  const deliverer = new WebhookDeliverer({
    runner,
    box,
    clocks: process.clocks,
    wallClock: scheduler.clock,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    allowedHosts: [],
    send: receivers.sender(hold),
    signOnLoop: true,
  });
  const jobs: JobQueue = Object.assign(Object.create(process.jobs) as JobQueue, {
    process: <T>(queue: string, handler: Parameters<JobQueue['process']>[1], options?: { concurrency?: number }) =>
      process.jobs.process<T>(
        queue,
        async (job) => {
          await handler(job);
          if (faults.deliverTwice()) await handler(job);
        },
        options,
      ),
  });
  const worker = startWebhookDelivery({
    jobs,
    runner,
    deliverer,
    clocks: process.clocks,
    slots: new DeliverySlots({
      perPlatform: PER_PLATFORM,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      openMs: WEBHOOK_RETRY_POLICY.firstDelayMs,
      maxOpenMs: WEBHOOK_RETRY_POLICY.maxDelayMs,
      realClock: scheduler.clock,
    }),
    concurrency: CONCURRENCY,
  });
  return { worker, deliverer };
}

/** The platform sets its webhook endpoint (`PATCH /config`; null turns its webhooks off). */
export async function setEndpoint(process: SimProcess, platformId: string, url: string | null): Promise<string> {
  const config = { webhookAllowedHosts: [] } as unknown as AppConfig;
  const actor = { platformId, actor: 'ApiToken:simulation', correlationId: 'webhook-endpoint' };
  await new ConfigureWebhooksHandler(process.ctx, clearBox, config).execute(new ConfigureWebhooksCommand(url, actor));
  return `endpoint ${url ?? 'off'}`;
}

/**
 * The sandbox's TEST webhook (`POST /webhooks/test`): sent at once through the same deliverer, recorded, never retried
 * (one attempt: a failed one leaves the delivery FAILED). A production platform is refused, and one without an
 * endpoint too.
 */
export const testWebhook: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms);
  const actor = { platformId: platform.id, actor: 'ApiToken:simulation', correlationId: 'test-webhook' };
  const result = await process.sendTestWebhook.execute(new SendTestWebhookCommand(actor));
  return `test webhook ${result.response_status}`;
};

/** The runner the worker's webhook parts use (as apps/worker/src/webhooks/index.ts makes it). */
const webhookRunner = (process: SimProcess): CommandRunner =>
  process.runner.for({ answersAfter: 'append', cache: { name: 'webhooks' } });

/**
 * The webhook dispatcher of the process that holds the dispatcher's lease: the log is the outbox. A batch of the log
 * after the checkpoint is planned with the dispatcher's own planning (the event map, the endpoint at each event's
 * position, ids derived from the event), each delivery recorded as scheduled in its stream and its job enqueued, and
 * only then the checkpoint moves. A batch cut off anywhere runs again: scheduling and enqueueing are idempotent. (The
 * lease and the subscription are the dispatcher's own tests' concern: here a batch is a step of the simulation.)
 */
export class SimDispatcher {
  private running = false;
  private readonly endpoints: EndpointHistory;
  private readonly ledgers: LedgerReplay;

  constructor(
    private readonly process: SimProcess,
    private readonly receivers: SimReceivers,
    private readonly random: Random,
  ) {
    this.endpoints = new EndpointHistory(process.store);
    this.ledgers = new LedgerReplay(process.store);
  }

  /** Dispatches one batch of up to `max` events (a call while one runs does nothing); answers how many it read. */
  async tick(max = 1 + this.random.int(64)): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      return await this.dispatch(max);
    } finally {
      this.running = false;
    }
  }

  /** Dispatches up to the head of the log. */
  async catchUp(): Promise<void> {
    while ((await this.tick(1000)) > 0);
  }

  private async dispatch(max: number): Promise<number> {
    const events = await this.process.store.readAll({ after: this.receivers.dispatched, maxCount: max });
    if (events.length === 0) return 0;
    const last = events[events.length - 1].position;
    // Both waits read the stored checkpoints (and move the projector meanwhile), as every process but the projecting
    // one knows them.
    const passing = { passed: () => this.caughtUp(last), storedPassed: () => this.caughtUp(last) };
    const sources = webhookSources(this.process.readModels, passing, this.ledgers);
    const planned: Planned[] = [];
    for (const event of events) {
      this.endpoints.observe(event);
      planned.push(...(await planDeliveries(event, sources, this.endpoints)));
    }
    await Promise.all(planned.map((p) => this.record(p)));
    for (const { job } of planned)
      await this.process.jobs.enqueue(WEBHOOK_QUEUE, DELIVER_JOB, job.data, {
        id: job.id,
        attempts: job.attempts,
        backoff: WEBHOOK_BACKOFF,
        group: job.data.platformId,
      });
    if (this.receivers.dispatched < last) this.receivers.dispatched = last;
    return events.length;
  }

  /** Appends the scheduled delivery once (a batch run again finds the stream and leaves it). */
  private async record({ schedule, job }: Planned): Promise<void> {
    if (!schedule) return;
    const { deliveryId, platformId } = job.data;
    const stream = webhookDeliveryStream(deliveryId);
    const stored = schedule.map((e: WebhookDeliveryEvent) => ({
      id: this.random.uuid(),
      type: e.type,
      data: e.data as unknown as Record<string, unknown>,
      metadata: { platformId, actor: 'webhook-dispatcher', correlationId: deliveryId },
    }));
    try {
      await this.process.store.appendToStream(stream, stored, { expectedRevision: 'no_stream' });
      webhookRunner(this.process).created(stream, webhookDeliveryDecider, schedule, stored[stored.length - 1].id);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    }
  }

  /** The read models the event map reads have passed `position` (the projector is driven until they have). */
  private async caughtUp(position: bigint): Promise<void> {
    const { projector, readModels } = this.process;
    const read = projector.projections.filter((p) => p.collections.some((c) => SOURCE_COLLECTIONS.has(c)));
    for (;;) {
      const checkpoints = await Promise.all(read.map((p) => readModels.getCheckpoint(p.name)));
      if (checkpoints.every((c) => (c ?? 0n) >= position)) return;
      await projector.tick().catch(() => undefined);
    }
  }
}
