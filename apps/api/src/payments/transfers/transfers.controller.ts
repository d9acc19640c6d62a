import { applyDecorators, Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, IsOptional, Matches, Max, Min, ValidateNested } from 'class-validator';
import type { Actor } from '#application/tokens.js';
import { TransferInCommand, TransferOutCommand } from '#application/payments/transfers/transfer-commands.js';
import { ApiDoc, created } from '../../docs/api-doc.js';
import { CurrentActor } from '../../http/auth.js';
import { Idempotent } from '../../http/retries.js';
import { TRANSFERS_TEXT } from '../../docs/descriptions/transfers.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const INTERNAL = new RegExp(`^InternalAccount:${UUID}$`);
const EXTERNAL = new RegExp(`^ExternalAccount:${UUID}$`);

export class InternalEndDto {
  @Matches(INTERNAL, { message: 'accountId must have the form InternalAccount:<uuid>' }) accountId!: string;
}
export class ExternalEndDto {
  @Matches(EXTERNAL, { message: 'accountId must have the form ExternalAccount:<uuid>' }) accountId!: string;
}
export class ExternalDestinationDto extends ExternalEndDto {
  @IsOptional()
  @Matches(/^[A-Z_]{2,30}$/, { message: 'paymentRail must be a rail name such as ACH, RTP or SEPA_INSTANT' })
  paymentRail?: string;
}

/** `amount` as the public API defines it: optional. */
class OptionalAmountDto {
  @IsOptional()
  @IsInt({ message: 'amount must be an integer in the smallest unit' })
  @Min(1, { message: 'amount must be greater than zero' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'amount must be at most 9007199254740991' })
  amount?: number;
}

/** The platform's transfer-in: `amount` is required in practice (400 INVALID_AMOUNT without it). */
export class CreateTransferInDto extends OptionalAmountDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => ExternalEndDto) source!: ExternalEndDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => InternalEndDto) destination!: InternalEndDto;
}

/** The platform's transfer-out: without `amount` the whole available balance is sent. */
export class CreateTransferOutDto extends OptionalAmountDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => InternalEndDto) source!: InternalEndDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => ExternalDestinationDto) destination!: ExternalDestinationDto;
}

/** A transfer route: an idempotent POST answered with the transaction it created. */
const TransferRoute = (path: string, summary: string, description: string) =>
  applyDecorators(
    Post(path),
    Idempotent(),
    ApiDoc({ summary, description, responses: created('The transaction', 'Transaction'), errors: [404, 409, 422] }),
  );

/** Transfers between a customer's internal account and an external account in one currency. */
@ApiTags('Transfers')
@Controller()
export class TransfersController {
  constructor(private readonly commands: CommandBus) {}

  @TransferRoute('transfer-in', 'Transfer in from an external account', TRANSFERS_TEXT.transferIn)
  transferIn(@Body() body: CreateTransferInDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    return this.commands.execute(new TransferInCommand(body, actor));
  }

  @TransferRoute('transfer-out', 'Transfer out to an external account', TRANSFERS_TEXT.transferOut)
  transferOut(@Body() body: CreateTransferOutDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    return this.commands.execute(new TransferOutCommand(body, actor));
  }
}
