import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, notFound } from '#domain/errors.js';
import { streams } from '#domain/primitives.js';
import { isQuoteExpired, quoteDecider } from '#domain/payments/quotes/quote.js';
import {
  type PaymentRef,
  type PaymentStep,
  RECOVERY_DELAY_MS,
  TIMER_QUEUE,
  type TimerJob,
  timerJobId,
} from '#domain/payments/transactions/payment-plan.js';
import type { AnnotateCommand } from '#domain/payments/transactions/annotations.js';
import { RAIL_QUEUE, railJobId, type RailJob } from '#domain/payments/rails/bank-rails.js';
import type { FundingOriginator } from '#domain/payments/rails/funding-originator.js';
import {
  requireTransactionRecord,
  sameStep,
  transactionDecider,
  type LifecycleCommand,
  type TransactionRecord,
  type TransactionStatus,
  type TransitionCommand,
} from '#domain/payments/transactions/transaction.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { CommandRunner, type AnswersAfter } from '../../command-runner.js';
import { JOB_QUEUE } from '../../tokens.js';
import { PaymentLedger } from './payment-accounts.js';
import { KeyedLock } from '../../command-runner-policy.js';
import { PlatformClocks } from '../../command-context.js';

type Transition = Omit<TransitionCommand, 'type' | 'now'>;

/** The statuses each step applies to. */
const STEP_FROM: Record<PaymentStep['type'], readonly TransactionStatus[]> = {
  COMPLETE: ['PROCESSING'],
  FAIL: ['CREATED', 'PENDING', 'PROCESSING'],
  RETURN: ['COMPLETED'],
  LOSE: ['PROCESSING'],
};

/**
 * Drives a payment through its ledger legs and statuses: start (hold the source, PROCESSING,
 * apply the plan), complete, fail, return, expire. A step is claimed on the payment's stream
 * (so no other step can interleave), then moves money (transfer ids derived from the
 * transaction, so repeats are no-ops), then records the status that ends it; a step interrupted
 * by a crash is finished by running it again, which timers and recovery jobs do.
 */
@Injectable()
export class PaymentProcess {
  private readonly logger = new Logger('PaymentProcess');
  private readonly locks = new KeyedLock();
  private readonly legs: PaymentLedger;

  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {
    this.legs = new PaymentLedger(runner, clocks);
  }

  /** Now on the clock of the platform the payment belongs to (every payment step's metadata names it). */
  private async now(metadata: EventMetadata): Promise<string> {
    if (!metadata.platformId) throw new Error('payment step metadata must name the platform');
    return (await this.clocks.now(metadata.platformId)).toISOString();
  }

  async load(ref: PaymentRef): Promise<TransactionRecord> {
    const { state } =
      ref.kind === 'quote'
        ? await this.runner.load(streams.quote(ref.id), quoteDecider)
        : await this.runner.load(streams.transaction(ref.id), transactionDecider);
    if (!state.transaction) throw notFound(ref.kind === 'quote' ? 'QUOTE' : 'TRANSACTION', ref.id);
    return state.transaction;
  }

  private async lifecycle(
    ref: PaymentRef,
    command: LifecycleCommand,
    metadata: EventMetadata,
    answersAfter: AnswersAfter = 'projection',
  ): Promise<TransactionRecord> {
    const options = { metadata, answersAfter };
    const { state } =
      ref.kind === 'quote'
        ? await this.runner.run(streams.quote(ref.id), quoteDecider, command, options)
        : await this.runner.run(streams.transaction(ref.id), transactionDecider, command, options);
    return requireTransactionRecord(state);
  }

  /**
   * Records facts beside the status (receipt confirmation, the platform's decision details); waits for the read
   * models.
   */
  async annotate(ref: PaymentRef, command: AnnotateCommand, metadata: EventMetadata): Promise<TransactionRecord> {
    return this.lifecycle(ref, command, metadata);
  }

  /** A status change; by default the caller then reads its own write, so it waits for the read models. */
  async transition(
    ref: PaymentRef,
    change: Transition,
    metadata: EventMetadata,
    answersAfter: AnswersAfter = 'projection',
  ): Promise<TransactionRecord> {
    return this.lifecycle(
      ref,
      { type: 'TransitionTransaction', now: await this.now(metadata), ...change },
      metadata,
      answersAfter,
    );
  }

  async schedule(job: TimerJob, delayMs: number): Promise<void> {
    await this.jobs.enqueue(TIMER_QUEUE, job.kind, job, {
      id: timerJobId(job),
      delayMs: Math.max(0, delayMs),
      attempts: 8,
      backoff: { type: 'exponential', delayMs: 1_000, maxDelayMs: 60_000 },
      // The delay is on the platform's clock: advancing it brings the timer forward.
      group: job.platformId,
    });
  }

  /**
   * Starts a created payment: holds the source (INSUFFICIENT_FUNDS leaves nothing behind),
   * schedules the plan's later step, moves to PROCESSING and applies the immediate step. A plan
   * that fails at once moves no money at all.
   */
  async start(
    ref: PaymentRef,
    guard: { from: readonly TransactionStatus[]; notAfter?: string; originator?: FundingOriginator },
    metadata: EventMetadata,
  ): Promise<TransactionRecord> {
    const tx = await this.load(ref);
    const { immediate } = tx.plan;
    if (immediate?.type === 'FAIL') {
      if (!guard.from.includes(tx.status))
        return this.transition(ref, { to: immediate.status, from: guard.from }, metadata);
      return this.applyStep(ref, immediate, metadata);
    }
    await this.legs.assertCreditFits(tx);
    await this.hold(tx, metadata);
    let started: TransactionRecord;
    try {
      // The immediate step is claimed in the same append as PROCESSING (applyStep then finds it claimed); with a step
      // to follow, only the step's final status needs to wait for the read models.
      const thenBegin = immediate ? { step: immediate, from: STEP_FROM[immediate.type] } : undefined;
      started = await this.transition(
        ref,
        { to: 'PROCESSING', from: guard.from, notAfter: guard.notAfter, thenBegin, originator: guard.originator },
        metadata,
        immediate ? 'append' : 'projection',
      );
    } catch (error) {
      await this.releaseHold(tx, 'void', metadata);
      throw error;
    }
    await this.scheduleLater(ref, started);
    return immediate ? this.applyStep(ref, immediate, metadata) : started;
  }

  /**
   * The plan's later step, timed from when the payment started (PROCESSING). Scheduled only once
   * it started, and again by recovery: the job id makes repeats no-ops.
   */
  private async scheduleLater(ref: PaymentRef, started: TransactionRecord): Promise<void> {
    if (started.plan.rail) await this.submitToRail(ref, started.platformId);
    const later = started.plan.later;
    if (!later) return;
    const due = Date.parse(started.updatedAt) + later.afterMs;
    await this.schedule(
      { kind: 'PAYMENT_STEP', platformId: started.platformId, ref, step: later.step },
      due - (await this.clocks.now(started.platformId)).getTime(),
    );
  }

  /**
   * A payment on a bank rail goes to the bank once it started: the rail's worker queues its instruction and writes
   * it out (the job id makes repeats no-ops; the instruction itself is queued once by its end-to-end id).
   */
  private async submitToRail(ref: PaymentRef, platformId: string): Promise<void> {
    const job: RailJob = { kind: 'SUBMIT', platformId, ref };
    await this.jobs.enqueue(RAIL_QUEUE, job.kind, job, {
      id: railJobId(job),
      attempts: 8,
      backoff: { type: 'exponential', delayMs: 1_000, maxDelayMs: 60_000 },
      group: platformId,
    });
  }

  /**
   * Applies one step if the payment is still in a status it applies to (otherwise a no-op). The
   * step is first claimed on the payment's stream, then the money moves, then the final status
   * ends the step; a claimed step that was interrupted is finished by running it again.
   */
  applyStep(
    ref: PaymentRef,
    step: PaymentStep,
    metadata: EventMetadata,
    options: { from?: readonly TransactionStatus[] } = {},
  ): Promise<TransactionRecord> {
    return this.serialized(ref.id, async () => {
      const from = options.from ?? STEP_FROM[step.type];
      const tx = await this.lifecycle(
        ref,
        { type: 'BeginPaymentStep', step, from, now: await this.now(metadata) },
        metadata,
        'append',
      );
      if (!sameStep(tx.activeStep, step)) return tx;
      const end = {
        step,
        endsStep: true,
        ...('failureReason' in step && step.failureReason ? { failureReason: step.failureReason } : {}),
        ...('failureDetail' in step && step.failureDetail ? { failureDetail: step.failureDetail } : {}),
        ...('bankReasonCode' in step && step.bankReasonCode ? { bankReasonCode: step.bankReasonCode } : {}),
      };
      switch (step.type) {
        case 'COMPLETE': {
          // An incoming payment approved from PENDING passes through PROCESSING within the step.
          const started =
            tx.status === 'PENDING' ? await this.transition(ref, { to: 'PROCESSING', step }, metadata, 'append') : tx;
          await this.legs.run(
            tx.platformId,
            [...(await this.legs.release(started, 'post')), ...(await this.legs.credit(started))],
            metadata,
          );
          return this.transition(ref, { to: 'COMPLETED', ...end }, metadata);
        }
        case 'FAIL':
          await this.releaseHold(tx, 'void', metadata);
          return this.transition(ref, { to: step.status, ...end }, metadata);
        case 'RETURN':
          await this.legs.run(tx.platformId, await this.legs.refund(tx), metadata);
          return this.transition(ref, { to: step.status, ...end }, metadata);
        case 'LOSE':
          await this.releaseHold(tx, 'post', metadata);
          return this.transition(ref, { to: 'FAILED', ...end }, metadata);
      }
    });
  }

  /** Finishes a step another runner claimed and did not end (it died, or is still at it: steps are idempotent). */
  async finishActiveStep(ref: PaymentRef, metadata: EventMetadata): Promise<TransactionRecord> {
    const tx = await this.load(ref);
    return tx.activeStep ? this.applyStep(ref, tx.activeStep, metadata, { from: [tx.status] }) : tx;
  }

  /** A PENDING quote past its expiresAt: EXPIRED (QUOTE_EXPIRED), and any stray hold released. */
  expire(ref: PaymentRef, metadata: EventMetadata): Promise<TransactionRecord> {
    return this.serialized(ref.id, async () => {
      const tx = await this.load(ref);
      if (tx.status !== 'PENDING' && tx.status !== 'EXPIRED') return tx;
      const expired = await this.transition(
        ref,
        { to: 'EXPIRED', from: ['PENDING'], failureReason: 'QUOTE_EXPIRED' },
        metadata,
      );
      // Only after EXPIRED is recorded: an execute racing with expiry can then no longer start.
      await this.releaseHold(tx, 'void', metadata);
      return expired;
    });
  }

  /**
   * Expires a PENDING quote once its expiresAt has passed on this process's clock; before that it throws (the timer
   * retries).
   */
  async expireIfDue(ref: PaymentRef, now: Date, metadata: EventMetadata): Promise<void> {
    const { state } = await this.runner.load(streams.quote(ref.id), quoteDecider);
    if (!state.quote) return;
    if (!isQuoteExpired(state.quote, now))
      throw new Error(`quote ${ref.id} is not due before ${state.quote.expiresAt}`);
    await this.expire(ref, metadata);
  }

  /**
   * Scheduled before a stand-alone transaction is created: if the process dies between creating
   * and settling it, the recovery job finishes the work (a quote's deadline job does this for quotes).
   */
  scheduleRecovery(platformId: string, ref: PaymentRef): Promise<void> {
    return this.schedule({ kind: 'PAYMENT_RECOVERY', platformId, ref }, RECOVERY_DELAY_MS);
  }

  /**
   * Finishes what a crashed process left: a claimed step is finished, a started payment gets its
   * immediate step, a created one is started (exactly as its request would have; every part is
   * idempotent, so racing the request itself is harmless).
   */
  async recover(ref: PaymentRef, metadata: EventMetadata): Promise<TransactionRecord | undefined> {
    const tx = await this.load(ref).catch((error: unknown) => {
      if (error instanceof DomainError && error.kind === 'not_found') return undefined;
      throw error;
    });
    if (!tx) return undefined;
    if (tx.activeStep) return this.finishActiveStep(ref, metadata);
    if (tx.status === 'PROCESSING') {
      await this.scheduleLater(ref, tx);
      if (tx.plan.immediate) return this.applyStep(ref, tx.plan.immediate, metadata);
    }
    // Incoming payments waiting for approval have no immediate step: they wait on.
    if (tx.status === 'PENDING' && tx.plan.immediate && ref.kind === 'transaction') {
      try {
        return await this.start(ref, { from: ['PENDING'] }, metadata);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'INSUFFICIENT_FUNDS')
          return this.failForFunds(ref, metadata);
        throw error;
      }
    }
    return tx;
  }

  /** A payment whose hold was refused: FAILED, nothing moved. */
  failForFunds(ref: PaymentRef, metadata: EventMetadata): Promise<TransactionRecord> {
    return this.applyStep(ref, { type: 'FAIL', status: 'FAILED', failureDetail: 'INSUFFICIENT_FUNDS' }, metadata);
  }

  async hold(tx: TransactionRecord, metadata: EventMetadata): Promise<void> {
    await this.legs.run(tx.platformId, await this.legs.hold(tx), metadata);
  }

  private async releaseHold(tx: TransactionRecord, how: 'post' | 'void', metadata: EventMetadata): Promise<void> {
    await this.legs.run(tx.platformId, await this.legs.release(tx, how), metadata);
  }

  /** One step per payment at a time within this process (other processes are kept honest by revisions). */
  private async serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(key, async () => {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof DomainError)) this.logger.debug(`step on ${key} failed: ${String(error)}`);
        throw error;
      }
    });
  }
}
