import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsISO8601,
  IsPositive,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_FUNDING_SOURCES } from '#domain/cards/card-funding.js';
import { CARD_TRANSACTION_STATUSES, type CardTransactionStatus } from '#domain/cards/card-transaction.js';
import { IsCurrencyCode } from '../http/currency-code.js';
import { FilledText, IntRange, OptionalFilledText, OptionalText } from '../http/fields.js';
import { SortedPageParams } from '../http/list-params.js';
import { COUNTRY } from '../http/formats.js';
import { NullableSpendingControls, SpendingControlsDto } from './spending-controls.dto.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const idOf = (kind: string) => new RegExp(`^${kind}:${UUID}$`);
const CARD_STATES = ['PENDING_KYC', 'PENDING_ISSUE', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
const REQUESTED_STATES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;

const accountIds = () => (target: object, key: string) => {
  IsArray()(target, key);
  ArrayMinSize(1, { message: 'fundingSources must name at least one internal account' })(target, key);
  ArrayMaxSize(MAX_FUNDING_SOURCES, { message: `fundingSources has at most ${MAX_FUNDING_SOURCES} entries` })(
    target,
    key,
  );
  Matches(idOf('InternalAccount'), {
    each: true,
    message: 'each funding source must have the form InternalAccount:<uuid>',
  })(target, key);
};

export class CreateCardDto {
  @Matches(idOf('Customer'), { message: 'customerId must have the form Customer:<uuid>' }) customerId!: string;
  @OptionalFilledText(100) platformCardId?: string;
  @IsIn(['VIRTUAL'], { message: 'form must be VIRTUAL (the only form supported)' }) form!: 'VIRTUAL';
  @accountIds() fundingSources!: string[];
  /** The card's own spending controls (absent or null: the platform's cardSpendingControls apply). */
  @NullableSpendingControls() spendingControls?: SpendingControlsDto | null;
}

export class UpdateCardDto {
  @IsOptional() @IsIn(REQUESTED_STATES) state?: (typeof REQUESTED_STATES)[number];
  @IsOptional() @accountIds() fundingSources?: string[];
  /** Replaces the card's own spending controls as a whole; null removes them (the platform's default applies). */
  @NullableSpendingControls() spendingControls?: SpendingControlsDto | null;
}

export class ListCardsQuery extends SortedPageParams {
  @IsOptional()
  @Matches(idOf('Customer'), { message: 'customerId must have the form Customer:<uuid>' })
  customerId?: string;
  @IsOptional()
  @Matches(idOf('InternalAccount'), { message: 'accountId must have the form InternalAccount:<uuid>' })
  accountId?: string;
  @OptionalText(100) platformCardId?: string;
  @IsOptional() @IsIn(CARD_STATES) state?: (typeof CARD_STATES)[number];
}

export class MerchantDto {
  @FilledText(100) descriptor!: string;
  @IsOptional() @Matches(/^\d{4}$/, { message: 'mcc must be a four-digit merchant category code' }) mcc?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
}

const amount = (optional: boolean) => (target: object, key: string) => {
  if (optional) IsOptional()(target, key);
  IsInt({ message: `${key} must be an integer in the smallest unit` })(target, key);
  IsPositive({ message: `${key} must be greater than zero` })(target, key);
  Max(Number.MAX_SAFE_INTEGER, { message: `${key} must be at most 9007199254740991` })(target, key);
};

/** The public API's Currency object; only `code` selects the currency, the rest is accepted as given. */
export class CurrencyRefDto {
  @IsCurrencyCode('currency.code') code!: string;
  @OptionalText(100) name?: string;
  @OptionalText(20) symbol?: string;
  @IsOptional() @IntRange(0, 18) decimals?: number;
}

export class SimulateAuthorizationDto {
  @amount(false) amount!: number;
  @IsObject() @ValidateNested() @Type(() => CurrencyRefDto) currency!: CurrencyRefDto;
  @IsObject() @ValidateNested() @Type(() => MerchantDto) merchant!: MerchantDto;
}

const transactionId = () =>
  Matches(idOf('CardTransaction'), { message: 'cardTransactionId must have the form CardTransaction:<uuid>' });

export class SimulateClearingDto {
  @transactionId() cardTransactionId!: string;
  /**
   * Defaults to the authorized amount; less releases the rest, more is an over-authorization, 0 lets the
   * authorization expire with nothing cleared.
   */
  @IsOptional()
  @IsInt({ message: 'amount must be an integer in the smallest unit' })
  @Min(0, { message: 'amount must be zero or more' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'amount must be at most 9007199254740991' })
  amount?: number;
}

export class SimulateReturnDto {
  @transactionId() cardTransactionId!: string;
  /** Defaults to everything settled and not yet returned. */
  @amount(true) amount?: number;
}

export class ListCardTransactionsQuery extends SortedPageParams {
  @IsOptional() @IsIn(CARD_TRANSACTION_STATUSES) status?: CardTransactionStatus;
  @IsOptional() @IsISO8601({ strict: true }) createdAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) createdBefore?: string;
}
