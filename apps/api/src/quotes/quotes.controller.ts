import { Body, Controller, Headers, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { CreateQuoteCommand, ExecuteQuoteCommand } from '#application/quotes/quote-commands.js';
import { quoteRequestOf } from '#application/quotes/quote-builder.js';
import type { Actor } from '#application/tokens.js';
import { MoneyQueries } from '#application/transactions/money-queries.js';
import { ApiDoc, ApiResource, created, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { Idempotent, IdempotentAction } from '../http/idempotency.interceptor.js';
import { CreateQuoteDto, ListQuotesQuery } from './quote.dto.js';

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
    description:
      'Locks the exchange rate and fees until expiresAt (5 minutes on instant rails, 15 on others, ' +
      '2 on Lightning/Spark/stablecoin rails). ' +
      'Source: a customer’s internal account (held on execute), an EMBEDDED_WALLET (execute needs a ' +
      'Service-Wallet-Signature over paymentInstructions[0].accountOrWalletInfo.payloadToSign) ' +
      'or a customer’s external account (funded by paying paymentInstructions; sandbox: POST ' +
      '/sandbox/send). REALTIME_FUNDING {customerId?, currency, cryptoNetwork?}: the customer pays `currency` ' +
      'by paymentInstructions and the payment starts when the funds arrive (sandbox: POST /sandbox/send; ' +
      'immediatelyExecute changes nothing); without customerId the destination account’s owner pays. ' +
      'Destination: an internal or external account, or a UMA address with the lookupId of ' +
      'GET /receiver/uma/{receiverUmaAddress} and optionally `currency`, one of the lookup’s supportedCurrencies ' +
      '(default: the first); fields named by the lookup’s requiredPayerDataFields ' +
      'must be in senderCustomerInfo. Receiving amounts round down; a RECEIVING-locked quote ' +
      'rounds the sending amount up. Both currencies must be among the platform’s supportedCurrencies ' +
      '(GET /config): 400 INVALID_CURRENCY otherwise, nothing recorded. ' +
      'Sandbox external-account destinations select the outcome by their last three digits: 002 ' +
      'execution fails, 003 completes after about 6 minutes, 004 delivery fails, 005 completes ' +
      'then is returned (FAILED, refunded), ' +
      '006 user cancellation (REFUNDED), 007 payout and refund fail (FAILED, money not returned), other success.',
    responses: created('The quote', 'Quote'),
    errors: [404, 409, 422],
  })
  create(@Body() body: CreateQuoteDto, @CurrentActor() actor: Actor): Promise<Record<string, unknown>> {
    return this.commands.execute(new CreateQuoteCommand(quoteRequestOf(body), actor));
  }

  @GetPage('', 'List quotes', 'quotes', 'Quote', { description: 'Newest first unless sortOrder=asc.' })
  list(@Query() query: ListQuotesQuery, @CurrentActor() actor: Actor) {
    return this.queries.listQuotes(actor.platformId, query);
  }

  @GetOne(':quoteId', 'Get a quote', ok('The quote', 'Quote'))
  get(@IdParam('Quote', 'quoteId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.quote(actor.platformId, id);
  }

  @IdempotentAction(':quoteId/execute')
  @ApiResource('Execute a quote', ok('The quote, PROCESSING or in its final status', 'Quote'), {
    description:
      'Holds the source amount and starts the payment. A quote past expiresAt cannot execute: it ' +
      'becomes EXPIRED (transaction EXPIRED, failureReason QUOTE_EXPIRED), nothing moves, and the ' +
      'answer is 409 QUOTE_EXPIRED. ' +
      'Insufficient funds answer 400 INSUFFICIENT_FUNDS and leave the quote PENDING, as does 400 ' +
      'AMOUNT_OUT_OF_RANGE when completing the payment would take a balance past 2^53-1. An ' +
      'EMBEDDED_WALLET source needs Service-Wallet-Signature (401 WALLET_SIGNATURE_MISSING without it).',
    headers: [
      {
        name: 'Service-Wallet-Signature',
        description:
          'EMBEDDED_WALLET sources: the stamp over paymentInstructions[].accountOrWalletInfo.payloadToSign made with ' +
          'a session key of the wallet. Ignored for other sources.',
      },
      {
        name: 'Request-Id',
        description: 'Optional; when sent it must be the requestId bound into that payloadToSign.',
      },
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
