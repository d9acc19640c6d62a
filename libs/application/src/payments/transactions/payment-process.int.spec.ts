import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { ledgerDecider, postedBalance } from '#domain/ledger/ledger.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { PaymentPlan, PaymentRef, TimerJob } from '#domain/payments/transactions/payment-plan.js';
import { referenceFor, transactionDecider, type TransactionRecord } from '#domain/payments/transactions/transaction.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import type { Job, JobOptions, JobQueue } from '#jobs/job-queue.js';
import { expectBalancedLedger } from '../../../../../test/support/ledger-check.js';
import { CommandRunner } from '../../command-runner.js';
import { handleTimer } from '../timers/timer-handler.js';
import { PaymentProcess } from './payment-process.js';
import { PlatformClocks } from '../../command-context.js';

/** Records what would be scheduled; timers are invoked by the test itself. */
class RecordingQueue implements JobQueue {
  readonly enqueued: { data: unknown; options?: JobOptions }[] = [];
  async enqueue<T>(_queue: string, _name: string, data: T, options?: JobOptions) {
    this.enqueued.push({ data, options });
    return options?.id ?? String(this.enqueued.length);
  }
  process(): never {
    throw new Error('not used');
  }
  async getJob() {
    return undefined;
  }
  async deadLetters() {
    return [];
  }
  async retryDead() {
    return false;
  }
  async depth() {
    return { waiting: 0, delayed: 0, active: 0, dead: 0 };
  }
  async oldestDue() {
    return undefined;
  }
  async promoteDue() {
    return 0;
  }
  async advanceGroup() {
    return 0;
  }
  async close() {}
}

const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';
const SETTLEMENT = 'InternalAccount:00000000-0000-4000-8000-0000000000bb';
const SOURCE = 'InternalAccount:00000000-0000-4000-8000-0000000000cc';
const EXTERNAL = 'ExternalAccount:00000000-0000-4000-8000-0000000000dd';
const metadata = { platformId: PLATFORM, actor: 'test', correlationId: 'test' };

describe('payment process: steps, claims and recovery (embedded event store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payment-process-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  const clock = new ManualClock(Date.UTC(2026, 4, 1));
  const queue = new RecordingQueue();
  const runner = new CommandRunner(store, undefined);
  const clocks = new PlatformClocks(store, clock);
  const process = new PaymentProcess(runner, clocks, queue);
  let n = 0;

  beforeAll(async () => {
    await runner.run(
      streams.platform(PLATFORM),
      platformDecider,
      {
        type: 'CreatePlatform',
        platformId: PLATFORM,
        name: 'p',
        sandbox: true,
        umaDomain: 'x.test',
        settlementAccounts: [{ accountId: SETTLEMENT, currency: 'USD', crypto: false }],
        now: clock.now().toISOString(),
      },
      { metadata },
    );
    await runner.run(
      streams.ledger(PLATFORM),
      ledgerDecider,
      {
        type: 'CreateTransfer',
        id: 'Transfer:fund',
        debit: { id: SETTLEMENT, currency: 'USD', allowNegative: true },
        credit: { id: SOURCE, currency: 'USD', allowNegative: false },
        amount: 100_000n,
        code: 'SANDBOX_FUNDING',
        now: clock.now().toISOString(),
      },
      { metadata },
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function payout(plan: PaymentPlan, amount = 1_000): Promise<PaymentRef> {
    n += 1;
    const id = `Transaction:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const now = clock.now().toISOString();
    const transaction: TransactionRecord = {
      id,
      platformId: PLATFORM,
      type: 'OUTGOING',
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: SOURCE, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: EXTERNAL, currency: 'USD' },
      customerId: 'Customer:00000000-0000-4000-8000-0000000000ee',
      platformCustomerId: 'c',
      sentAmount: String(amount),
      receivedAmount: String(amount),
      fees: '0',
      reference: referenceFor(id),
      plan,
      createdAt: now,
      updatedAt: now,
    };
    await runner.run(
      streams.transaction(id),
      transactionDecider,
      { type: 'CreateTransaction', transaction },
      { metadata },
    );
    return { kind: 'transaction', id };
  }

  const balance = async () =>
    postedBalance((await runner.load(streams.ledger(PLATFORM), ledgerDecider)).state.accounts.get(SOURCE)!);
  const ledgerEvents = async () => (await store.readStream(streams.ledger(PLATFORM))).length;

  it('finishes a step that was claimed but interrupted, once, however often recovery runs', async () => {
    const ref = await payout({ immediate: { type: 'COMPLETE' } });
    const before = await balance();
    // What a process dying in the middle of start() leaves: hold placed, PROCESSING, step claimed.
    const tx = await process.load(ref);
    await process.hold(tx, metadata);
    await process.transition(ref, { to: 'PROCESSING', from: ['PENDING'] }, metadata);
    await runner.run(
      streams.transaction(ref.id),
      transactionDecider,
      { type: 'BeginPaymentStep', step: { type: 'COMPLETE' }, from: ['PROCESSING'], now: clock.now().toISOString() },
      { metadata },
    );
    expect((await process.load(ref)).activeStep).toEqual({ type: 'COMPLETE' });
    expect(await balance()).toBe(before);

    expect((await process.recover(ref, metadata))?.status).toBe('COMPLETED');
    const settled = await ledgerEvents();
    await process.recover(ref, metadata);
    await handleTimer(process, { kind: 'PAYMENT_RECOVERY', platformId: PLATFORM, ref }, 'job-1', clocks);
    expect(await ledgerEvents()).toBe(settled);
    expect(await balance()).toBe(before - 1_000n);
    expect((await process.load(ref)).activeStep).toBeUndefined();
    await expectBalancedLedger(store, PLATFORM);
  });

  it('starts a payment its request created but never started', async () => {
    const ref = await payout({ immediate: { type: 'COMPLETE' } }, 2_000);
    const before = await balance();
    expect((await process.recover(ref, metadata))?.status).toBe('COMPLETED');
    expect(await balance()).toBe(before - 2_000n);
    expect(
      await process.recover({ kind: 'transaction', id: 'Transaction:00000000-0000-4000-8000-999999999999' }, metadata),
    ).toBeUndefined();
  });

  it('lets a timer finish a step another runner claimed before applying its own', async () => {
    const ref = await payout({
      later: { afterMs: 30_000, step: { type: 'FAIL', status: 'FAILED', failureReason: 'OFFRAMP_FAILED' } },
    });
    const before = await balance();
    await process.start(ref, { from: ['PENDING'] }, metadata);
    expect(await balance()).toBe(before); // held, not posted
    const scheduled = queue.enqueued
      .map((e) => e.data as TimerJob)
      .find((j) => j.kind === 'PAYMENT_STEP' && j.ref.id === ref.id);
    expect(scheduled).toBeDefined();
    // An approval-like COMPLETE claimed by another runner and left unfinished...
    await runner.run(
      streams.transaction(ref.id),
      transactionDecider,
      { type: 'BeginPaymentStep', step: { type: 'COMPLETE' }, from: ['PROCESSING'], now: clock.now().toISOString() },
      { metadata },
    );
    await expect(process.applyStep(ref, { type: 'FAIL', status: 'FAILED' }, metadata)).rejects.toMatchObject({
      code: 'PAYMENT_BUSY',
    });
    // ...is finished by the timer, whose own step then no longer applies.
    await handleTimer(process, scheduled!, 'job-2', clocks);
    expect((await process.load(ref)).status).toBe('COMPLETED');
    expect(await balance()).toBe(before - 1_000n);
    await expectBalancedLedger(store, PLATFORM);
  });

  it('schedules the later step only once the payment started, timed from the start', async () => {
    const ref = await payout({ later: { afterMs: 30_000, step: { type: 'COMPLETE' } } }, 10_000_000);
    await expect(process.start(ref, { from: ['PENDING'] }, metadata)).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    expect(
      queue.enqueued.some(
        (e) => (e.data as TimerJob).kind === 'PAYMENT_STEP' && (e.data as { ref: PaymentRef }).ref.id === ref.id,
      ),
    ).toBe(false);
    const ok = await payout({ later: { afterMs: 30_000, step: { type: 'COMPLETE' } } });
    await process.start(ok, { from: ['PENDING'] }, metadata);
    const job = queue.enqueued.find(
      (e) => (e.data as TimerJob).kind === 'PAYMENT_STEP' && (e.data as { ref: PaymentRef }).ref.id === ok.id,
    )!;
    expect(job.options?.delayMs).toBe(30_000);
    await handleTimer(process, job.data as Job<TimerJob>['data'], 'job-3', clocks);
    expect((await process.load(ok)).status).toBe('COMPLETED');
    await expectBalancedLedger(store, PLATFORM);
  });
});
