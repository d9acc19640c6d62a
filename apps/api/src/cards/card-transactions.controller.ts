import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CardQueries } from '#application/cards/card-queries.js';
import type { Actor } from '#application/tokens.js';
import { ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { ListCardTransactionsQuery } from './card.dto.js';
import { CARD_TRANSACTIONS_TEXT } from '../docs/descriptions/cards.js';

/** Card transactions (the public API's CardTransaction), readable so a platform can build a card statement. */
@ApiTags('Cards')
@Controller()
export class CardTransactionsController {
  constructor(private readonly cards: CardQueries) {}

  @GetPage('cards/:cardId/transactions', 'List a card’s transactions', 'card transactions', 'CardTransaction', {
    description: CARD_TRANSACTIONS_TEXT.list,
    errors: [404],
  })
  list(@IdParam('Card', 'cardId') cardId: string, @Query() q: ListCardTransactionsQuery, @CurrentActor() actor: Actor) {
    return this.cards.transactions(actor.platformId, cardId, q);
  }

  @GetOne(
    'card-transactions/:cardTransactionId',
    'Get a card transaction',
    ok('The card transaction', 'CardTransaction'),
    { description: CARD_TRANSACTIONS_TEXT.get },
  )
  get(@IdParam('CardTransaction', 'cardTransactionId') id: string, @CurrentActor() actor: Actor) {
    return this.cards.transaction(actor.platformId, id);
  }
}
