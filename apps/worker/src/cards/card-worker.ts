import { Logger } from '@nestjs/common';
import { cardDecider } from '#domain/cards/card.js';
import type { CardCommand, CardEvent } from '#domain/cards/card-types.js';
import { customerDecider, type CustomerEvent } from '#domain/customers/customer.js';
import { randomIds, streams } from '#domain/primitives.js';
import { CheckpointedSubscription } from '#event-store/checkpointed-subscription.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import { handleOrSetAside } from '#event-store/set-aside.js';
import { UnrecoverableJobError, type Job, type Worker } from '#jobs/job-queue.js';
import { LeasedCheckpoint } from '#read-models/runner/leased-checkpoint.js';
import type { CardDoc } from '#read-models/projections/cards/card-projection.js';
import { Collections } from '#read-models/projections/collections.js';
import { SetAsideLog, setAsideMessage } from '#read-models/runner/set-aside-events.js';
import type { CommandRunner } from '#application/command-runner.js';
import type { Infrastructure } from '#application/infrastructure.js';
import {
  CARD_PROVISIONING_QUEUE,
  enqueueCardJob,
  scheduleIssuance,
  type CardJob,
} from '#application/cards/card-jobs.js';
import { CardLedger } from '#application/cards/card-ledger.js';

/** What the card worker runs on: the ports, the local projector and the platforms' clocks. */
export type CardWorkerDeps = Pick<
  Infrastructure,
  'eventStore' | 'readModels' | 'jobs' | 'projections' | 'clocks' | 'runner'
>;

/** Checkpoint key of the card reactor in the read-model store. */
const REACTOR = 'reactor:cards';
/** The reactor's checkpoint is written after every job it enqueues and at least this often. */
const CHECKPOINT_EVERY = 500;
const RESUBSCRIBE_MS = 1000;
/** A card a job acts on, its platform and the job's instant. */
type CardAt = { cardId: string; platformId: string; at: string };

/**
 * The worker side of cards: the provisioning timers (the sandbox issuer answering) and the
 * reactions to holder KYC approvals and holder deletions. Job handlers are idempotent (the card decider ignores a step
 * that already happened) because jobs are delivered at least once. Times recorded come from the
 * jobs themselves (when the timer was due, when the approval happened), not from this process.
 * Every worker process runs the job handlers; the reactor that turns the log into jobs is
 * single-active (a lease with its checkpoint), the others take over when it stops renewing.
 */
export class CardWorker {
  private readonly logger = new Logger('CardWorker');
  private readonly runner: CommandRunner;
  private worker?: Worker;
  private position?: bigint;
  private sinceCheckpoint = 0;
  private readonly checkpoint: LeasedCheckpoint;
  private readonly feed: CheckpointedSubscription;
  /** Events the reactor could not react to, for the operator. */
  private readonly setAsideLog: SetAsideLog;

  constructor(private readonly infra: CardWorkerDeps) {
    // The card jobs' commands have no reader waiting for the read models to show them; their streams are cached
    // apart from the requests' streams.
    this.runner = infra.runner.for({ answersAfter: 'append', cache: { name: 'card-worker' } });
    this.setAsideLog = new SetAsideLog(infra.readModels, REACTOR);
    this.checkpoint = new LeasedCheckpoint(infra.readModels, REACTOR, (active) => {
      this.logger.log(
        active ? 'this worker reacts to card events now' : 'another worker reacts to card events now; standing by',
      );
      this.feed.restart();
    });
    this.feed = new CheckpointedSubscription(infra.eventStore, {
      resume: async () => {
        if (!this.checkpoint.active) return undefined;
        this.position = await this.checkpoint.load();
        this.sinceCheckpoint = 0;
        return { after: this.position };
      },
      handle: async (batch) => {
        for (const event of batch) {
          // An event that keeps failing is set aside, not retried forever: the others go on.
          const stopped = () => !this.feed.isRunning || !this.checkpoint.active;
          const handled = await handleOrSetAside(() => this.react(event), undefined, stopped);
          if (!handled.ok) this.logger.error(setAsideMessage(await this.setAsideLog.record(event, handled)));
        }
      },
      batchSize: 64,
      retryDelayMs: RESUBSCRIBE_MS,
      onFailure: (error, delay) =>
        this.logger.error(`card reactor failed; resubscribing from its checkpoint in ${delay} ms: ${String(error)}`),
    });
  }

  async start(): Promise<void> {
    this.worker = this.infra.jobs.process<unknown>(CARD_PROVISIONING_QUEUE, (job) => this.handle(job), {
      concurrency: 4,
    });
    await this.checkpoint.start();
    await this.feed.start();
  }

  async close(): Promise<void> {
    await this.feed.stop();
    await this.saveCheckpoint();
    await this.checkpoint.stop();
    await this.worker?.close();
  }

  private async handle(job: Job<unknown>): Promise<void> {
    const meta = (platformId: string) => ({ platformId, actor: 'system:cards', correlationId: job.id });
    switch (job.name as CardJob['name']) {
      case 'issue': {
        const d = job.data as Extract<CardJob, { name: 'issue' }>['data'];
        await this.decideCard(d.cardId, { type: 'CompleteIssuance', now: d.dueAt }, meta(d.platformId));
        return;
      }
      case 'card-awaiting-kyc': {
        const d = job.data as Extract<CardJob, { name: 'card-awaiting-kyc' }>['data'];
        const { state: card } = await this.runner.load(streams.card(d.cardId), cardDecider);
        if (card.card?.state !== 'PENDING_KYC') return;
        const { state: holder } = await this.runner.load(streams.customer(card.card.customerId), customerDecider);
        if (holder.kycStatus === 'APPROVED') await this.approve(d, meta(d.platformId));
        return;
      }
      case 'holder-kyc-approved': {
        const d = job.data as Extract<CardJob, { name: 'holder-kyc-approved' }>['data'];
        for (const card of await this.holderCards(d, ['PENDING_KYC']))
          await this.approve({ ...d, cardId: card.id }, meta(d.platformId));
        return;
      }
      case 'holder-deleted': {
        const d = job.data as Extract<CardJob, { name: 'holder-deleted' }>['data'];
        for (const card of await this.holderCards(d, ['PENDING_KYC', 'PENDING_ISSUE', 'ACTIVE', 'FROZEN']))
          await this.closeByService({ ...d, cardId: card.id }, meta(d.platformId));
        return;
      }
      case 'authorization-expiry': {
        const d = job.data as Extract<CardJob, { name: 'authorization-expiry' }>['data'];
        await this.expire(d, meta(d.platformId));
        return;
      }
      default:
        throw new UnrecoverableJobError(`unknown card job ${job.name}`);
    }
  }

  /** The holder's cards in the given states, once the read models include everything up to the holder's event. */
  private async holderCards(
    d: { platformId: string; customerId: string; position: string },
    states: string[],
  ): Promise<CardDoc[]> {
    if (!(await this.infra.projections.waitForPosition(BigInt(d.position), 5000)))
      throw new Error(`read models have not reached position ${d.position} yet`);
    const page = await this.infra.readModels.find<CardDoc>(Collections.cards, {
      filters: [
        { field: 'platformId', op: 'eq', value: d.platformId },
        { field: 'customerId', op: 'eq', value: d.customerId },
        { field: 'state', op: 'in', value: states },
      ],
      sortBy: 'createdAt',
      sortOrder: 'asc',
      limit: 1000,
    });
    return page.data;
  }

  private decideCard(cardId: string, command: CardCommand, metadata: Record<string, string>) {
    return this.runner.run(streams.card(cardId), cardDecider, command, { metadata });
  }

  /** Deleting a customer needs every hold released first, so there is rarely one left; any that is gets voided. */
  private async closeByService({ cardId, platformId, at }: CardAt, metadata: Record<string, string>): Promise<void> {
    const result = await this.decideCard(cardId, { type: 'CloseCardByService', now: at }, metadata);
    const ledger = await CardLedger.forPlatform(this.runner, this.infra.clocks, randomIds, platformId, metadata);
    await ledger.releaseReversed(result.events);
  }

  /**
   * Reverses the authorization if it still holds funds, then voids whatever hold carries its
   * reference: the recorded one, or one whose authorization a crash kept from being recorded.
   */
  private async expire(
    d: { cardId: string; platformId: string; authorizationId: string; dueAt: string },
    metadata: Record<string, string>,
  ): Promise<void> {
    await this.decideCard(
      d.cardId,
      { type: 'ExpireAuthorization', authorizationId: d.authorizationId, now: d.dueAt },
      metadata,
    );
    const { state: card } = await this.runner.load(streams.card(d.cardId), cardDecider);
    if (card.authorizations.get(d.authorizationId)?.status === 'CLEARED') return;
    // A clearing reserved on the card stream (possibly by another process) is about to post this hold.
    if (card.clearings.has(d.authorizationId)) return;
    const ledger = await CardLedger.forPlatform(this.runner, this.infra.clocks, randomIds, d.platformId, metadata);
    for (const hold of await ledger.openHoldsFor(d.authorizationId)) await ledger.void(hold);
  }

  private async approve({ cardId, platformId, at }: CardAt, metadata: Record<string, string>): Promise<void> {
    const result = await this.decideCard(cardId, { type: 'ApproveHolderKyc', now: at }, metadata);
    if (result.events.length > 0) await scheduleIssuance(this.infra.jobs, cardId, platformId, at);
  }

  private async react(recorded: RecordedEvent): Promise<void> {
    if (!this.checkpoint.active) throw new Error('the card reactor lease was lost');
    const enqueued = await this.jobFor(recorded);
    this.position = recorded.position;
    this.sinceCheckpoint += 1;
    if (enqueued || this.sinceCheckpoint >= CHECKPOINT_EVERY) await this.saveCheckpoint();
  }

  /** Queues a job about a card holder, once per recorded event (`key` names the kind in the job id). */
  private holderJob(
    name: 'holder-kyc-approved' | 'holder-deleted',
    key: string,
    recorded: RecordedEvent,
    holder: { platformId: string; customerId: string },
    at: string,
  ) {
    const data = { platformId: holder.platformId, customerId: holder.customerId, position: `${recorded.position}`, at };
    return enqueueCardJob(this.infra.jobs, { name, data }, `${key}:${recorded.id}`);
  }

  private async jobFor(recorded: RecordedEvent): Promise<boolean> {
    const event = { type: recorded.type, data: recorded.data } as CardEvent | CustomerEvent;
    switch (event.type) {
      case 'CustomerKycStatusChanged': {
        if (event.data.kycStatus !== 'APPROVED') return false;
        await this.holderJob('holder-kyc-approved', 'kyc-approved', recorded, event.data, event.data.updatedAt);
        return true;
      }
      case 'CustomerDeleted': {
        await this.holderJob('holder-deleted', 'holder-deleted', recorded, event.data, event.data.deletedAt);
        return true;
      }
      case 'CardCreated':
      case 'CardStateChanged': {
        const card = event.data.card;
        if (card.state === 'PENDING_ISSUE') {
          await scheduleIssuance(this.infra.jobs, card.id, event.data.platformId, card.updatedAt);
          return true;
        }
        if (card.state === 'PENDING_KYC') {
          await enqueueCardJob(
            this.infra.jobs,
            {
              name: 'card-awaiting-kyc',
              data: { cardId: card.id, platformId: event.data.platformId, at: card.createdAt },
            },
            `awaiting-kyc:${card.id}`,
          );
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  private async saveCheckpoint(): Promise<void> {
    const position = this.position;
    if (position === undefined || this.sinceCheckpoint === 0 || !this.checkpoint.active) return;
    this.sinceCheckpoint = 0;
    try {
      await this.checkpoint.save(position);
    } catch (error) {
      // The lease moved on: the successor resumes from the stored checkpoint (reactions are idempotent).
      this.logger.warn(`card reactor checkpoint not saved: ${String(error)}`);
    }
  }
}

/** Starts the card timers and reactions on the given infrastructure; closing stops both. */
export async function startCardWorker(infra: CardWorkerDeps): Promise<CardWorker> {
  const worker = new CardWorker(infra);
  await worker.start();
  return worker;
}
