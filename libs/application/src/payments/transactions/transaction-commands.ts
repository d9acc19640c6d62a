import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/errors.js';
import { isPublicId, streams } from '#domain/primitives.js';
import type { PaymentRef } from '#domain/payments/transactions/payment-plan.js';
import { awaitsPlatformApproval, notPendingApproval } from '#domain/payments/transactions/annotations.js';
import {
  toTransactionResource,
  transactionDecider,
  type TransactionRecord,
} from '#domain/payments/transactions/transaction.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext, PlatformClocks } from '../../command-context.js';
import { CommandRunner } from '../../command-runner.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { PaymentProcess } from './payment-process.js';

/** What the platform may say when approving: the receiver data the sender's side asked for. */
export interface ApprovalDetails {
  receiverCustomerInfo?: Record<string, unknown>;
}
/** What the platform may say when rejecting: its own reason (kept as `rejectionReason`). */
export interface RejectionDetails {
  reason?: string;
}

export class ApproveIncomingPaymentCommand {
  constructor(
    readonly transactionId: string,
    readonly actor: Actor,
    readonly details: ApprovalDetails = {},
  ) {}
}
export class RejectIncomingPaymentCommand {
  constructor(
    readonly transactionId: string,
    readonly actor: Actor,
    readonly details: RejectionDetails = {},
  ) {}
}
export class ConfirmReceiptDeliveryCommand {
  constructor(
    readonly transactionId: string,
    readonly actor: Actor,
    /** When the receipt was delivered; the platform's now when absent. */
    readonly receiptDeliveryConfirmedAt?: string,
  ) {}
}

/**
 * Where a transaction of this platform lives: its own stream (transfers, incoming payments) or
 * its quote's stream. 404 for another platform's transaction or an unknown id.
 */
async function locate(
  runner: CommandRunner,
  readModels: ReadModelStore,
  transactionId: string,
  platformId: string,
): Promise<{ ref: PaymentRef; tx?: TransactionRecord }> {
  if (!isPublicId('Transaction', transactionId)) throw notFound('TRANSACTION', transactionId);
  const { state } = await runner.load(streams.transaction(transactionId), transactionDecider);
  const tx = state.transaction;
  if (tx && tx.platformId === platformId) return { ref: { kind: 'transaction', id: transactionId }, tx };
  const doc = await readModels.get(Collections.transactions, transactionId);
  if (!tx && doc && doc.platformId === platformId && typeof doc.quoteId === 'string')
    return { ref: { kind: 'quote', id: doc.quoteId } };
  throw notFound('TRANSACTION', transactionId);
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
  const { tx } = await locate(runner, readModels, transactionId, platformId);
  // Transactions of quotes live in their quote's stream: they exist, but never await approval.
  if (!tx) throw notPendingApproval(transactionId, 'an outgoing payment');
  if (!awaitsPlatformApproval(tx)) throw notPendingApproval(transactionId, tx.status);
  return tx;
}

/** The decision took effect, or something else (the approval timeout) decided first. */
function decided(tx: TransactionRecord, expected: TransactionRecord['status']): TransactionRecord {
  if (tx.status !== expected) throw notPendingApproval(tx.id, tx.status);
  return tx;
}

@Injectable()
abstract class DecisionHandler {
  constructor(
    protected readonly runner: CommandRunner,
    protected readonly process: PaymentProcess,
    @Inject(READ_MODELS) protected readonly readModels: ReadModelStore,
    protected readonly clocks: PlatformClocks,
  ) {}

  /** Checks the payment waits, records what the platform said with its decision, then applies it. */
  protected async decide(
    transactionId: string,
    actor: Actor,
    decision:
      { decision: 'APPROVE'; receiverCustomerInfo?: Record<string, unknown> } | { decision: 'REJECT'; reason?: string },
  ): Promise<TransactionRecord> {
    await loadAwaitingApproval(this.runner, this.readModels, transactionId, actor.platformId);
    const ref: PaymentRef = { kind: 'transaction', id: transactionId };
    const metadata = { ...actor };
    const now = (await this.clocks.now(actor.platformId)).toISOString();
    await this.process.annotate(ref, { type: 'RecordPlatformDecision', now, ...decision }, metadata);
    return decision.decision === 'APPROVE'
      ? decided(await this.process.applyStep(ref, { type: 'COMPLETE' }, metadata, { from: ['PENDING'] }), 'COMPLETED')
      : decided(
          await this.process.applyStep(ref, { type: 'FAIL', status: 'REJECTED' }, metadata, { from: ['PENDING'] }),
          'REJECTED',
        );
  }
}

@CommandHandler(ApproveIncomingPaymentCommand)
export class ApproveIncomingPaymentHandler
  extends DecisionHandler
  implements ICommandHandler<ApproveIncomingPaymentCommand, Record<string, unknown>>
{
  async execute({ transactionId, actor, details }: ApproveIncomingPaymentCommand) {
    const tx = await this.decide(transactionId, actor, {
      decision: 'APPROVE',
      receiverCustomerInfo: details?.receiverCustomerInfo,
    });
    return toTransactionResource(tx);
  }
}

@CommandHandler(RejectIncomingPaymentCommand)
export class RejectIncomingPaymentHandler
  extends DecisionHandler
  implements ICommandHandler<RejectIncomingPaymentCommand, Record<string, unknown>>
{
  async execute({ transactionId, actor, details }: RejectIncomingPaymentCommand) {
    const tx = await this.decide(transactionId, actor, { decision: 'REJECT', reason: details?.reason });
    return toTransactionResource(tx);
  }
}

/** Records (or moves) when the platform delivered the transaction's receipt to its customer. */
@CommandHandler(ConfirmReceiptDeliveryCommand)
export class ConfirmReceiptDeliveryHandler implements ICommandHandler<
  ConfirmReceiptDeliveryCommand,
  Record<string, unknown>
> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ transactionId, actor, receiptDeliveryConfirmedAt }: ConfirmReceiptDeliveryCommand) {
    const { ref } = await locate(this.ctx.runner, this.readModels, transactionId, actor.platformId);
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const tx = await this.process.annotate(
      ref,
      {
        type: 'ConfirmReceiptDelivery',
        now,
        ...(receiptDeliveryConfirmedAt ? { at: receiptDeliveryConfirmedAt } : {}),
      },
      { ...actor },
    );
    return toTransactionResource(tx);
  }
}
