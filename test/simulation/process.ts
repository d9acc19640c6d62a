import type { SecretBox } from '#crypto/secret-box.js';
import type { IdGenerator } from '#domain/primitives.js';
import { MemoryEventStore, type MemoryLog } from '#event-store/memory/event-store.js';
import type { AppendResult } from '#event-store/event-store.js';
import type { Job, Worker } from '#jobs/job-queue.js';
import { MemoryJobQueue, type MemoryJobStore } from '#jobs/memory/job-queue.js';
import type { ProjectionRunner } from '#read-models/runner/projection-runner.js';
import { CardAuthorizations } from '#application/cards/card-authorizations.js';
import { CardLocks } from '#application/cards/card-commands.js';
import { CARD_PROVISIONING_QUEUE } from '#application/cards/card-jobs.js';
import { CreateQuoteHandler, ExecuteQuoteHandler } from '#application/payments/quotes/quote-commands.js';
import { CreateExternalAccountHandler } from '#application/external-accounts/external-account-commands.js';
import { TransferInHandler, TransferOutHandler } from '#application/payments/transfers/transfer-commands.js';
import { handleTimer } from '#application/payments/timers/timer-handler.js';
import { PaymentProcess } from '#application/payments/transactions/payment-process.js';
import { TIMER_QUEUE, type TimerJob } from '#domain/payments/transactions/payment-plan.js';
import type { PlatformDecisions } from '#application/decisions/platform-decisions.js';
import { CardWorker } from '../../apps/worker/src/cards/card-worker.js';
import { FileRail } from '#application/payments/rails/file-rail.js';
import { RAIL_QUEUE, type RailJob } from '#domain/payments/rails/bank-rails.js';
import { DomainError } from '#domain/errors.js';
import { SimBankFiles, type SimBank } from './bank.js';
import { allProjections } from '#read-models/projections/index.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { IdentityClaims } from '#application/claims/identity-claims.js';
import { CommandContext, PlatformClocks } from '#application/command-context.js';
import { CommandRunner } from '#application/command-runner.js';
import { CreateCustomerHandler } from '#application/customers/customer-commands.js';
import { IdempotencyService } from '#application/idempotency/idempotency-service.js';
import { FundInternalAccountHandler } from '#application/payments/ledger/fund-commands.js';
import { AdvanceSandboxClockHandler } from '#application/sandbox-clock/sandbox-clock.js';
import { SendTestWebhookHandler } from '#application/webhooks/webhook-commands.js';
import { heldReadModels } from './held-read-models.js';
import { SimProjector, SimulatedFault } from './projector.js';
import type { SimReceivers } from './receivers.js';
import type { Random, Scheduler } from './scheduler.js';
import { SimDispatcher, startDelivery } from './webhooks.js';
import type { SimDecisionEndpoints } from './decisions.js';
import { SimWalletHandlers } from './wallet-handlers.js';

/** What the simulation makes go wrong, decided by its seed (see faults.ts). */
export interface FaultPlan {
  /** Whether this append fails before it is written (nothing durable). */
  failBeforeAppend(stream: string): boolean;
  /** Whether this append, written and durable, still fails for its caller. */
  failAfterAppend(stream: string): boolean;
  failCommit(projection: string): boolean;
  /** Whether a job just run is delivered again. */
  deliverTwice(): boolean;
}

/** What the simulation hears from the stores: every append acknowledged to its caller. */
export interface Observer {
  acknowledge(stream: string, result: AppendResult): void;
}

/** The box a simulation seals idempotent responses with: reversible and deterministic (nothing secret is kept). */
export const clearBox = {
  seal: (plain: Buffer | string, context: string) => `${context}|${Buffer.from(plain).toString('base64')}`,
  open: (sealed: string, context: string) => {
    if (!sealed.startsWith(`${context}|`)) throw new Error('sealed for another context');
    return Buffer.from(sealed.slice(context.length + 1), 'base64');
  },
} as unknown as SecretBox;

/**
 * One simulated process of the service: the application's command runner, handlers and services over the durable
 * state (the event log, the read models), each store operation held by the scheduler. What a process keeps in
 * memory (the runner's caches and queues, the clocks' memo, the projector's progress) is lost when it stops: a
 * restart builds a new one over the same log.
 */
export class SimProcess {
  readonly store: MemoryEventStore;
  readonly runner: CommandRunner;
  readonly clocks: PlatformClocks;
  readonly ctx: CommandContext;
  readonly idempotency: IdempotencyService;
  readonly createCustomer: CreateCustomerHandler;
  readonly fund: FundInternalAccountHandler;
  readonly advanceClock: AdvanceSandboxClockHandler;
  readonly projector: SimProjector;
  readonly jobs: MemoryJobQueue;
  readonly cardLocks = new CardLocks();
  readonly cardAuthorizations: CardAuthorizations;
  readonly payments: PaymentProcess;
  readonly createQuote: CreateQuoteHandler;
  readonly executeQuote: ExecuteQuoteHandler;
  readonly createExternalAccount: CreateExternalAccountHandler;
  readonly transferOut: TransferOutHandler;
  readonly transferIn: TransferInHandler;
  /** The webhook dispatcher (run by the process holding its lease: the simulation's first). */
  readonly webhooks: SimDispatcher;
  readonly sendTestWebhook: SendTestWebhookHandler;
  /** The production platforms' bank rail over the simulated bank's folders. */
  readonly rail: FileRail;
  private readonly railFiles: SimBankFiles;
  /** The platforms' decision endpoints, asked by the service's HTTP client over the simulated endpoints. */
  readonly decisions: PlatformDecisions;
  /** Embedded wallets: accounts, sessions and signed retries. */
  readonly wallet: SimWalletHandlers;
  private readonly workers: Worker[];

  readonly readModels: ReadModelStore;
  /** Whether the process runs: a stopped one completes nothing more (its held operations never resume). */
  alive = true;

  constructor(
    durable: { log: MemoryLog; jobs: MemoryJobStore; readModels: ReadModelStore },
    scheduler: Scheduler,
    random: Random,
    faults: FaultPlan,
    observer: Observer,
    touched: Map<string, Set<string>>,
    receivers: SimReceivers,
    readonly bank: SimBank,
    endpoints: SimDecisionEndpoints,
  ) {
    const held = async (label: string) => {
      await scheduler.hold(label);
      if (!this.alive) await new Promise<never>(() => undefined);
    };
    this.readModels = heldReadModels(durable.readModels, held);
    const readModels = this.readModels;
    this.store = new MemoryEventStore({
      log: durable.log,
      clock: scheduler.clock,
      ids: () => random.uuid(),
      hooks: {
        before: async (operation, stream) => {
          await held(`${operation} ${stream ?? 'all'}`);
          if (operation === 'append' && faults.failBeforeAppend(stream!))
            throw new SimulatedFault(`append to ${stream} failed before it was written`);
        },
        afterAppend: async (stream, result) => {
          await held(`ack ${stream}`);
          if (faults.failAfterAppend(stream))
            throw new SimulatedFault(`append to ${stream} failed after it was written`);
          observer.acknowledge(stream, result);
        },
      },
    });
    this.runner = new CommandRunner(this.store, undefined, {
      eventIds: () => random.uuid(),
      backoff: () => held('backoff'),
    });
    this.clocks = new PlatformClocks(this.store, scheduler.clock);
    const ids: IdGenerator = { uuid: () => random.uuid() };
    this.ctx = new CommandContext(this.runner, this.clocks, ids);
    this.idempotency = new IdempotencyService(this.runner, this.clocks, ids, clearBox);
    const claims = new IdentityClaims(this.runner, this.store, this.clocks);
    this.createCustomer = new CreateCustomerHandler(this.ctx, claims);
    this.fund = new FundInternalAccountHandler(this.ctx, readModels);
    this.jobs = new MemoryJobQueue(scheduler.clock, durable.jobs, () => random.uuid());
    this.advanceClock = new AdvanceSandboxClockHandler(this.ctx, this.jobs);
    this.projector = new SimProjector(touched, this.store, readModels, allProjections, random, faults);
    this.decisions = endpoints.client(this, clearBox, held);
    this.cardAuthorizations = new CardAuthorizations(this.ctx, this.cardLocks, this.jobs, this.decisions);
    this.payments = new PaymentProcess(this.runner, this.clocks, this.jobs);
    this.createQuote = new CreateQuoteHandler(this.ctx, this.payments, readModels);
    this.executeQuote = new ExecuteQuoteHandler(this.ctx, this.payments, readModels);
    this.createExternalAccount = new CreateExternalAccountHandler(this.ctx, claims, readModels);
    this.transferOut = new TransferOutHandler(this.runner, this.payments, readModels, this.clocks, ids);
    this.transferIn = new TransferInHandler(this.runner, this.payments, readModels, this.clocks, ids);
    this.webhooks = new SimDispatcher(this, receivers, random);
    const delivery = startDelivery(this, scheduler, faults, receivers, held, clearBox);
    this.sendTestWebhook = new SendTestWebhookHandler(this.ctx, delivery.deliverer);
    this.railFiles = new SimBankFiles(bank, held, this);
    this.rail = new FileRail(this.runner, this.clocks, this.payments, this.railFiles, readModels);
    this.wallet = new SimWalletHandlers(this.ctx, readModels, this.cardLocks, scheduler.clock, ids, clearBox, random);
    this.workers = [this.startCardWorker(faults), this.startTimers(faults), delivery.worker, this.startRail(faults)];
  }

  /**
   * The worker's bank rail jobs, as apps/worker's startRails runs them (with a poll: the instruction is queued, and
   * the next rail pass writes it out); a job is now and then delivered twice.
   */
  private startRail(faults: FaultPlan): Worker {
    const submit = async (job: Job<RailJob>) => {
      try {
        await this.rail.submit(job.data.ref, job.data.platformId);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
    };
    return this.jobs.process<RailJob>(
      RAIL_QUEUE,
      async (job) => {
        await submit(job);
        if (faults.deliverTwice()) await submit(job);
      },
      { concurrency: 4 },
    );
  }

  /** One pass of the worker's rail poll (FileRail.runOnce), its errors left to the caller: out, then in. */
  async railPass(): Promise<void> {
    for (const folder of await this.railFiles.railFolders()) {
      const [uuid, currency] = folder.split('/');
      await this.rail.flush(`Platform:${uuid}`, currency);
      await this.rail.processInbox(`Platform:${uuid}`, currency);
    }
  }

  /** The worker's timers (quote deadlines, sandbox outcomes, payment recovery), delivered twice now and then. */
  private startTimers(faults: FaultPlan): Worker {
    return this.jobs.process<TimerJob>(
      TIMER_QUEUE,
      async (job) => {
        await handleTimer(this.payments, job.data, job.id, this.clocks);
        if (faults.deliverTwice()) await handleTimer(this.payments, job.data, job.id, this.clocks);
      },
      { concurrency: 4 },
    );
  }

  /**
   * The worker's card job handlers (the issuer's answer, authorization expiry) run the process's card jobs; a job is
   * now and then delivered twice, as an at-least-once queue may.
   */
  private startCardWorker(faults: FaultPlan): Worker {
    const worker = new CardWorker({
      eventStore: this.store,
      readModels: this.readModels,
      jobs: this.jobs,
      projections: { waitForPosition: async () => true } as unknown as ProjectionRunner,
      clocks: this.clocks,
      runner: this.runner,
    });
    const handle = (job: Job<unknown>) =>
      (worker as unknown as { handle(job: Job<unknown>): Promise<void> }).handle(job);
    return this.jobs.process(
      CARD_PROVISIONING_QUEUE,
      async (job) => {
        await handle(job);
        if (faults.deliverTwice()) await handle(job);
      },
      { concurrency: 4 },
    );
  }

  /** The process stops: its workers take no more jobs (what they run is abandoned with its held operations). */
  stop(): void {
    this.alive = false;
    for (const worker of this.workers) void worker.close();
  }
}
