import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { COUNTERPARTY_FIELD_NAMES, TRANSACTION_TYPES } from '#domain/platforms/platform-config.js';
import { BANK_RAIL_TYPES } from '#domain/payments/rails/bank-rails.js';
import {
  DECISION_KINDS,
  MAX_DECISION_DEADLINE_MS,
  MIN_DECISION_DEADLINE_MS,
} from '#domain/webhooks/decision-endpoints.js';
import { IntRange, OptionalEmail, OptionalText } from '../http/fields.js';
import { IsCurrencyCode } from '../http/currency-code.js';
import { NullableSpendingControls, SpendingControlsDto } from '../cards/spending-controls.dto.js';

const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export class CounterpartyFieldDto {
  @IsIn(COUNTERPARTY_FIELD_NAMES as unknown as string[]) name!: (typeof COUNTERPARTY_FIELD_NAMES)[number];
  @IsBoolean() mandatory!: boolean;
}

/** One currency the platform offers, with the public API's fields (all required). */
export class PlatformCurrencyConfigDto {
  @IsCurrencyCode('currencyCode') currencyCode!: string;
  @IntRange(0, Number.MAX_SAFE_INTEGER) minAmount!: number;
  @IntRange(0, Number.MAX_SAFE_INTEGER) maxAmount!: number;
  @IsArray()
  @ArrayMaxSize(COUNTERPARTY_FIELD_NAMES.length)
  @ValidateNested({ each: true })
  @Type(() => CounterpartyFieldDto)
  requiredCounterpartyFields!: CounterpartyFieldDto[];
  @IsArray()
  @ArrayMaxSize(2)
  @IsIn(TRANSACTION_TYPES as unknown as string[], { each: true })
  enabledTransactionTypes!: (typeof TRANSACTION_TYPES)[number][];
  /** Read-only (GET /config shows what the service's UMA counterparties require); taken back and ignored. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(COUNTERPARTY_FIELD_NAMES.length)
  @IsIn(COUNTERPARTY_FIELD_NAMES as unknown as string[], { each: true })
  providerRequiredCustomerFields?: string[];
  /** Read-only, as providerRequiredCustomerFields; taken back and ignored. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(COUNTERPARTY_FIELD_NAMES.length)
  @IsIn(COUNTERPARTY_FIELD_NAMES as unknown as string[], { each: true })
  providerRequiredCounterpartyCustomerFields?: string[];
}

/** The embedded wallet's OTP email settings; fields omitted are left as they are. */
export class EmbeddedWalletConfigDto {
  @OptionalText(255) appName?: string;
  @IsOptional() @IntRange(4, 12) otpLength?: number;
  @IsOptional() @IsBoolean() alphanumeric?: boolean;
  @IsOptional() @IntRange(1, 86400) expirationSeconds?: number;
  @OptionalEmail(255) sendFromEmailAddress?: string;
  @OptionalText(255) sendFromEmailSenderName?: string;
  @OptionalEmail(255) replyToEmailAddress?: string;
  @IsOptional() @IsUrl({ protocols: ['https', 'http'], require_protocol: true }) @MaxLength(512) logoUrl?: string;
}

/** The platform's own account at the bank: an IBAN (with BIC), or account and routing numbers. */
export class BankRailAccountDto {
  @IsString() @MaxLength(70) name!: string;
  @OptionalText(70) bankName?: string;
  @OptionalText(34) iban?: string;
  @OptionalText(11) bic?: string;
  @OptionalText(34) accountNumber?: string;
  @OptionalText(9) routingNumber?: string;
}

/** A production platform's bank rail for one currency (ISO 20022 files exchanged through folders). */
export class BankRailConfigDto {
  @IsCurrencyCode('currency') currency!: string;
  @IsIn(BANK_RAIL_TYPES as unknown as string[]) type!: (typeof BANK_RAIL_TYPES)[number];
  @IsObject()
  @ValidateNested()
  @Type(() => BankRailAccountDto)
  account!: BankRailAccountDto;
  @OptionalText(35) creditorSchemeId?: string;
}

/** Where the platform decides one kind of request, within a deadline, with a default when it does not answer. */
export class DecisionEndpointDto {
  @IsIn(DECISION_KINDS as unknown as string[]) type!: (typeof DECISION_KINDS)[number];
  /** https URL (http on sandbox platforms), on a public host unless allow-listed: as webhookEndpoint. */
  @IsString() @MaxLength(2048) url!: string;
  @IsOptional() @IntRange(MIN_DECISION_DEADLINE_MS, MAX_DECISION_DEADLINE_MS) deadlineMs?: number;
  /** Cards: APPROVE or DECLINE (default DECLINE); agent actions: APPROVE, REJECT or WAIT (default WAIT). */
  @IsOptional() @IsIn(['APPROVE', 'DECLINE', 'REJECT', 'WAIT']) defaultDecision?: string;
}

/** PATCH /config: every field optional; only those given change. */
export class UpdateConfigDto {
  /** https URL (http for loopback hosts and sandbox platforms); null turns webhooks off. */
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'webhookEndpoint must be a URL or null' })
  @MaxLength(2048)
  @JSONSchema({ type: ['string', 'null'] })
  webhookEndpoint?: string | null;
  @IsOptional()
  @MaxLength(253)
  @Matches(DOMAIN, { message: 'umaDomain must be a domain name such as example.com' })
  umaDomain?: string;
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => PlatformCurrencyConfigDto)
  supportedCurrencies?: PlatformCurrencyConfigDto[];
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EmbeddedWalletConfigDto)
  embeddedWalletConfig?: EmbeddedWalletConfigDto;
  /** Production platforms: the whole list of bank rails, one per currency ([] removes them all). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => BankRailConfigDto)
  rails?: BankRailConfigDto[];
  /** The spending controls of the platform's cards that have none of their own; null removes them. */
  @NullableSpendingControls() cardSpendingControls?: SpendingControlsDto | null;
  /** The whole list of decision endpoints, at most one per type ([] removes them all). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DECISION_KINDS.length)
  @ValidateNested({ each: true })
  @Type(() => DecisionEndpointDto)
  decisionEndpoints?: DecisionEndpointDto[];
}
