import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conflict, notFound } from '#domain/errors.js';
import { isPublicId, streams } from '#domain/ids.js';
import type { PaymentRef } from '#domain/timers/timers.js';
import { transactionDecider, type TransactionRecord } from '#domain/transactions/transaction.js';
import { toTransactionResource } from '#domain/transactions/transaction-view.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandRunner } from '../command-runner.js';
import { READ_MODELS, type Actor } from '../tokens.js';
import { PaymentProcess } from './payment-process.js';

export class ApproveIncomingPaymentCommand {
  constructor(
    readonly transactionId: string,
    readonly actor: Actor,
  ) {}
}
export class RejectIncomingPaymentCommand {
  constructor(
    readonly transactionId: string,
    readonly actor: Actor,
  ) {}
}

/**
 * An incoming payment waiting for the platform's decision: INCOMING, PENDING, and planned with
 * no immediate step (it waits for approve or reject, or times out).
 */
async function loadAwaitingApproval(
  runner: CommandRunner,
  readModels: ReadModelStore,
  transactionId: string,
  platformId: string,
): Promise<TransactionRecord> {
  if (!isPublicId('Transaction', transactionId)) throw notFound('TRANSACTION', transactionId);
  const { state } = await runner.load(streams.transaction(transactionId), transactionDecider);
  const tx = state.transaction;
  if (!tx || tx.platformId !== platformId) {
    // Transactions of quotes live in their quote's stream: they exist, but never await approval.
    const doc = await readModels.get(Collections.transactions, transactionId);
    if (doc && doc.platformId === platformId)
      throw conflict(
        'INVALID_STATE_TRANSITION',
        `transaction ${transactionId} is not an incoming payment awaiting approval`,
      );
    throw notFound('TRANSACTION', transactionId);
  }
  if (tx.type !== 'INCOMING' || tx.status !== 'PENDING' || tx.plan.immediate) {
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `transaction ${transactionId} is ${tx.status} and not an incoming payment awaiting approval`,
    );
  }
  return tx;
}

/** The decision took effect, or something else (the approval timeout) decided first. */
function decided(tx: TransactionRecord, expected: TransactionRecord['status']): TransactionRecord {
  if (tx.status !== expected)
    throw conflict('INVALID_STATE_TRANSITION', `transaction ${tx.id} became ${tx.status} first`);
  return tx;
}

@CommandHandler(ApproveIncomingPaymentCommand)
export class ApproveIncomingPaymentHandler implements ICommandHandler<
  ApproveIncomingPaymentCommand,
  Record<string, unknown>
> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ transactionId, actor }: ApproveIncomingPaymentCommand) {
    await loadAwaitingApproval(this.runner, this.readModels, transactionId, actor.platformId);
    const ref: PaymentRef = { kind: 'transaction', id: transactionId };
    const tx = await this.process.applyStep(ref, { type: 'COMPLETE' }, { ...actor }, { from: ['PENDING'] });
    return toTransactionResource(decided(tx, 'COMPLETED'));
  }
}

@CommandHandler(RejectIncomingPaymentCommand)
export class RejectIncomingPaymentHandler implements ICommandHandler<
  RejectIncomingPaymentCommand,
  Record<string, unknown>
> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ transactionId, actor }: RejectIncomingPaymentCommand) {
    await loadAwaitingApproval(this.runner, this.readModels, transactionId, actor.platformId);
    const ref: PaymentRef = { kind: 'transaction', id: transactionId };
    const tx = await this.process.applyStep(
      ref,
      { type: 'FAIL', status: 'REJECTED' },
      { ...actor },
      { from: ['PENDING'] },
    );
    return toTransactionResource(decided(tx, 'REJECTED'));
  }
}
