import { Body, Controller, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateCardCommand, UpdateCardCommand } from '#application/cards/card-commands.js';
import { CardQueries } from '#application/cards/card-queries.js';
import type { Actor } from '#application/tokens.js';
import type { CardSnapshot } from '#domain/cards/card-types.js';
import { ApiDoc, created, ok, ApiSignedResource } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { Idempotent } from '../http/idempotency.interceptor.js';
import { Signed, type SignedCall } from '../http/signed-retry.js';
import { CreateCardDto, ListCardsQuery, UpdateCardDto } from './card.dto.js';

const LIFECYCLE =
  'States: a card requested for a holder whose KYC is PENDING starts PENDING_KYC and moves to ' +
  'PENDING_ISSUE when the holder is approved (a REJECTED holder gets 400 CARDHOLDER_KYC_NOT_APPROVED); ' +
  'PENDING_ISSUE lasts while the issuer provisions the card (sandbox: 5 seconds on the sandbox ' +
  'clock), then ACTIVE, or CLOSED with stateReason ISSUER_REJECTED when the issuer refuses it ' +
  '(sandbox: a platformCardId ending in 002). brand and issuerRef are set on request; last4, ' +
  'expMonth, expYear and panEmbedUrl (the issuer iframe that shows PAN, CVV and expiry; the full ' +
  'PAN and CVV never pass through this service) once issued. ' +
  'The service closes the open cards of a deleted holder (stateReason CLOSED_BY_SERVICE). The form ' +
  'factor is the field `form` (only VIRTUAL). The currency derives from the funding sources.';

const OWNER =
  'The card’s owning internal account is the holder’s EMBEDDED_WALLET account in the card’s ' +
  'currency, recorded when the card is created (a holder without one gets 400 CARDHOLDER_WALLET_REQUIRED); ' +
  'changes are a signed retry stamped by an active session of that account.';

@Controller('cards')
export class CardsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly cards: CardQueries,
  ) {}

  @Post()
  @Idempotent()
  @ApiDoc({
    summary: 'Request a card',
    description:
      `${LIFECYCLE} Funding sources: at least one, each an open internal account of the ` +
      `holder, all in one currency, tried in the given order by authorization. ${OWNER}`,
    responses: created('The card (PENDING_KYC or PENDING_ISSUE)', 'Card'),
    errors: [404, 409],
  })
  create(@Body() body: CreateCardDto, @CurrentActor() actor: Actor): Promise<CardSnapshot> {
    return this.commands.execute(new CreateCardCommand(body, actor));
  }

  @GetPage('', 'List cards', 'cards', 'Card', {
    description:
      'Filters: customerId (holder), accountId (cards that internal account funds; closed cards ' +
      'have no bindings), platformCardId, state. Newest first unless sortOrder=asc.',
  })
  list(@Query() q: ListCardsQuery, @CurrentActor() actor: Actor) {
    return this.cards.list(actor.platformId, q);
  }

  @GetOne(':id', 'Get a card', ok('The card', 'Card'), { description: LIFECYCLE })
  get(@IdParam('Card', 'id') id: string, @CurrentActor() actor: Actor) {
    return this.cards.card(actor.platformId, id);
  }

  @Patch(':id')
  @ApiSignedResource('Change a card’s state and/or funding sources', ok('The card', 'Card'), {
    description:
      'state: ACTIVE <-> FROZEN, ACTIVE/FROZEN -> CLOSED (stateReason CLOSED_BY_PLATFORM, funding ' +
      'sources detached, open authorizations reversed and their holds released; CLOSED is ' +
      'terminal); any other transition is 409 INVALID_STATE_TRANSITION. ' +
      'fundingSources replaces the whole ordered binding (at least one, the holder’s, in the card ' +
      'currency) and cannot accompany state CLOSED. ' +
      `Emits card.state_change / card.funding_source_change (events CardStateChanged / ` +
      `CardFundingSourcesChanged). ${OWNER} A request that would be refused is refused before a challenge is issued.`,
    errors: [409],
  })
  async update(
    @IdParam('Card', 'id') id: string,
    @Body() body: UpdateCardDto,
    @Signed() signed: SignedCall,
    @CurrentActor() actor: Actor,
  ) {
    const changes = {
      ...(body.state !== undefined ? { state: body.state } : {}),
      ...(body.fundingSources !== undefined ? { fundingSources: body.fundingSources } : {}),
    };
    return signed.execute(this.commands, new UpdateCardCommand(id, changes, signed.request, actor), 200);
  }
}
