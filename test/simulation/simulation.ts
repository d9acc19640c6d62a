import { Logger } from '@nestjs/common';
import { randomIds } from '#domain/primitives.js';
import { WEBHOOK_QUEUE, WEBHOOK_RETRY_POLICY } from '#domain/webhooks/retry-policy.js';
import { MemoryLog } from '#event-store/memory/event-store.js';
import { MemoryJobStore } from '#jobs/memory/job-queue.js';
import { SqliteReadModelStore } from '#read-models/sqlite/read-model-store.js';
import { allProjections } from '#read-models/projections/index.js';
import { SeededFaults, type FaultRates } from './faults.js';
import {
  InvariantViolation,
  checkAgents,
  checkAcknowledged,
  checkIdempotency,
  checkLedgers,
  checkReplay,
  checkStreams,
  checkUniqueness,
} from './invariants.js';
import { checkCardHoldsReleased, checkCards } from './invariants-cards.js';
import { checkPayments } from './invariants-payments.js';
import { checkEveryWebhookScheduled, checkWebhooks } from './invariants-webhooks.js';
import { checkRails } from './invariants-rails.js';
import { SimBank } from './bank.js';
import { configureRails } from './workload-rails.js';
import { checkWallets } from './invariants-wallet.js';
import { installSeededCrypto } from './wallet-crypto.js';
import { clearBox, SimProcess } from './process.js';
import { SimReceivers } from './receivers.js';
import { SimDecisionEndpoints } from './decisions.js';
import { checkDecisions } from './invariants-decisions.js';
import { Random, Scheduler } from './scheduler.js';
import { createPlatforms, expectedFailure, outcome, pickOperation, type WorkloadMix } from './workload.js';
import { configureWebhooks } from './webhooks.js';
import { advanceClock, replay, shiftReceiver } from './background.js';
import { World } from './world.js';

export interface SimulationOptions {
  seed: number;
  steps: number;
  /** How often faults strike (default: the rates CI runs with). */
  faults?: Partial<FaultRates>;
  /**
   * Fewer than this many operations complete per step (default 24, about what the requests started need, or 4 for
   * every fourth seed): a low pace keeps requests in flight for many steps, and the clock moves under them.
   */
  pace?: number;
  /** How many processes run over the durable state (default 2 for odd seeds, else 1). */
  processes?: number;
  /** Other weights for some operations (see OPERATIONS in workload.ts). */
  mix?: WorkloadMix;
  /** Check the invariants that read the whole log every this many steps (default 250). */
  checkEvery?: number;
}

export interface Failure {
  seed: number;
  step: number;
  invariant: string;
  message: string;
  /** The last events of the streams involved, and the trace's last lines. */
  lastEvents: string[];
  lastTrace: string[];
}

export interface SimulationResult {
  seed: number;
  steps: number;
  hash: string;
  failure?: Failure;
  stats: {
    events: number;
    completions: number;
    restarts: number;
    /** Virtual time the run took (ms on its clock). */
    virtualMs: number;
    /** How many times the invariants over the whole log were checked. */
    checks: number;
    /** Webhooks the receivers got (distinct webhook ids). */
    webhooks: number;
    operations: Record<string, number>;
  };
}

/** The durable state and the process running over it; a restart replaces the process. */
export class Run {
  readonly random: Random;
  readonly scheduler: Scheduler;
  readonly world = new World();
  readonly log = new MemoryLog();
  readonly jobStore = new MemoryJobStore();
  readonly readModels = new SqliteReadModelStore(':memory:', { commitThread: false });
  readonly faults: SeededFaults;
  /** The platforms' webhook receivers (outside the service: they outlive its restarts). */
  readonly receivers: SimReceivers;
  /** The bank behind the production platforms' rails (outside the service: it outlives its restarts). */
  readonly bank: SimBank;
  /** The platforms' decision endpoints (outside the service too). */
  readonly decisions: SimDecisionEndpoints;
  /** The processes running over the durable state (one or two), each restarted on its own. */
  readonly processes: SimProcess[];
  restarts = 0;
  /** The step the run is at. */
  at = 0;
  readonly started: number;
  readonly operations: Record<string, number> = {};

  constructor(readonly options: SimulationOptions) {
    this.random = new Random(options.seed);
    this.scheduler = new Scheduler(this.random);
    this.faults = new SeededFaults(this.random, options.faults);
    // Once faults end (the run's last phase), every receiver answers at once.
    this.receivers = new SimReceivers(this.random, this.scheduler, () => this.faults.rates.receiver === 0);
    this.bank = new SimBank(this.random, () => this.scheduler.clock.now());
    this.decisions = new SimDecisionEndpoints(this.random, this.scheduler);
    this.started = this.scheduler.clock.now().getTime();
    const count = options.processes ?? (options.seed % 2 === 1 ? 2 : 1);
    this.processes = Array.from({ length: count }, () => this.start());
    // The rail's crash point: a process stops now and then between writing an initiation file and recording it.
    this.bank.stopsAfterWrite = (process) => {
      const index = this.processes.indexOf(process as SimProcess);
      if (index < 0 || !this.random.chance(Math.min(1, this.faults.rates.restart * 50))) return false;
      this.restart(this.at, index);
      return true;
    };
    this.world.processes = () => this.processes;
  }

  /** The first process (the one whose worker duties the run's end drives). */
  get process(): SimProcess {
    return this.processes[0];
  }

  start(): SimProcess {
    return new SimProcess(
      { log: this.log, jobs: this.jobStore, readModels: this.readModels },
      this.scheduler,
      this.random,
      this.faults,
      this.world,
      this.world.touched,
      this.receivers,
      this.bank,
      this.decisions,
    );
  }

  /** A process stops at once (whatever it was doing) and starts again from what is durable. */
  restart(step: number, index = this.random.int(this.processes.length)): void {
    const stopped = this.processes[index];
    stopped.stop();
    this.processes[index] = this.start();
    // Jobs left running run again (at least once).
    this.jobStore.recoverActive();
    this.restarts++;
    this.world.record(`${step} restart ${index}`);
  }

  /** Starts one request of the workload (not awaited: requests overlap as the scheduler interleaves them). */
  launch(step: number): void {
    const op = pickOperation(this.random, this.options.mix);
    this.operations[op.name] = (this.operations[op.name] ?? 0) + 1;
    const process = this.random.pick(this.processes);
    op.run(process, this.world, this.random, step).then(
      (result) => this.world.record(`${step} ${op.name} ${result}`),
      (error: unknown) => {
        if (!process.alive) return;
        this.world.record(`${step} ${op.name} failed ${outcome(error)}`);
        if (!expectedFailure(error)) this.unexpected ??= { step, error };
      },
    );
  }

  unexpected: { step: number; error: unknown } | undefined;

  checks = 0;

  async checkLog(): Promise<void> {
    this.checks++;
    checkLedgers(this.log, this.world);
    checkIdempotency(this.log, this.world);
    checkAcknowledged(this.log, this.world);
    checkUniqueness(this.log);
    checkAgents(this.log, this.world);
    checkCards(this.log, this.world);
    checkPayments(this.log, this.world);
    checkWebhooks(this.log, this.receivers);
    checkRails(this.log, this.world, this.bank);
    checkDecisions(this.log, this.world, this.decisions);
    checkWallets(this.log, this.world, this.processes);
  }
}

/** One step: a request, a fault or a background duty, then some completions in the seed's order. */
async function step(run: Run, n: number): Promise<void> {
  const { random, scheduler, faults } = run;
  run.at = n;
  const roll = random.next();
  if (roll < faults.rates.restart) run.restart(n);
  else if (roll < faults.rates.restart + faults.rates.replay) {
    void replay(run, n, random.pick(allProjections), random.pick(run.processes));
  } else if (roll < 0.2)
    void random
      .pick(run.processes)
      .projector.tick()
      .catch(() => undefined);
  else if (roll < 0.21) advanceClock(run, n);
  // The dispatcher's lease holder turns a batch of the log into webhook deliveries.
  else if (roll < 0.24) {
    const process = run.process;
    process.webhooks.tick().catch((error: unknown) => {
      if (process.alive && !expectedFailure(error)) run.unexpected ??= { step: n, error };
    });
  } else if (roll < 0.24 + faults.rates.receiver) shiftReceiver(run, n);
  else run.launch(n);
  // About as many completions as the requests started need, so that requests live for some steps, not the whole run.
  const completions = random.int(run.options.pace ?? (run.options.seed % 4 === 0 ? 4 : 24));
  for (let i = 0; i < completions; i++) if (!(await scheduler.step())) break;
}

/** Runs a simulation; a broken invariant ends it with a failure report instead of throwing. */
export async function simulate(options: SimulationOptions): Promise<SimulationResult> {
  Logger.overrideLogger(false);
  const run = new Run(options);
  const uninstall = run.scheduler.install();
  const uninstallCrypto = installSeededCrypto(run.random);
  const randomUuid = randomIds.uuid;
  // The parts of the service that take their ids from the process-wide generator draw them from the seed too.
  randomIds.uuid = () => run.random.uuid();
  let at = 0;
  try {
    await settleAll(run, createPlatforms(run.process, run.world, run.random));
    await settleAll(run, configureWebhooks(run.process, run.world, run.receivers, clearBox));
    await settleAll(run, configureRails(run.process, run.world));
    await settleAll(run, run.decisions.configure(run.process, run.world, clearBox));
    const every = options.checkEvery ?? 250;
    for (at = 1; at <= options.steps; at++) {
      await step(run, at);
      if (run.unexpected) throw unexpectedFailure(run.unexpected.error);
      if (at % every === 0) await run.checkLog();
    }
    await finish(run);
    return result(run, options.steps);
  } catch (error) {
    if (!(error instanceof InvariantViolation)) throw error;
    return result(run, at, failureOf(run, at, error));
  } finally {
    uninstall();
    uninstallCrypto();
    randomIds.uuid = randomUuid;
    await run.readModels.close();
  }
}

/** The end of a run: everything pending completes (faults off), the projector catches up, every invariant holds. */
async function finish(run: Run): Promise<void> {
  run.faults.off();
  await run.scheduler.drain();
  if (run.unexpected) throw unexpectedFailure(run.unexpected.error);
  await run.checkLog();
  // A last restart of every process: what was acknowledged survives it.
  for (const index of run.processes.keys()) run.restart(run.options.steps + 1, index);
  await fireEveryTimer(run);
  await settleRails(run);
  checkRails(run.log, run.world, run.bank, true);
  checkCardHoldsReleased(run.log, run.world);
  checkPayments(run.log, run.world, true);
  await deliverEveryWebhook(run);
  await settleAll(run, run.process.projector.catchUp());
  await run.checkLog();
  checkWebhooks(run.log, run.receivers, true);
  await checkEveryWebhookScheduled(run.log, run.readModels, run.receivers.dispatched);
  checkStreams(run.log, run.world);
  await checkReplay(run.log, run.world, run.readModels, allProjections);
}

/** Moves the clock past every timer (an authorization's validity is the longest) and runs the jobs that fall due. */
async function fireEveryTimer(run: Run): Promise<void> {
  const hour = 3_600_000;
  run.scheduler.clock.advance(8 * 24 * hour);
  for (let round = 0; round < 10; round++) {
    await settleAll(run, run.process.jobs.promoteDue());
    await run.scheduler.drain();
    // Retries wait on the queue clock: an hour more brings every backoff due.
    run.scheduler.clock.advance(hour);
  }
  if (run.unexpected) throw unexpectedFailure(run.unexpected.error);
}

/**
 * The rails' last phase (faults off, the bank's client reliable): rail passes and bank runs in turn until the bank
 * holds nothing back and every answer it wrote was taken, so that every payment's outcome reached the service.
 */
async function settleRails(run: Run): Promise<void> {
  for (let round = 0; round < 4; round++) {
    await settleAll(run, run.process.railPass());
    run.world.record(`drain ${run.bank.run(true)}`);
    await settleAll(run, run.process.railPass());
    await settleAll(run, run.process.jobs.promoteDue());
    await run.scheduler.drain();
  }
  if (run.unexpected) throw unexpectedFailure(run.unexpected.error);
}

/**
 * The webhooks' last phase (receivers healthy): the dispatcher reaches the head of the log, and the clock moves on
 * by the longest retry delay at a time until no delivery job is left to run.
 */
async function deliverEveryWebhook(run: Run): Promise<void> {
  await settleAll(run, run.process.webhooks.catchUp());
  const left = () =>
    [...run.jobStore.jobsOf(WEBHOOK_QUEUE).values()].some((job) => job.state !== 'completed' && job.state !== 'dead');
  for (let round = 0; round < 20 && left(); round++) {
    await settleAll(run, run.process.jobs.promoteDue());
    await run.scheduler.drain();
    run.scheduler.clock.advance(WEBHOOK_RETRY_POLICY.maxDelayMs);
  }
  if (run.unexpected) throw unexpectedFailure(run.unexpected.error);
}

function unexpectedFailure(error: unknown): InvariantViolation {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new InvariantViolation('no request fails unexpectedly (no 5xx)', detail);
}

/** Drives the scheduler until `work` settles (rejections included). */
async function settleAll<T>(run: Run, work: Promise<T>): Promise<T> {
  let done = false;
  const settled = work.finally(() => (done = true));
  for (let idle = 0; !done;) {
    if (await run.scheduler.step()) idle = 0;
    else if (++idle > 100) throw new InvariantViolation('the service makes progress', 'work waits on nothing');
    else await new Promise<void>((r) => setImmediate(r));
  }
  return settled;
}

function failureOf(run: Run, step: number, error: InvariantViolation): Failure {
  const lastEvents = error.streams.flatMap((name) =>
    (run.log.streams.get(name) ?? []).slice(-8).map((e) => `${name}@${e.revision} ${e.type} ${JSON.stringify(e.data)}`),
  );
  return {
    seed: run.options.seed,
    step,
    invariant: error.invariant,
    message: error.message,
    lastEvents,
    lastTrace: run.world.lastLines(),
  };
}

function result(run: Run, steps: number, failure?: Failure): SimulationResult {
  run.world.record(`events ${run.log.all.length}`);
  // The log itself is part of the fingerprint: each stream's last hash covers every event's data and metadata.
  for (const name of [...run.log.streams.keys()].sort()) {
    const last = run.log.streams.get(name)!.at(-1)!;
    run.world.record(`${name}@${last.revision} ${String(last.metadata.hash)}`);
  }
  return {
    seed: run.options.seed,
    steps,
    hash: run.world.hash(),
    ...(failure ? { failure } : {}),
    stats: {
      events: run.log.all.length,
      completions: run.scheduler.completed,
      restarts: run.restarts,
      virtualMs: run.scheduler.clock.now().getTime() - run.started,
      checks: run.checks,
      webhooks: run.receivers.received.size,
      operations: run.operations,
    },
  };
}
