import { Logger } from '@nestjs/common';
import { DomainError } from '#domain/errors.js';
import type { PaymentRef } from '#domain/payments/transactions/payment-plan.js';
import type { ApprovalReply } from '#domain/webhooks/payment-approval.js';
import { awaitsApproval } from '#domain/webhooks/payment-webhooks.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { CommandRunner } from '#application/command-runner.js';
import type { PlatformClocks } from '#application/command-context.js';
import type { Actor } from '#application/tokens.js';
import {
  ApproveIncomingPaymentCommand,
  ApproveIncomingPaymentHandler,
  RejectIncomingPaymentCommand,
  RejectIncomingPaymentHandler,
} from '#application/payments/transactions/transaction-commands.js';
import type { PaymentProcess } from '#application/payments/transactions/payment-process.js';

/**
 * Carries out what the platform's reply to an approval request decided, through the same commands
 * as `POST /transactions/{id}/approve` and `/reject`. A payment something else decided first (the
 * API, the approval timeout) is left as it is: the reply came too late.
 */
export class PaymentApprovals {
  private readonly logger = new Logger('PaymentApprovals');
  private readonly approve: ApproveIncomingPaymentHandler;
  private readonly reject: RejectIncomingPaymentHandler;

  constructor(
    runner: CommandRunner,
    private readonly process: PaymentProcess,
    readModels: ReadModelStore,
    clocks: PlatformClocks,
  ) {
    this.approve = new ApproveIncomingPaymentHandler(runner, process, readModels, clocks);
    this.reject = new RejectIncomingPaymentHandler(runner, process, readModels, clocks);
  }

  /** Whether the payment an approval request (its body) asks about still waits for the platform's decision. */
  async awaited(body: string): Promise<boolean> {
    const transactionId = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
    if (!transactionId) return false;
    try {
      return awaitsApproval(await this.process.load({ kind: 'transaction', id: transactionId }));
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return false;
      throw error;
    }
  }

  /** `body` is the approval request sent (its `data.id` names the payment). */
  async apply(platformId: string, webhookId: string, body: string, reply: ApprovalReply): Promise<void> {
    if (reply.decision === 'WAIT') return;
    const transactionId = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
    if (!transactionId) return;
    const actor: Actor = { platformId, actor: 'system:webhook-approvals', correlationId: webhookId };
    try {
      switch (reply.decision) {
        case 'APPROVE':
          await this.approve.execute(
            new ApproveIncomingPaymentCommand(
              transactionId,
              actor,
              reply.receiverCustomerInfo ? { receiverCustomerInfo: reply.receiverCustomerInfo } : {},
            ),
          );
          return;
        case 'REJECT':
          await this.reject.execute(
            new RejectIncomingPaymentCommand(transactionId, actor, reply.reason ? { reason: reply.reason } : {}),
          );
          return;
        case 'FAIL': {
          const ref: PaymentRef = { kind: 'transaction', id: transactionId };
          if (!awaitsApproval(await this.process.load(ref))) return;
          const step = { type: 'FAIL', status: 'FAILED', failureReason: reply.failureReason } as const;
          await this.process.applyStep(ref, step, { ...actor }, { from: ['PENDING'] });
          return;
        }
      }
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'not_found')) {
        this.logger.log(
          `${transactionId}: the reply to ${webhookId} came after the payment was decided (${error.code})`,
        );
        return;
      }
      throw error;
    }
  }
}
