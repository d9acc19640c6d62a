import { Body, Controller, Headers, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { CreateQuoteCommand, ExecuteQuoteCommand } from '#application/payments/quotes/quote-commands.js';
import { quoteRequestOf } from '#domain/payments/quotes/quote.js';
import type { Actor } from '#application/tokens.js';
import { MoneyQueries } from '#application/payments/transactions/money-queries.js';
import { ApiResource, ok } from '../../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../../http/routes.js';
import { CurrentActor } from '../../http/auth.js';
import { IdParam } from '../../http/id-pipe.js';
import { IdempotentAction } from '../../http/idempotency.interceptor.js';
import { CreateQuoteDto, ListQuotesQuery } from './quote.dto.js';
import { QUOTES_TEXT } from '../../docs/descriptions/quotes.js';

@ApiTags('Quotes')
@Controller('quotes')
export class QuotesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: MoneyQueries,
  ) {}

  @PostCreate('Create a quote', 'The quote', 'Quote', { description: QUOTES_TEXT.create, errors: [404, 409, 422] })
  create(@Body() body: CreateQuoteDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    return this.commands.execute(new CreateQuoteCommand(quoteRequestOf(body), actor));
  }

  @GetPage('', 'List quotes', 'quotes', 'Quote', { description: QUOTES_TEXT.list })
  list(@Query() query: ListQuotesQuery, @CurrentActor() actor: Actor) {
    return this.queries.listQuotes(actor.platformId, query);
  }

  @GetOne(':quoteId', 'Get a quote', ok('The quote', 'Quote'))
  get(@IdParam('Quote', 'quoteId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.quote(actor.platformId, id);
  }

  @IdempotentAction(':quoteId/execute')
  @ApiResource('Execute a quote', ok('The quote, PROCESSING or in its final status', 'Quote'), {
    description: QUOTES_TEXT.execute,
    headers: [
      { name: 'Service-Wallet-Signature', description: QUOTES_TEXT.executeServiceWalletSignatureHeader },
      { name: 'Request-Id', description: QUOTES_TEXT.executeRequestIdHeader },
    ],
    errors: [409, 422],
  })
  execute(
    @IdParam('Quote', 'quoteId') id: string,
    @Headers('service-wallet-signature') signature: string | undefined,
    @Headers('request-id') requestId: string | undefined,
    @CurrentActor() actor: Actor,
  ): Promise<Record<string, unknown>> {
    return this.commands.execute(
      new ExecuteQuoteCommand(id, actor, { signature: signature || undefined, requestId: requestId || undefined }),
    );
  }
}
