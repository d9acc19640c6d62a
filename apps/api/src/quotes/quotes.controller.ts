import { Body, Controller, Headers, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { CreateQuoteCommand, ExecuteQuoteCommand } from '#application/quotes/quote-commands.js';
import type { PlatformQuoteRequest, QuoteRequest } from '#application/quotes/quote-builder.js';
import type { Actor } from '#application/tokens.js';
import { MoneyQueries } from '#application/transactions/money-queries.js';
import { ApiDoc, ApiResource, created, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { IdParam } from '../http/id-pipe.js';
import { Idempotent, IdempotentAction } from '../http/idempotency.interceptor.js';
import { CreateQuoteDto, ListQuotesQuery, type QuoteSourceDto } from './quote.dto.js';
import { QUOTES_TEXT } from '../docs/descriptions/quotes.js';

/** A field given that the chosen source or destination type does not take (`constraint`: the type's field). */
const wrongField = (field: string, message: string, constraint = 'sourceType') =>
  invalidInput([{ field, constraint, message }]);

/** The platform's DTO as the application takes it: a source carries only the fields of its type. */
export function toPlatformQuoteRequest(body: CreateQuoteDto): PlatformQuoteRequest {
  const s = body.source;
  if (s.sourceType === 'ACCOUNT') {
    if (s.currency !== undefined || s.cryptoNetwork !== undefined)
      throw wrongField('source.currency', 'currency and cryptoNetwork belong to REALTIME_FUNDING sources');
    return toQuoteRequest({
      ...body,
      source: { sourceType: 'ACCOUNT', accountId: s.accountId!, customerId: s.customerId },
    });
  }
  if (s.accountId !== undefined) throw wrongField('source.accountId', 'accountId belongs to ACCOUNT sources');
  const { destination, ...rest } = toQuoteRequest({ ...body, source: { sourceType: 'ACCOUNT', accountId: '' } });
  return {
    ...rest,
    destination,
    source: {
      sourceType: 'REALTIME_FUNDING',
      currency: s.currency!,
      ...(s.customerId ? { customerId: s.customerId } : {}),
      ...(s.cryptoNetwork ? { cryptoNetwork: s.cryptoNetwork } : {}),
    },
  };
}

/** The DTO as the application takes it; a destination carries only the fields of its type. */
export function toQuoteRequest(body: Omit<CreateQuoteDto, 'source'> & { source: QuoteSourceDto }): QuoteRequest {
  const d = body.destination;
  if (d.destinationType === 'ACCOUNT') {
    if (d.currency !== undefined)
      throw wrongField('destination.currency', 'currency belongs to UMA_ADDRESS destinations', 'destinationType');
    if (d.umaAddress !== undefined || d.lookupId !== undefined) {
      throw wrongField(
        'destination.umaAddress',
        'umaAddress and destination.lookupId belong to UMA_ADDRESS destinations',
        'destinationType',
      );
    }
    return {
      ...body,
      destination: {
        destinationType: 'ACCOUNT',
        accountId: d.accountId!,
        ...(d.paymentRail ? { paymentRail: d.paymentRail } : {}),
      },
    };
  }
  if (d.accountId !== undefined || d.paymentRail !== undefined) {
    throw wrongField(
      'destination.accountId',
      'accountId and paymentRail belong to ACCOUNT destinations',
      'destinationType',
    );
  }
  return {
    ...body,
    destination: {
      destinationType: 'UMA_ADDRESS',
      umaAddress: d.umaAddress!,
      ...(d.lookupId ? { lookupId: d.lookupId } : {}),
      ...(d.currency ? { currency: d.currency } : {}),
    },
  };
}

@ApiTags('Quotes')
@Controller('quotes')
export class QuotesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: MoneyQueries,
  ) {}

  @Post()
  @Idempotent()
  @ApiDoc({
    summary: 'Create a quote',
    description: QUOTES_TEXT.create,
    responses: created('The quote', 'Quote'),
    errors: [404, 409, 422],
  })
  create(@Body() body: CreateQuoteDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    return this.commands.execute(new CreateQuoteCommand(toPlatformQuoteRequest(body), actor));
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
