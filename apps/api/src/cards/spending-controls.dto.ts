import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsISO8601, IsObject, Matches, ValidateNested } from 'class-validator';
import { MAX_SPENDING_LIMIT, MAX_SPENDING_LIST, type SpendingControls } from '#domain/cards/card-spending.js';
import { IntRange, Stack } from '../http/fields.js';
import { COUNTRY } from '../http/formats.js';
import { Nullable } from '../http/validation.js';

const limit = () =>
  Stack(
    Nullable('integer'),
    IntRange(1, MAX_SPENDING_LIMIT, {
      message: `a limit is an integer from 1 to ${MAX_SPENDING_LIMIT} in the smallest unit of the card's currency`,
    }),
  );
const codes = (pattern: RegExp, message: string) =>
  Stack(
    Nullable('array'),
    IsArray(),
    ArrayMinSize(1, { message: 'a list holds at least one code (null removes it)' }),
    ArrayMaxSize(MAX_SPENDING_LIST),
    Matches(pattern, { each: true, message }),
  );
const MCC = /^\d{4}$/;
const mccMessage = 'each merchant category is a four-digit code';

/**
 * Spending controls (Stripe Issuing's spending_controls, Lithic's auth rules): limits in the smallest unit of the
 * card's currency, merchant categories as four-digit MCCs, countries as ISO 3166-1 alpha-2. Null or absent: no rule.
 */
export class SpendingControlsDto {
  /** The most one authorization may ask. */
  @limit() perAuthorizationLimit?: number | null;
  /** The most the card's approved authorizations may add up to in a UTC day of the platform's clock. */
  @limit() dailyLimit?: number | null;
  /** The same in a UTC month. */
  @limit() monthlyLimit?: number | null;
  /** Only these merchant categories are approved (not with blockedMerchantCategories). */
  @codes(MCC, mccMessage) allowedMerchantCategories?: string[] | null;
  /** These merchant categories are declined (not with allowedMerchantCategories). */
  @codes(MCC, mccMessage) blockedMerchantCategories?: string[] | null;
  /** Only merchants in these countries are approved. */
  @codes(COUNTRY, 'each country is an ISO 3166-1 alpha-2 code') allowedMerchantCountries?: string[] | null;
}

/** A nullable SpendingControls field of a request body: null removes the controls. */
export const NullableSpendingControls = () =>
  Stack(
    Nullable('object'),
    IsObject(),
    ValidateNested(),
    Type(() => SpendingControlsDto),
  );

/** Controls as a plain object (the DTO instance's fields), null kept. */
export const plainControls = (dto: SpendingControlsDto | null | undefined): SpendingControls | null =>
  dto === null || dto === undefined ? null : (JSON.parse(JSON.stringify(dto)) as SpendingControls);

/** POST /cards/{id}/spending-controls/backtest: a draft of the card's controls and the period to replay. */
export class SpendingControlsBacktestDto {
  /** The draft (null: no controls at all). */
  @NullableSpendingControls() spendingControls!: SpendingControlsDto | null;
  /** Start of the period (inclusive), ISO 8601. */
  @IsISO8601({ strict: true }) from!: string;
  /** End of the period (exclusive), ISO 8601; at most 366 days after from. */
  @IsISO8601({ strict: true }) to!: string;
}
