import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { listExchangeRates } from '#application/payments/rates/exchange-rates.js';
import { IsCurrencyCode } from '../../http/currency-code.js';
import { ApiDoc, ok } from '../../docs/api-doc.js';
import { MAX_LOCKED_AMOUNT } from '../quotes/quotes.controller.js';
import { PlatformClocks } from '#application/command-context.js';
import type { Actor } from '#application/tokens.js';
import { CurrentActor } from '../../http/auth.js';
import { EXCHANGE_RATES_TEXT } from '../../docs/descriptions/rates.js';

export class ExchangeRatesQuery {
  @IsOptional() @IsCurrencyCode('sourceCurrency') sourceCurrency?: string;
  /** Repeatable: `?destinationCurrency=EUR&destinationCurrency=INR`. */
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value), { toClassOnly: true })
  @IsArray()
  @ArrayMaxSize(20)
  @IsCurrencyCode('destinationCurrency', true)
  destinationCurrency?: string[];
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'sendingAmount must be an integer in the smallest unit' })
  @Min(0, { message: 'sendingAmount must be at least 0' })
  @Max(MAX_LOCKED_AMOUNT, { message: 'sendingAmount must be at most 9000000000000000' })
  sendingAmount?: number;
}

@ApiTags('ExchangeRates')
@Controller('exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly clocks: PlatformClocks) {}

  @Get()
  @ApiDoc({
    summary: 'List exchange rates',
    description: EXCHANGE_RATES_TEXT.list,
    responses: ok('The rates', 'ExchangeRateList'),
  })
  async list(@Query() query: ExchangeRatesQuery, @CurrentActor() actor: Actor) {
    const data = listExchangeRates(
      {
        sourceCurrency: query.sourceCurrency,
        destinationCurrency: query.destinationCurrency,
        sendingAmount: BigInt(query.sendingAmount ?? 10_000),
      },
      await this.clocks.now(actor.platformId),
    );
    return { data };
  }
}
