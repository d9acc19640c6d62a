import { Controller, Get, Param, Query } from '@nestjs/common';
import { CardQueries } from '#application/cards/card-queries.js';
import type { Actor } from '#application/tokens.js';
import { ApiDoc } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { idParam } from '../http/id-pipe.js';
import { ListCardTransactionsQuery } from './card.dto.js';

const STATUSES =
  'status: AUTHORIZED (funds held, nothing cleared), PARTIALLY_SETTLED (a clearing posted part and the ' +
  'rest is still held for more), SETTLED (closed against the funding source: cleared, or what was held ' +
  'released when the authorization expired or the card closed), REFUNDED (everything settled was ' +
  'returned), EXCEPTION (a clearing arrived that the funding source could not pay).';

/** Card transactions (the public API's CardTransaction), readable so a platform can build a card statement. */
@Controller()
export class CardTransactionsController {
  constructor(private readonly cards: CardQueries) {}

  @Get('cards/:cardId/transactions')
  @ApiDoc({
    summary: 'List a card’s transactions',
    description:
      'Every approved authorization of the card with what reconciled against it (declined ' +
      'authorizations open none; they are in the card’s audit history). Filters: status, ' +
      'createdAfter and createdBefore (inclusive bounds on the authorization time). Newest first ' +
      `unless sortOrder=asc. ${STATUSES} Another platform’s card answers 404.`,
    tag: 'Cards',
    responses: { 200: { description: 'A page of card transactions', schema: 'list:CardTransaction' } },
    errors: [404],
  })
  list(
    @Param('cardId', idParam('Card', 'cardId')) cardId: string,
    @Query() q: ListCardTransactionsQuery,
    @CurrentActor() actor: Actor,
  ) {
    return this.cards.transactions(actor.platformId, cardId, q);
  }

  @Get('card-transactions/:cardTransactionId')
  @ApiDoc({
    summary: 'Get a card transaction',
    description: `${STATUSES} Another platform’s transaction answers 404 CARD_TRANSACTION_NOT_FOUND.`,
    tag: 'Cards',
    responses: { 200: { description: 'The card transaction', schema: 'CardTransaction' } },
    errors: [404],
  })
  get(
    @Param('cardTransactionId', idParam('CardTransaction', 'cardTransactionId')) id: string,
    @CurrentActor() actor: Actor,
  ) {
    return this.cards.transaction(actor.platformId, id);
  }
}
