import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import {
  SimulateCardAuthorizationCommand,
  SimulateCardClearingCommand,
  SimulateCardReturnCommand,
} from '#application/cards/card-authorizations.js';
import type { Actor } from '#application/tokens.js';
import { SimulateAuthorizationDto, SimulateClearingDto, SimulateReturnDto } from '../cards/card.dto.js';
import { ApiResource, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { IdempotentAction } from '../http/idempotency.interceptor.js';

/** The card transaction a clearing or a return is about, and its amount when given. */
const onTransaction = (body: SimulateClearingDto | SimulateReturnDto) => ({
  cardTransactionId: body.cardTransactionId,
  amount: body.amount === undefined ? undefined : BigInt(body.amount),
});

const STATE_ERRORS =
  'A transaction in the wrong status for the message is 400 INVALID_INPUT; an amount past what is ' +
  'left is 400 INVALID_AMOUNT; a transaction of another card or platform (or a declined ' +
  'authorization, which opens none) is 404 CARD_TRANSACTION_NOT_FOUND.';

/** The card network, simulated for sandbox platforms: authorizations, clearings and returns on the ledger. */
@ApiTags('Sandbox')
@Controller('sandbox/cards')
export class SandboxCardsController {
  constructor(private readonly commands: CommandBus) {}

  @IdempotentAction(':id/simulate/authorization')
  @ApiResource('Simulate a card authorization (sandbox)', ok('The card transaction (AUTHORIZED)', 'CardTransaction'), {
    description:
      'Declined with 400 and the decline reason as `code` (the authorization is kept in the card’s ' +
      'audit history; it opens no transaction): CARD_PAUSED (FROZEN card, or a merchant descriptor ' +
      'ending in 003), CARD_CLOSED, CARD_NOT_ACTIVE (PENDING_KYC, PENDING_ISSUE), CURRENCY_MISMATCH ' +
      '(currency.code other than the card’s), INSUFFICIENT_FUNDS (descriptor ending in 002, or no ' +
      'funding source has the funds). Otherwise the funding sources are tried in order and the first ' +
      'ACTIVE one with the funds gets a hold (a pending ledger transfer to the platform’s settlement ' +
      'account of the currency) and the answer is the AUTHORIZED CardTransaction; with a descriptor ' +
      'ending in 006 the pull is then reported failed: the hold is released and the transaction is ' +
      'in EXCEPTION (a later clearing pulls anew, as a late presentment). An approval not ' +
      'cleared within 7 days (sandbox clock) expires: its hold is released and it ends SETTLED with ' +
      'nothing settled; a later clearing is a late presentment.',
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
    description:
      'Needs an AUTHORIZED or PARTIALLY_SETTLED transaction (or one in EXCEPTION, presented again). ' +
      'amount defaults to what is held; less posts that part of the hold and holds the rest again ' +
      '(PARTIALLY_SETTLED: later clearings take from it; if the funding source spent the rest ' +
      'meanwhile, nothing stays held and it is SETTLED); more ' +
      '(over-authorization) also pulls the extra from the funding source as a separate posted ' +
      'transfer (pullSummary.count 2); without the funds nothing moves and the transaction is in ' +
      'EXCEPTION (the hold stays). 0 lets the authorization expire now: what is held is released ' +
      'and the transaction is SETTLED. Clears whatever the card’s state. Late ' +
      'presentment: after the hold was released (card closed, authorization expired) a clearing ' +
      'pulls the amount anew from the same funding source, EXCEPTION without the funds. ' +
      STATE_ERRORS,
    errors: [403],
  })
  clear(@IdParam('Card', 'id') cardId: string, @Body() body: SimulateClearingDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new SimulateCardClearingCommand(cardId, onTransaction(body), actor));
  }

  @IdempotentAction(':id/simulate/return')
  @ApiResource(
    'Simulate a return (refund) of a settled card transaction (sandbox)',
    ok('The card transaction', 'CardTransaction'),
    {
      description:
        'Moves the amount (default: all settled and not yet returned) back from the settlement ' +
        'account to the funding source that paid, also after the card closed. The transaction is ' +
        'REFUNDED once everything settled was returned, SETTLED with a refundedAmount before. ' +
        STATE_ERRORS,
      errors: [403],
    },
  )
  refund(@IdParam('Card', 'id') cardId: string, @Body() body: SimulateReturnDto, @CurrentActor() actor: Actor) {
    return this.commands.execute(new SimulateCardReturnCommand(cardId, onTransaction(body), actor));
  }
}
