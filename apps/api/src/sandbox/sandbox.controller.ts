import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { IsInt, IsPositive, Max } from 'class-validator';
import { FundInternalAccountCommand } from '#application/payments/ledger/fund-commands.js';
import { Queries } from '#application/queries/queries.js';
import type { Actor } from '#application/tokens.js';
import { ApiResource, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { IdempotentAction } from '../http/retries.js';
import { SANDBOX_TEXT } from '../docs/descriptions/sandbox.js';

export class FundDto {
  /** Smallest unit of the account's currency. */
  @IsInt({ message: 'amount must be an integer in the smallest unit' })
  @IsPositive({ message: 'amount must be greater than zero' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'amount must be at most 9007199254740991' })
  amount!: number;
}

/** Sandbox helpers: available only to sandbox platforms. */
@ApiTags('Sandbox')
@Controller('sandbox')
export class SandboxController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: Queries,
  ) {}

  @IdempotentAction('internal-accounts/:accountId/fund')
  @ApiResource('Fund an internal account (sandbox)', ok('The funded account', 'InternalAccount'), {
    description: SANDBOX_TEXT.fund,
    errors: [403, 409],
  })
  async fund(
    @IdParam('InternalAccount', 'accountId') accountId: string,
    @Body() body: FundDto,
    @CurrentActor() actor: Actor,
  ) {
    await this.commands.execute(new FundInternalAccountCommand(accountId, BigInt(body.amount), actor));
    return this.queries.internalAccount(actor.platformId, accountId);
  }
}
