import { Body, Controller, Headers, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { CreateQuoteCommand, ExecuteQuoteCommand } from '#application/payments/quotes/quote-commands.js';
import { PURPOSES_OF_PAYMENT, quoteRequestOf } from '#domain/payments/quotes/quote.js';
import type { Actor } from '#application/tokens.js';
import { MoneyQueries } from '#application/payments/transactions/money-queries.js';
import { ApiResource, ok } from '../../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../../http/routes.js';
import { CurrentActor } from '../../http/auth.js';
import { IdParam } from '../../http/id-pipe.js';
import { IdempotentAction } from '../../http/retries.js';
import { QUOTES_TEXT } from '../../docs/descriptions/quotes.js';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { OptionalText } from '../../http/fields.js';
import { CUSTOMER_ID, UMA_ADDRESS } from '../../http/formats.js';
import { RequiredIf } from '../../http/validation.js';
import { SortedPageParams } from '../../http/list-params.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const ACCOUNT_ID = new RegExp(`^(InternalAccount|ExternalAccount):${UUID}$`);
export { CUSTOMER_ID, UMA_ADDRESS };
export const LOOKUP_ID = new RegExp(`^Lookup:${UUID}$`);
/** The spec's maximum for lockedCurrencyAmount. */
export const MAX_LOCKED_AMOUNT = 9_000_000_000_000_000;
export const QUOTE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;

/** A flat map of short strings (payer data such as FULL_NAME, BIRTH_DATE, NATIONALITY). */
export function IsStringMap(maxKeys = 20, maxLength = 500) {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: property,
      options: {
        message: `${property} must be an object of at most ${maxKeys} string values of at most ${maxLength} characters`,
      },
      validator: {
        validate(value: unknown, _args: ValidationArguments) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          return (
            entries.length <= maxKeys &&
            entries.every(([k, v]) => /^[A-Za-z0-9_]{1,64}$/.test(k) && typeof v === 'string' && v.length <= maxLength)
          );
        },
      },
    });
}

export class QuoteSourceDto {
  @IsIn(['ACCOUNT'], { message: 'sourceType must be ACCOUNT' }) sourceType!: 'ACCOUNT';
  @Matches(ACCOUNT_ID, { message: 'accountId must be an InternalAccount:<uuid> or ExternalAccount:<uuid>' })
  accountId!: string;
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
}

/**
 * The platform's quote source: `ACCOUNT` (a customer's internal or external account) or `REALTIME_FUNDING` (the
 * customer pays in `currency` by the quote's paymentInstructions; without customerId, the destination's owner).
 */
export class QuoteFundingSourceDto {
  @IsIn(['ACCOUNT', 'REALTIME_FUNDING']) sourceType!: 'ACCOUNT' | 'REALTIME_FUNDING';
  @RequiredIf((o: QuoteFundingSourceDto) => o.sourceType === 'ACCOUNT')
  @Matches(ACCOUNT_ID, { message: 'accountId must be an InternalAccount:<uuid> or ExternalAccount:<uuid>' })
  accountId?: string;
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
  /** REALTIME_FUNDING: the currency the customer pays in, e.g. USD or USDC. */
  @RequiredIf((o: QuoteFundingSourceDto) => o.sourceType === 'REALTIME_FUNDING')
  @IsString()
  @MaxLength(16)
  currency?: string;
  /** REALTIME_FUNDING in a stablecoin: the network the customer deposits on (SOLANA, ETHEREUM, BASE, ...). */
  @OptionalText(32) cryptoNetwork?: string;
}

/** `ACCOUNT` (internal or external account id) or `UMA_ADDRESS` (address plus the lookup made for it). */
export class QuoteDestinationDto {
  @IsIn(['ACCOUNT', 'UMA_ADDRESS']) destinationType!: 'ACCOUNT' | 'UMA_ADDRESS';
  @RequiredIf((o: QuoteDestinationDto) => o.destinationType === 'ACCOUNT')
  @Matches(ACCOUNT_ID, { message: 'accountId must be an InternalAccount:<uuid> or ExternalAccount:<uuid>' })
  accountId?: string;
  @IsOptional()
  @Matches(/^[A-Z_]{2,30}$/, { message: 'paymentRail must be a rail name such as RTP, SEPA_INSTANT or UPI' })
  paymentRail?: string;
  @RequiredIf((o: QuoteDestinationDto) => o.destinationType === 'UMA_ADDRESS')
  @MaxLength(255)
  @Matches(UMA_ADDRESS, { message: 'umaAddress must look like $name@domain' })
  umaAddress?: string;
  @IsOptional() @Matches(LOOKUP_ID, { message: 'lookupId must have the form Lookup:<uuid>' }) lookupId?: string;
  /** UMA_ADDRESS: the receiving currency, one of the lookup's supportedCurrencies (default: the first). */
  @OptionalText(16) currency?: string;
}

export class CreateQuoteDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => QuoteFundingSourceDto) source!: QuoteFundingSourceDto;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => QuoteDestinationDto) destination!: QuoteDestinationDto;
  /** Required for UMA destinations (also accepted as destination.lookupId). */
  @IsOptional() @Matches(LOOKUP_ID, { message: 'lookupId must have the form Lookup:<uuid>' }) lookupId?: string;
  @IsIn(['SENDING', 'RECEIVING']) lockedCurrencySide!: 'SENDING' | 'RECEIVING';
  @IsInt({ message: 'lockedCurrencyAmount must be an integer in the smallest unit' })
  @Min(1, { message: 'lockedCurrencyAmount must be greater than zero' })
  @Max(MAX_LOCKED_AMOUNT, { message: 'lockedCurrencyAmount must be at most 9000000000000000' })
  lockedCurrencyAmount!: number;
  @IsOptional() @IsBoolean() immediatelyExecute?: boolean;
  /**
   * Payer data the receiver asked for (the lookup's requiredPayerDataFields), e.g. FULL_NAME, BIRTH_DATE, NATIONALITY.
   */
  @IsOptional()
  @IsStringMap()
  // A function replaces the schema generated for the custom validator (which would reference a class "Object").
  @JSONSchema(() => ({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 500 },
    maxProperties: 20,
    description:
      'Payer data the receiver asked for (requiredPayerDataFields), e.g. FULL_NAME, BIRTH_DATE, NATIONALITY.',
  }))
  senderCustomerInfo?: Record<string, string>;
  @OptionalText(500) description?: string;
  @IsOptional() @IsIn(PURPOSES_OF_PAYMENT) purposeOfPayment?: (typeof PURPOSES_OF_PAYMENT)[number];
}

export class ListQuotesQuery extends SortedPageParams {
  @IsOptional() @IsIn(QUOTE_STATUSES) status?: (typeof QUOTE_STATUSES)[number];
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
}

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
