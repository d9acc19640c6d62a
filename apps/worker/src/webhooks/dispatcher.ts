import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { CommandRunner, ProjectionWaiter } from '#application/command-runner.js';
import {
  maxAttemptsFor,
  webhookDeliveryDecider,
  type WebhookDeliveryEvent,
} from '#domain/webhooks/webhook-delivery.js';
import type { WebhookSources } from '#domain/webhooks/webhook-event-map.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { CheckpointedSubscription } from '#event-store/checkpointed-subscription.js';
import { DEFAULT_SET_ASIDE_POLICY, handleOrSetAside, type SetAsidePolicy } from '#event-store/set-aside.js';
import { WrongExpectedVersion, type EventStore, type RecordedEvent } from '#event-store/event-store.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { LeasedCheckpoint } from '#read-models/runner/leased-checkpoint.js';
import type { LeaseKeeperOptions } from '#read-models/runner/lease-keeper.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { SetAsideLog, setAsideMessage } from '#read-models/runner/set-aside-events.js';
import { DELIVER_JOB, WEBHOOK_BACKOFF, WEBHOOK_QUEUE, type DeliveryJob } from './delivery-jobs.js';
import {
  EndpointHistory,
  LedgerReplay,
  webhookPlatformOf,
  passingUpTo,
  webhookSources,
  webhooksOf,
} from '../../../host/src/webhooks/sources.js';

/** Checkpoint name in the read-model store's checkpoints. */
export const DISPATCHER_CHECKPOINT = 'webhook-dispatcher';

export interface DispatcherDeps {
  eventStore: EventStore;
  readModels: ReadModelStore;
  jobs: JobQueue;
  projections: ProjectionWaiter;
  /** Reads delivery streams (redeliveries). */
  runner: CommandRunner;
  /** Most events handled per checkpoint (default 256). */
  batchSize?: number;
  /** Wait before resubscribing after a failed batch (default 1000 ms). */
  retryDelayMs?: number;
  /**
   * How often the checkpoint is written (default 200 ms). Re-running events after a crash is
   * idempotent, so the checkpoint may trail what was enqueued; writing it once per interval
   * instead of once per batch spares a durable commit per batch.
   */
  checkpointIntervalMs?: number;
  /** The lease that keeps the dispatcher single-active across worker processes. */
  lease?: LeaseKeeperOptions;
  /** When an event that keeps failing is set aside (see SetAsidePolicy). */
  setAside?: SetAsidePolicy;
}

/** Batches recorded and enqueued at once: each one's appends and Redis writes overlap the next ones' planning. */
const MAX_IN_FLIGHT = 4;

interface InFlight {
  /** Position of the batch's last event. */
  last: bigint;
  done: boolean;
  /** Settles (never rejects) once the batch is enqueued or has failed. */
  work: Promise<void>;
}

/** A delivery to record as scheduled (absent for a redelivery, whose stream exists) and the job that makes it. */
export interface Planned {
  schedule?: WebhookDeliveryEvent[];
  job: { id: string; data: DeliveryJob; attempts: number };
}

/**
 * The deliveries an event of the log makes: none unless its platform had an endpoint at the event's position; else
 * one per webhook the event map makes, each scheduled in its own stream with one job (ids derived from the event).
 */
export async function planDeliveries(
  event: RecordedEvent,
  sources: WebhookSources,
  endpoints: EndpointHistory,
): Promise<Planned[]> {
  const platformId = webhookPlatformOf(event);
  if (!platformId) return [];
  const url = await endpoints.endpointAt(platformId, event.position);
  if (!url) return [];
  const webhooks = await webhooksOf(event, sources);
  return webhooks.map(({ webhookId, deliveryId, index, payload }) => {
    const maxAttempts = maxAttemptsFor(payload.type);
    return {
      schedule: webhookDeliveryDecider.decide(
        {
          type: 'ScheduleDelivery',
          deliveryId,
          platformId,
          url,
          payload,
          maxAttempts,
          sourceEventId: event.id,
          now: payload.timestamp,
        },
        webhookDeliveryDecider.initialState(),
      ),
      job: {
        id: `webhook:${event.id}:${index}`,
        attempts: maxAttempts,
        data: { deliveryId, platformId, webhookId, webhookType: payload.type, url, body: JSON.stringify(payload) },
      },
    };
  });
}

/**
 * Turns the event log into webhook deliveries; the log is the outbox. For each batch of events
 * after its checkpoint it maps events to webhooks (WEBHOOK_EVENT_MAP), records each delivery as
 * scheduled in its own stream, enqueues one job per webhook under an id derived from the source
 * event, and only then advances the checkpoint. A process that dies anywhere in between runs the
 * batch again: scheduling and enqueueing are idempotent, webhook ids are derived, so nothing is
 * lost and nothing is queued twice. Only platforms with an endpoint at the event's position get
 * webhooks. One dispatcher is active across processes (a lease with the checkpoint); the others
 * wait and take over from the checkpoint when it stops renewing.
 */
export class WebhookDispatcher {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly checkpointIntervalMs: number;
  private readonly endpoints: EndpointHistory;
  private readonly ledgers: LedgerReplay;
  private running = false;
  /** The log after the checkpoint, in batches; serialises the checkpoint writes with them. */
  private readonly feed: CheckpointedSubscription;
  /** Checkpoint writes queued behind the batches. */
  private saving: Promise<void> = Promise.resolve();
  private readonly checkpoint: LeasedCheckpoint;
  /** Dispatched (enqueued) but not yet checkpointed. */
  private dispatched: bigint | undefined;
  private checkpointTimer?: NodeJS.Timeout;
  /** Planned batches whose deliveries are being recorded and enqueued, oldest first (see `dispatch`). */
  private inFlight: InFlight[] = [];
  /** Changes whenever the feed resumes from the checkpoint: batches of an older run no longer move `dispatched`. */
  private run = 0;
  /** Events that could not be turned into webhooks, for the operator. */
  private readonly setAsideLog: SetAsideLog;

  constructor(private readonly deps: DispatcherDeps) {
    this.checkpointIntervalMs = deps.checkpointIntervalMs ?? 200;
    this.setAsideLog = new SetAsideLog(deps.readModels, DISPATCHER_CHECKPOINT);
    this.endpoints = new EndpointHistory(deps.eventStore);
    this.ledgers = new LedgerReplay(deps.eventStore);
    this.checkpoint = new LeasedCheckpoint(
      deps.readModels,
      DISPATCHER_CHECKPOINT,
      (active) => this.leaseChanged(active),
      deps.lease,
    );
    this.feed = new CheckpointedSubscription(deps.eventStore, {
      resume: async () => {
        this.forgetInFlight();
        // A standby subscribes once it gains the lease.
        return this.checkpoint.active ? { after: await this.checkpoint.load() } : undefined;
      },
      handle: (batch) => this.dispatch(batch),
      batchSize: deps.batchSize ?? 256,
      retryDelayMs: deps.retryDelayMs ?? 1000,
      onFailure: (error, delay) => this.failed(error, delay),
    });
  }

  /** Last committed position (undefined before the first batch). */
  get position(): bigint | undefined {
    return this.checkpoint.position;
  }

  /** Whether this process's dispatcher is the active one. */
  get active(): boolean {
    return this.checkpoint.active;
  }

  async start(): Promise<void> {
    if (this.running) return;
    // Gaining the lease here is picked up by the first subscription (leaseChanged ignores it while not running).
    await this.checkpoint.start();
    this.running = true;
    await this.feed.start();
  }

  /** Stops and commits what was already delivered to it. Call before the projections stop. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.feed.stop();
    await Promise.all(this.inFlight.map(({ work }) => work));
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    await this.saving
      .then(() => this.commitCheckpoint())
      .catch((error: unknown) =>
        this.logger.error(
          `webhook dispatcher checkpoint not saved; events after ${this.position} run again at start: ${String(error)}`,
        ),
      );
    await this.checkpoint.stop();
  }

  /** Gained: start from the stored checkpoint. Lost: stop at once (the successor resumes from the checkpoint). */
  private leaseChanged(active: boolean): void {
    if (!this.running) return;
    this.logger.log(
      active ? 'this worker dispatches webhooks now' : 'another worker dispatches webhooks now; standing by',
    );
    this.forgetInFlight();
    this.feed.restart();
  }

  /** A batch failed: what was dispatched before it is checkpointed later or simply dispatched again. */
  private failed(error: unknown, delayMs: number): void {
    this.forgetInFlight();
    const reason = (error as Error)?.stack ?? String(error);
    this.logger.error(`webhook dispatch failed; resuming from the checkpoint in ${delayMs} ms: ${reason}`);
  }

  /** The feed starts again from the checkpoint: what is in flight may finish, but no longer moves it. */
  private forgetInFlight(): void {
    this.run++;
    this.inFlight = [];
    this.dispatched = undefined;
  }

  private async dispatch(batch: RecordedEvent[]): Promise<void> {
    const run = this.run;
    const last = batch[batch.length - 1].position;
    const sources = webhookSources(
      this.deps.readModels,
      passingUpTo(
        this.deps.readModels,
        last,
        () => this.waitForProjections(last),
        () => !this.running,
      ),
      this.ledgers,
    );
    const planned: Planned[] = [];
    if (!this.checkpoint.active) throw new Error('the webhook dispatcher lease was lost');
    for (const event of batch) {
      this.endpoints.observe(event);
      // One event that cannot be turned into webhooks is set aside, not retried forever: the others go on.
      const handled = await handleOrSetAside(
        async () =>
          event.type === 'WebhookRedeliveryRequested'
            ? [await this.planRedelivery(event)]
            : await planDeliveries(event, sources, this.endpoints),
        this.deps.setAside ?? DEFAULT_SET_ASIDE_POLICY,
        () => !this.running || run !== this.run || !this.checkpoint.active,
      );
      if (handled.ok) planned.push(...handled.value);
      else this.logger.error(setAsideMessage(await this.setAsideLog.record(event, handled)));
    }
    // Planned in a run the feed has left: the new run dispatches these events again.
    if (run !== this.run) return;
    // Recorded and enqueued while the next batches are planned; the checkpoint passes a batch only once it and every
    // batch before it are enqueued.
    const entry: InFlight = { last, done: false, work: Promise.resolve() };
    entry.work = this.enqueue(planned).then(
      () => {
        entry.done = true;
        if (run === this.run) this.advance();
      },
      (error: unknown) => {
        if (run !== this.run) return;
        const delay = this.deps.retryDelayMs ?? 1000;
        this.failed(error, delay);
        this.feed.restart(delay);
      },
    );
    this.inFlight.push(entry);
    while (this.inFlight.length >= MAX_IN_FLIGHT && run === this.run) await this.inFlight[0].work;
  }

  /** Records the planned deliveries as scheduled, then enqueues their jobs. */
  private async enqueue(planned: Planned[]): Promise<void> {
    await Promise.all(
      planned.map((p) =>
        p.schedule ? this.record(p.job.data.deliveryId, p.schedule, p.job.data.platformId) : undefined,
      ),
    );
    await Promise.all(
      planned.map((p) =>
        this.deps.jobs.enqueue(WEBHOOK_QUEUE, DELIVER_JOB, p.job.data, {
          id: p.job.id,
          attempts: p.job.attempts,
          backoff: WEBHOOK_BACKOFF,
          group: p.job.data.platformId,
        }),
      ),
    );
  }

  /** Moves `dispatched` past the batches enqueued in order, and schedules a checkpoint write. */
  private advance(): void {
    while (this.inFlight.length > 0 && this.inFlight[0].done) this.dispatched = this.inFlight.shift()!.last;
    if (this.dispatched === undefined) return;
    this.checkpointTimer ??= setTimeout(() => {
      this.checkpointTimer = undefined;
      // `dispatched` covers only batches enqueued with all before them, so it is written whenever the previous write
      // is done, however many batches are under way; a failed write resumes from the stored checkpoint.
      this.saving = this.saving.then(() =>
        this.commitCheckpoint().catch((error: unknown) => {
          this.logger.error(`webhook dispatcher checkpoint not saved: ${String(error)}`);
          this.feed.restart(this.deps.retryDelayMs ?? 1000);
        }),
      );
    }, this.checkpointIntervalMs);
  }

  private async commitCheckpoint(): Promise<void> {
    const position = this.dispatched;
    if (position === undefined) return;
    await this.checkpoint.save(position);
  }

  /** A redelivery request becomes a job with a fresh attempt budget (same webhook id and body). */
  private async planRedelivery(event: RecordedEvent): Promise<Planned> {
    const { deliveryId, platformId, url, maxAttempts } = (
      event as RecordedEvent<string, Extract<WebhookDeliveryEvent, { type: 'WebhookRedeliveryRequested' }>['data']>
    ).data;
    const { state } = await this.deps.runner.load(webhookDeliveryStream(deliveryId), webhookDeliveryDecider);
    const payload = state.payload!;
    return {
      job: {
        id: `webhook-redelivery:${event.id}`,
        attempts: maxAttempts,
        data: {
          deliveryId,
          platformId,
          webhookId: payload.id,
          webhookType: payload.type,
          url,
          body: JSON.stringify(payload),
        },
      },
    };
  }

  /** Appends the scheduled event once; a second run finds the stream and leaves it. */
  private async record(deliveryId: string, events: WebhookDeliveryEvent[], platformId: string): Promise<void> {
    const stream = webhookDeliveryStream(deliveryId);
    const stored = events.map((e) => ({
      id: randomUUID(),
      type: e.type,
      data: e.data as unknown as Record<string, unknown>,
      metadata: { platformId, actor: 'webhook-dispatcher', correlationId: deliveryId },
    }));
    try {
      await this.deps.eventStore.appendToStream(stream, stored, { expectedRevision: 'no_stream' });
      // The delivery job's first attempt then records itself without reading the stream back.
      this.deps.runner.created(stream, webhookDeliveryDecider, events, stored[stored.length - 1].id);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    }
  }

  /** Snapshots come from read models that include the batch; waits as long as it takes, unless stopping. */
  private async waitForProjections(position: bigint): Promise<void> {
    for (;;) {
      if (await this.deps.projections.waitForPosition(position, 1000)) return;
      if (!this.running) throw new Error('webhook dispatcher stopped while waiting for the read models');
      this.logger.warn(`read models have not reached position ${position} yet; webhooks wait for them`);
    }
  }
}
