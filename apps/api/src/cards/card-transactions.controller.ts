import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CardQueries } from '#application/cards/card-queries.js';
import type { Actor } from '#application/tokens.js';
import { ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { ListCardTransactionsQuery } from './card.dto.js';

const STATUSES =
  'status: AUTHORIZED (funds held, nothing cleared), PARTIALLY_SETTLED (a clearing posted part and the ' +
  'rest is still held for more), SETTLED (closed against the funding source: cleared, or what was held ' +
  'released when the authorization expired or the card closed), REFUNDED (everything settled was ' +
  'returned), EXCEPTION (a clearing arrived that the funding source could not pay).';

/** Card transactions (the public API's CardTransaction), readable so a platform can build a card statement. */
@ApiTags('Cards')
@Controller()
export class CardTransactionsController {
  constructor(private readonly cards: CardQueries) {}

  @GetPage('cards/:cardId/transactions', 'List a card’s transactions', 'card transactions', 'CardTransaction', {
    description:
      'Every approved authorization of the card with what reconciled against it (declined ' +
      'authorizations open none; they are in the card’s audit history). Filters: status, ' +
      'createdAfter and createdBefore (inclusive bounds on the authorization time). Newest first ' +
      `unless sortOrder=asc. ${STATUSES} Another platform’s card answers 404.`,
    errors: [404],
  })
  list(@IdParam('Card', 'cardId') cardId: string, @Query() q: ListCardTransactionsQuery, @CurrentActor() actor: Actor) {
    return this.cards.transactions(actor.platformId, cardId, q);
  }

  @GetOne(
    'card-transactions/:cardTransactionId',
    'Get a card transaction',
    ok('The card transaction', 'CardTransaction'),
    {
      description: `${STATUSES} Another platform’s transaction answers 404 CARD_TRANSACTION_NOT_FOUND.`,
    },
  )
  get(@IdParam('CardTransaction', 'cardTransactionId') id: string, @CurrentActor() actor: Actor) {
    return this.cards.transaction(actor.platformId, id);
  }
}
