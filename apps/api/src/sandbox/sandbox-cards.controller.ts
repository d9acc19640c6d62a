import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { SimulateCardAuthorizationCommand } from '#application/cards/card-authorizations.js';
import { SimulateCardClearingCommand, SimulateCardReturnCommand } from '#application/cards/card-presentments.js';
import type { Actor } from '#application/tokens.js';
import { SimulateAuthorizationDto, SimulateClearingDto, SimulateReturnDto } from '../cards/card.dto.js';
import { ApiResource, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { IdempotentAction } from '../http/retries.js';
import { SANDBOX_CARDS_TEXT } from '../docs/descriptions/sandbox.js';

/** The card transaction a clearing or a return is about, and its amount when given. */
const onTransaction = (body: SimulateClearingDto | SimulateReturnDto) => ({
  cardTransactionId: body.cardTransactionId,
  amount: body.amount === undefined ? undefined : BigInt(body.amount),
});

/** The card network, simulated for sandbox platforms: authorizations, clearings and returns on the ledger. */
@ApiTags('Sandbox')
@Controller('sandbox/cards')
export class SandboxCardsController {
  constructor(private readonly commands: CommandBus) {}

  @IdempotentAction(':id/simulate/authorization')
  @ApiResource('Simulate a card authorization (sandbox)', ok('The card transaction (AUTHORIZED)', 'CardTransaction'), {
    description: SANDBOX_CARDS_TEXT.authorize,
    errors: [403],
  })
  authorize(
    @IdParam('Card', 'id') cardId: string,
    @Body() body: SimulateAuthorizationDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(
      new SimulateCardAuthorizationCommand(
        cardId,
        { amount: BigInt(body.amount), currency: body.currency.code, merchant: { ...body.merchant } },
        actor,
      ),
    );
  }

  @IdempotentAction(':id/simulate/clearing')
  @ApiResource('Simulate the clearing of a card transaction (sandbox)', ok('The card transaction', 'CardTransaction'), {
    description: SANDBOX_CARDS_TEXT.clear,
    errors: [403],
  })
  clear(@IdParam('Card', 'id') cardId: string, @Body() body: SimulateClearingDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new SimulateCardClearingCommand(cardId, onTransaction(body), actor));
  }

  @IdempotentAction(':id/simulate/return')
  @ApiResource(
    'Simulate a return (refund) of a settled card transaction (sandbox)',
    ok('The card transaction', 'CardTransaction'),
    { description: SANDBOX_CARDS_TEXT.refund, errors: [403] },
  )
  refund(@IdParam('Card', 'id') cardId: string, @Body() body: SimulateReturnDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new SimulateCardReturnCommand(cardId, onTransaction(body), actor));
  }
}
