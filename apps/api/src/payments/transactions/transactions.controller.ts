import { applyDecorators, Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { IsISO8601, IsOptional, registerDecorator } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Actor } from '#application/tokens.js';
import { MoneyQueries } from '#application/payments/transactions/money-queries.js';
import {
  ApproveIncomingPaymentCommand,
  ConfirmReceiptDeliveryCommand,
  RejectIncomingPaymentCommand,
} from '#application/payments/transactions/transaction-commands.js';
import { OptionalText } from '../../http/fields.js';
import { ApiResource, ok } from '../../docs/api-doc.js';
import { GetOne, GetPage } from '../../http/routes.js';
import { CurrentActor } from '../../http/auth.js';
import { IdParam } from '../../http/id-pipe.js';
import { ListTransactionsQuery } from './transaction.dto.js';
import { IdempotentAction } from '../../http/retries.js';
import { TRANSACTIONS_TEXT, STATUS_TEXT } from '../../docs/descriptions/transactions.js';

/** A JSON object of at most 50 members and 8 KiB, any values. */
function IsSmallObject() {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'isSmallObject',
      target: target.constructor,
      propertyName: property,
      options: { message: `${property} must be an object of at most 50 members and 8192 bytes` },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= 50 &&
          JSON.stringify(value).length <= 8192,
      },
    });
}

export class ApprovePaymentDto {
  @IsOptional()
  @IsSmallObject()
  @JSONSchema(() => ({
    type: 'object',
    additionalProperties: true,
    maxProperties: 50,
    description: TRANSACTIONS_TEXT.constructor,
  }))
  receiverCustomerInfo?: Record<string, unknown>;
}

export class RejectPaymentDto {
  /**
   * Why the platform refuses the payment, for its own records (kept as rejectionReason), e.g.
   * RESTRICTED_JURISDICTION.
   */
  @OptionalText(1000) reason?: string;
}

export class ConfirmReceiptDeliveryDto {
  /** When the platform delivered the receipt to its customer; the platform's current time when absent. */
  @IsOptional() @IsISO8601({ strict: true }) receiptDeliveryConfirmedAt?: string;
}

const TransactionId = () => IdParam('Transaction', 'transactionId');
const TRANSACTION = ok('The transaction', 'Transaction');

/** The platform's decision on an incoming payment pending its approval: answered with the transaction. */
const PaymentDecision = (decision: 'approve' | 'reject', summary: string, description: string) =>
  applyDecorators(
    IdempotentAction(`:transactionId/${decision}`),
    ApiResource(summary, TRANSACTION, { description, optionalBody: true, errors: [409] }),
  );

@ApiTags('Transactions')
@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: MoneyQueries,
  ) {}

  @GetPage('', 'List transactions', 'transactions', 'Transaction', { description: TRANSACTIONS_TEXT.list })
  list(@Query() query: ListTransactionsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listTransactions(actor.platformId, query);
  }

  @GetOne(':transactionId', 'Get a transaction', TRANSACTION, { description: STATUS_TEXT })
  get(@TransactionId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.transaction(actor.platformId, id);
  }

  @IdempotentAction(':transactionId/confirm')
  @ApiResource('Confirm receipt delivery', TRANSACTION, { description: TRANSACTIONS_TEXT.confirm, optionalBody: true })
  confirm(
    @TransactionId() id: string,
    @Body() body: ConfirmReceiptDeliveryDto,
    @CurrentActor() actor: Actor,
  ): Promise<Record<string, unknown>> {
    return this.commands.execute(new ConfirmReceiptDeliveryCommand(id, actor, body?.receiptDeliveryConfirmedAt));
  }

  @PaymentDecision('approve', 'Approve an incoming payment', TRANSACTIONS_TEXT.approve)
  approve(
    @TransactionId() id: string,
    @Body() body: ApprovePaymentDto,
    @CurrentActor() actor: Actor,
  ): Promise<Record<string, unknown>> {
    const details = body?.receiverCustomerInfo ? { receiverCustomerInfo: body.receiverCustomerInfo } : {};
    return this.commands.execute(new ApproveIncomingPaymentCommand(id, actor, details));
  }

  @PaymentDecision('reject', 'Reject an incoming payment', TRANSACTIONS_TEXT.reject)
  reject(
    @TransactionId() id: string,
    @Body() body: RejectPaymentDto,
    @CurrentActor() actor: Actor,
  ): Promise<Record<string, unknown>> {
    const details = body?.reason !== undefined ? { reason: body.reason } : {};
    return this.commands.execute(new RejectIncomingPaymentCommand(id, actor, details));
  }
}
