import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  SimulateCardAuthorizationCommand,
  SimulateCardClearingCommand,
  SimulateCardReturnCommand,
} from '#application/cards/card-authorizations.js';
import { CardQueries } from '#application/cards/card-queries.js';
import type { Actor } from '#application/tokens.js';
import { SimulateAuthorizationDto, SimulateClearingDto, SimulateReturnDto } from '../cards/card.dto.js';
import { ApiDoc } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { idParam } from '../http/id-pipe.js';
import { Idempotent } from '../http/idempotency.interceptor.js';

const optionalAmount = (amount?: number) => (amount === undefined ? undefined : BigInt(amount));

/** The card network, simulated for sandbox platforms: authorizations, clearings and returns on the ledger. */
@Controller('sandbox/cards')
export class SandboxCardsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly cards: CardQueries,
  ) {}

  @Post(':cardId/simulate/authorization')
  @Idempotent()
  @ApiDoc({
    summary: 'Simulate a card authorization (sandbox)',
    description:
      'Declined with CARD_PAUSED (FROZEN), CARD_CLOSED, CARD_NOT_ACTIVE (PENDING_KYC, ' +
      'PENDING_ISSUE) or CURRENCY_MISMATCH before funds are checked; otherwise the funding ' +
      'sources are tried in order and the first ACTIVE one with the funds gets a hold ' +
      '(a pending ledger transfer to the platform’s settlement account of the currency); none -> ' +
      'INSUFFICIENT_FUNDS. Declined authorizations are recorded too. An approval not cleared ' +
      'within 7 days (sandbox clock) expires: it becomes REVERSED (reversalReason EXPIRED) and ' +
      'its hold is released; a later clearing is a late presentment.',
    tag: 'Sandbox',
    responses: { 201: { description: 'The authorization (APPROVED or DECLINED)', schema: 'CardAuthorization' } },
    errors: [403, 404],
  })
  authorize(
    @Param('cardId', idParam('Card', 'cardId')) cardId: string,
    @Body() body: SimulateAuthorizationDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(
      new SimulateCardAuthorizationCommand(
        cardId,
        { amount: BigInt(body.amount), currency: body.currency, merchant: { ...body.merchant } },
        actor,
      ),
    );
  }

  @Post(':cardId/simulate/clearing')
  @Idempotent()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Simulate the clearing of an authorization (sandbox)',
    description:
      'Posts the hold: amount defaults to the authorized amount; less posts part and releases the ' +
      'rest; more (over-authorization) also moves the extra as a separate posted transfer when ' +
      'the funding source has it, otherwise the clearing is declined (activity entry DECLINED, the hold stays). ' +
      'Clears whatever the card’s state (a frozen card’s earlier authorizations still clear). Late ' +
      'presentment: after the card closed (authorization REVERSED, hold released) the clearing ' +
      'posts a new transfer from the same funding source if the funds are there ' +
      '(latePresentment true), otherwise it is declined.',
    tag: 'Sandbox',
    responses: { 200: { description: 'The authorization', schema: 'CardAuthorization' } },
    errors: [403, 404, 409],
  })
  clear(
    @Param('cardId', idParam('Card', 'cardId')) cardId: string,
    @Body() body: SimulateClearingDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(
      new SimulateCardClearingCommand(
        cardId,
        { authorizationId: body.authorizationId, amount: optionalAmount(body.amount) },
        actor,
      ),
    );
  }

  @Post(':cardId/simulate/return')
  @Idempotent()
  @HttpCode(200)
  @ApiDoc({
    summary: 'Simulate a return (refund) of a cleared authorization (sandbox)',
    description:
      'Moves the amount (default: all cleared and not yet returned) back from the settlement ' +
      'account to the funding source that paid; also after the card closed.',
    tag: 'Sandbox',
    responses: { 200: { description: 'The authorization', schema: 'CardAuthorization' } },
    errors: [403, 404, 409],
  })
  refund(
    @Param('cardId', idParam('Card', 'cardId')) cardId: string,
    @Body() body: SimulateReturnDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(
      new SimulateCardReturnCommand(
        cardId,
        { authorizationId: body.authorizationId, amount: optionalAmount(body.amount) },
        actor,
      ),
    );
  }

  @Get(':cardId/authorizations/:authorizationId')
  @ApiDoc({
    summary: 'Get a simulated card authorization (sandbox)',
    tag: 'Sandbox',
    responses: { 200: { description: 'The authorization', schema: 'CardAuthorization' } },
    errors: [403, 404],
  })
  authorization(
    @Param('cardId', idParam('Card', 'cardId')) cardId: string,
    @Param('authorizationId', idParam('CardAuthorization', 'authorizationId')) authorizationId: string,
    @CurrentActor() actor: Actor,
  ) {
    return this.cards.authorization(actor, cardId, authorizationId);
  }
}
