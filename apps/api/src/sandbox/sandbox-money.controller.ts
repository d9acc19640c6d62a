import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { IsInt, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';
import type { Actor } from '#application/tokens.js';
import { SandboxSendCommand, SandboxUmaReceiveCommand } from '#application/payments/transactions/sandbox-payments.js';
import { currency } from '#domain/primitives.js';
import { IsCurrencyCode } from '../http/currency-code.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { CUSTOMER_ID, UMA_ADDRESS } from '../payments/quotes/quotes.controller.js';
import { IdempotentAction } from '../http/retries.js';
import { SANDBOX_MONEY_TEXT } from '../docs/descriptions/sandbox.js';

const QUOTE_ID = /^Quote:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class SandboxSendDto {
  @Matches(QUOTE_ID, { message: 'quoteId must have the form Quote:<uuid>' }) quoteId!: string;
  @IsCurrencyCode('currencyCode') currencyCode!: string;
  /** Defaults to the quote's totalSendingAmount; any other amount is refused. */
  @IsOptional()
  @IsInt({ message: 'currencyAmount must be an integer in the smallest unit' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  currencyAmount?: number;
}

export class SandboxUmaReceiveDto {
  @MaxLength(255)
  @Matches(UMA_ADDRESS, { message: 'senderUmaAddress must look like $name@domain' })
  senderUmaAddress!: string;
  /** The receiving customer's UMA address; or give customerId. */
  @IsOptional()
  @MaxLength(255)
  @Matches(UMA_ADDRESS, { message: 'receiverUmaAddress must look like $name@domain' })
  receiverUmaAddress?: string;
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
  @IsCurrencyCode('receivingCurrencyCode') receivingCurrencyCode!: string;
  @IsInt({ message: 'receivingCurrencyAmount must be an integer in the smallest unit' })
  @Min(1, { message: 'receivingCurrencyAmount must be greater than zero' })
  @Max(Number.MAX_SAFE_INTEGER)
  receivingCurrencyAmount!: number;
}

/** Sandbox simulations of money arriving from outside. */
@ApiTags('Sandbox')
@Controller('sandbox')
export class SandboxMoneyController {
  constructor(private readonly commands: CommandBus) {}

  @IdempotentAction('send')
  @ApiDoc({
    summary: 'Pay a quote’s payment instructions (sandbox)',
    description: SANDBOX_MONEY_TEXT.send,
    responses: ok('The quote’s transaction', 'Transaction'),
    errors: [403, 404, 409],
  })
  send(@Body() body: SandboxSendDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    currency(body.currencyCode, 'currencyCode'); // money moves: only a supported currency (400 INVALID_CURRENCY)
    return this.commands.execute(new SandboxSendCommand(body, actor));
  }

  @IdempotentAction('uma/receive')
  @ApiDoc({
    summary: 'Receive a UMA payment (sandbox)',
    description: SANDBOX_MONEY_TEXT.receive,
    responses: ok('The incoming transaction', 'Transaction'),
    errors: [403, 404],
  })
  receive(@Body() body: SandboxUmaReceiveDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    currency(body.receivingCurrencyCode, 'receivingCurrencyCode'); // money moves: 400 INVALID_CURRENCY otherwise
    return this.commands.execute(new SandboxUmaReceiveCommand(body, actor));
  }
}
