import type { SecretBox } from '#crypto/secret-box.js';
import type { IdGenerator } from '#domain/ids.js';
import { MemoryEventStore, type MemoryLog } from '#event-store/memory/event-store.js';
import type { AppendResult } from '#event-store/event-store.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { allProjections } from '#read-models/projections/index.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { IdentityClaims } from '#application/claims/identity-claims.js';
import { CommandContext } from '#application/command-context.js';
import { CommandRunner } from '#application/command-runner.js';
import { CreateCustomerHandler } from '#application/customers/customer-commands.js';
import { IdempotencyService } from '#application/idempotency/idempotency-service.js';
import { FundInternalAccountHandler } from '#application/payments/ledger/fund-commands.js';
import { PlatformClocks } from '#application/platforms/platform-clocks.js';
import { AdvanceSandboxClockHandler } from '#application/sandbox-clock/sandbox-clock.js';
import { SimProjector, SimulatedFault } from './projector.js';
import type { Random, Scheduler } from './scheduler.js';

/** What the simulation makes go wrong, decided by its seed (see faults.ts). */
export interface FaultPlan {
  /** Whether this append fails before it is written (nothing durable). */
  failBeforeAppend(stream: string): boolean;
  /** Whether this append, written and durable, still fails for its caller. */
  failAfterAppend(stream: string): boolean;
  failCommit(projection: string): boolean;
}

/** What the simulation hears from the stores: every append acknowledged to its caller. */
export interface Observer {
  acknowledge(stream: string, result: AppendResult): void;
}

/** The box a simulation seals idempotent responses with: reversible and deterministic (nothing secret is kept). */
const clearBox = {
  seal: (plain: Buffer | string, context: string) => `${context}|${Buffer.from(plain).toString('base64')}`,
  open: (sealed: string, context: string) => {
    if (!sealed.startsWith(`${context}|`)) throw new Error('sealed for another context');
    return Buffer.from(sealed.slice(context.length + 1), 'base64');
  },
} as unknown as SecretBox;

/** Timers the handlers would schedule are not run by this slice; the sandbox clock asks it to bring them forward. */
const idleQueue = { advanceGroup: async () => 0 } as unknown as JobQueue;

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

  constructor(
    log: MemoryLog,
    readonly readModels: ReadModelStore,
    scheduler: Scheduler,
    random: Random,
    faults: FaultPlan,
    observer: Observer,
    touched: Map<string, Set<string>>,
  ) {
    const generation = scheduler.generation;
    this.store = new MemoryEventStore({
      log,
      clock: scheduler.clock,
      ids: () => random.uuid(),
      hooks: {
        before: async (operation, stream) => {
          await scheduler.hold(`${operation} ${stream ?? 'all'}`);
          if (operation === 'append' && faults.failBeforeAppend(stream!))
            throw new SimulatedFault(`append to ${stream} failed before it was written`);
        },
        afterAppend: async (stream, result) => {
          await scheduler.hold(`ack ${stream}`);
          if (faults.failAfterAppend(stream))
            throw new SimulatedFault(`append to ${stream} failed after it was written`);
          // A process that stopped meanwhile acknowledges nothing.
          if (scheduler.generation === generation) observer.acknowledge(stream, result);
        },
      },
    });
    this.runner = new CommandRunner(this.store, undefined, {
      eventIds: () => random.uuid(),
      backoff: () => scheduler.hold('backoff'),
    });
    this.clocks = new PlatformClocks(this.store, scheduler.clock);
    const ids: IdGenerator = { uuid: () => random.uuid() };
    this.ctx = new CommandContext(this.runner, this.clocks, ids);
    this.idempotency = new IdempotencyService(this.runner, this.clocks, ids, clearBox);
    this.createCustomer = new CreateCustomerHandler(this.ctx, new IdentityClaims(this.runner, this.store, this.clocks));
    this.fund = new FundInternalAccountHandler(this.ctx, readModels);
    this.advanceClock = new AdvanceSandboxClockHandler(this.ctx, idleQueue);
    this.projector = new SimProjector(touched, this.store, readModels, allProjections, random, faults);
  }
}
