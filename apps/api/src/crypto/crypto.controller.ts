import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { WithdrawalFees } from '#application/crypto/withdrawal-fees.js';
import type { Actor } from '#application/tokens.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { CRYPTO_TEXT } from '../docs/descriptions/crypto.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export class EstimateWithdrawalFeeDto {
  /** The crypto internal account withdrawn from. */
  @Matches(new RegExp(`^InternalAccount:${UUID}$`), {
    message: 'internalAccountId must have the form InternalAccount:<uuid>',
  })
  internalAccountId!: string;
  /** The asset withdrawn, e.g. USDC or BTC: the account's currency. */
  @IsString() @MinLength(1) @MaxLength(16) currency!: string;
  /** SOLANA, ETHEREUM, BASE, POLYGON or SPARK for USDC; BITCOIN, LIGHTNING or SPARK for BTC. */
  @IsString() @MinLength(1) @MaxLength(32) cryptoNetwork!: string;
  /** In the smallest unit of the currency. */
  @IsInt({ message: 'amount must be an integer in the smallest unit' })
  @Min(1, { message: 'amount must be greater than zero' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'amount must be at most 9007199254740991' })
  amount!: number;
  /** The blockchain address (or invoice) the funds would go to. */
  @IsString() @MinLength(1) @MaxLength(1024) destinationAddress!: string;
}

/** Crypto withdrawals. */
@ApiTags('Crypto')
@Controller('crypto')
export class CryptoController {
  constructor(private readonly fees: WithdrawalFees) {}

  @Post('estimate-withdrawal-fee')
  @HttpCode(200)
  @ApiDoc({
    summary: 'Estimate a crypto withdrawal fee',
    description: CRYPTO_TEXT.estimate,
    responses: ok('The estimate', 'EstimateCryptoWithdrawalFeeResponse'),
    errors: [404],
  })
  estimate(@Body() body: EstimateWithdrawalFeeDto, @CurrentActor() actor: Actor) {
    return this.fees.estimate(actor.platformId, body);
  }
}
