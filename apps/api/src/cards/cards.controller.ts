import { Body, Controller, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateCardCommand, UpdateCardCommand } from '#application/cards/card-commands.js';
import { CardQueries } from '#application/cards/card-queries.js';
import type { Actor } from '#application/tokens.js';
import type { CardSnapshot } from '#domain/cards/card-types.js';
import { ApiDoc, ok, ApiSignedResource } from '../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { Signed, type SignedCall } from '../http/retries.js';
import { CreateCardDto, ListCardsQuery, UpdateCardDto } from './card.dto.js';
import { plainControls, SpendingControlsBacktestDto } from './spending-controls.dto.js';
import { CardBacktests } from '#application/cards/card-backtest.js';
import { CARDS_TEXT, LIFECYCLE } from '../docs/descriptions/cards.js';

@Controller('cards')
export class CardsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly cards: CardQueries,
    private readonly backtests: CardBacktests,
  ) {}

  @PostCreate('Request a card', 'The card (PENDING_KYC or PENDING_ISSUE)', 'Card', {
    description: CARDS_TEXT.create,
    errors: [404, 409],
  })
  create(@Body() body: CreateCardDto, @CurrentActor() actor: Actor): Promise<CardSnapshot> {
    const { spendingControls, ...input } = body;
    const controls = spendingControls ? { spendingControls: plainControls(spendingControls) } : {};
    return this.commands.execute(new CreateCardCommand({ ...input, ...controls }, actor));
  }

  @GetPage('', 'List cards', 'cards', 'Card', { description: CARDS_TEXT.list })
  list(@Query() q: ListCardsQuery, @CurrentActor() actor: Actor) {
    return this.cards.list(actor.platformId, q);
  }

  @GetOne(':id', 'Get a card', ok('The card', 'Card'), { description: LIFECYCLE })
  get(@IdParam('Card', 'id') id: string, @CurrentActor() actor: Actor) {
    return this.cards.card(actor.platformId, id);
  }

  @Post(':id/spending-controls/backtest')
  @HttpCode(200)
  @ApiDoc({
    summary: 'Backtest spending controls on a card’s past authorizations',
    description: CARDS_TEXT.backtest,
    responses: ok('What the draft would have decided differently', 'CardSpendingControlsBacktest'),
    errors: [404],
  })
  backtest(@IdParam('Card', 'id') id: string, @Body() body: SpendingControlsBacktestDto, @CurrentActor() actor: Actor) {
    const period = { from: body.from, to: body.to };
    return this.backtests.backtest(actor.platformId, id, plainControls(body.spendingControls), period);
  }

  @Patch(':id')
  @ApiSignedResource('Change a card’s state and/or funding sources', ok('The card', 'Card'), {
    description: CARDS_TEXT.update,
    errors: [409],
  })
  async update(@IdParam('Card', 'id') id: string, @Body() body: UpdateCardDto, @Signed() signed: SignedCall) {
    const changes = {
      ...(body.state !== undefined ? { state: body.state } : {}),
      ...(body.fundingSources !== undefined ? { fundingSources: body.fundingSources } : {}),
      ...(body.spendingControls !== undefined ? { spendingControls: plainControls(body.spendingControls) } : {}),
    };
    return signed.execute(this.commands, new UpdateCardCommand(id, changes, signed.request, signed.actor), 200);
  }
}
