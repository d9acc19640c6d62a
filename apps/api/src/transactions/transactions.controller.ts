import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { Actor } from '#application/tokens.js';
import { MoneyQueries } from '#application/transactions/money-queries.js';
import {
  ApproveIncomingPaymentCommand,
  RejectIncomingPaymentCommand,
} from '#application/transactions/transaction-commands.js';
import { TRANSACTION_STATUSES } from '#domain/transactions/transaction.js';
import { ApiDoc } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { idParam } from '../http/id-pipe.js';
import { SortedPageParams } from '../http/list-params.js';
import { CUSTOMER_ID } from '../quotes/quote.dto.js';
import { Idempotent } from '../http/idempotency.interceptor.js';

export class ListTransactionsQuery extends SortedPageParams {
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
  @IsOptional() @IsString() @MaxLength(200) platformCustomerId?: string;
  /** An internal or external account id, or a UMA address, on either side of the transaction. */
  @IsOptional() @IsString() @MaxLength(255) accountIdentifier?: string;
  @IsOptional() @IsIn(TRANSACTION_STATUSES) status?: string;
  @IsOptional() @IsIn(['INCOMING', 'OUTGOING']) type?: 'INCOMING' | 'OUTGOING';
  /** reconciliationInstructions.reference */
  @IsOptional() @IsString() @MaxLength(100) reference?: string;
  /** createdAt at or after (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) startDate?: string;
  /** createdAt at or before (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) endDate?: string;
}

const STATUS_TEXT =
  'Statuses: CREATED (initial lookup created), PENDING (quote created; incoming: awaiting the ' +
  'platform’s approval), PROCESSING (funding received, payment initiated), ' +
  'COMPLETED (converted and sent, or credited), REJECTED (receiving side rejected, refunded), ' +
  'FAILED (see failureReason), REFUNDED, EXPIRED (quote expired). ' +
  'reconciliationInstructions are present for every status but CREATED.';

@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: MoneyQueries,
  ) {}

  @Get()
  @ApiDoc({
    summary: 'List transactions',
    description: `Newest first unless sortOrder=asc; dates are inclusive. ${STATUS_TEXT}`,
    tag: 'Transactions',
    responses: { 200: { description: 'A page of transactions', schema: 'list:Transaction' } },
  })
  list(@Query() query: ListTransactionsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listTransactions(actor.platformId, query);
  }

  @Get(':transactionId')
  @ApiDoc({
    summary: 'Get a transaction',
    description: STATUS_TEXT,
    tag: 'Transactions',
    responses: { 200: { description: 'The transaction', schema: 'Transaction' } },
    errors: [404],
  })
  get(@Param('transactionId', idParam('Transaction', 'transactionId')) id: string, @CurrentActor() actor: Actor) {
    return this.queries.transaction(actor.platformId, id);
  }

  @Post(':transactionId/approve')
  @Idempotent()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Approve an incoming payment',
    description:
      'For INCOMING payments PENDING the platform’s approval: credits the receiver (PROCESSING, then COMPLETED).',
    tag: 'Transactions',
    responses: { 200: { description: 'The transaction', schema: 'Transaction' } },
    errors: [404, 409],
  })
  approve(
    @Param('transactionId', idParam('Transaction', 'transactionId')) id: string,
    @CurrentActor() actor: Actor,
  ): Promise<Record<string, unknown>> {
    return this.commands.execute(new ApproveIncomingPaymentCommand(id, actor));
  }

  @Post(':transactionId/reject')
  @Idempotent()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Reject an incoming payment',
    description: 'For INCOMING payments PENDING the platform’s approval: REJECTED, nothing is credited.',
    tag: 'Transactions',
    responses: { 200: { description: 'The transaction', schema: 'Transaction' } },
    errors: [404, 409],
  })
  reject(
    @Param('transactionId', idParam('Transaction', 'transactionId')) id: string,
    @CurrentActor() actor: Actor,
  ): Promise<Record<string, unknown>> {
    return this.commands.execute(new RejectIncomingPaymentCommand(id, actor));
  }
}
