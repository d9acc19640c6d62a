import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  BUSINESS_TYPES,
  ENTITY_TYPES,
  MONTHLY_TRANSACTION_COUNTS,
  MONTHLY_TRANSACTION_VOLUMES,
  PURPOSES_OF_ACCOUNT,
  type BusinessInfo,
} from '#domain/customers/business-info.js';
import { OptionalEmail, OptionalFilledText, OptionalText } from '../http/fields.js';
import { IsCurrencyCode } from '../http/currency-code.js';
import { COUNTRY, DATE, UMA_ADDRESS } from '../http/formats.js';
import { PageParams, ToBoolean } from '../http/list-params.js';
import { bodyErrors } from '../http/validation.js';

export class AddressDto {
  @OptionalText(200) line1?: string;
  @OptionalText(200) line2?: string;
  @OptionalText(100) city?: string;
  @OptionalText(100) state?: string;
  @OptionalText(20) postalCode?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
}

const countries = (field: string) => ({ each: true, message: `each ${field} must be an ISO 3166-1 alpha-2 code` });
const oneOf = (values: readonly string[]) =>
  IsIn(values as string[], { message: `$property must be one of ${values.join(', ')}` });

/** A business's information, as the public API names it; every field optional (on update: kept when omitted). */
export class BusinessInfoDto {
  @OptionalText(200) legalName?: string;
  @OptionalText(200) doingBusinessAs?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
  @OptionalText(100) registrationNumber?: string;
  @IsOptional() @Matches(DATE, { message: 'incorporatedOn must be a date YYYY-MM-DD' }) incorporatedOn?: string;
  @IsOptional() @oneOf(ENTITY_TYPES) entityType?: BusinessInfo['entityType'];
  @OptionalText(100) taxId?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @Matches(COUNTRY, countries('countriesOfOperation'))
  countriesOfOperation?: string[];
  @IsOptional() @oneOf(BUSINESS_TYPES) businessType?: BusinessInfo['businessType'];
  @IsOptional() @oneOf(PURPOSES_OF_ACCOUNT) purposeOfAccount?: BusinessInfo['purposeOfAccount'];
  @OptionalText(500) sourceOfFunds?: string;
  @IsOptional()
  @oneOf(MONTHLY_TRANSACTION_COUNTS)
  expectedMonthlyTransactionCount?: BusinessInfo['expectedMonthlyTransactionCount'];
  @IsOptional()
  @oneOf(MONTHLY_TRANSACTION_VOLUMES)
  expectedMonthlyTransactionVolume?: BusinessInfo['expectedMonthlyTransactionVolume'];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @Matches(COUNTRY, countries('expectedRecipientJurisdictions'))
  expectedRecipientJurisdictions?: string[];
}

const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED'] as const;
type DeclaredKycStatus = (typeof KYC_STATUSES)[number];

/** Fields shared by create and update. */
export class CustomerProfileDto {
  @IsOptional()
  @Matches(UMA_ADDRESS, { message: 'umaAddress must look like $name@domain.tld' })
  @MaxLength(200)
  umaAddress?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'region must be an ISO 3166-1 alpha-2 code' }) region?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsCurrencyCode('currency', true)
  currencies?: string[];
  @OptionalEmail(254) email?: string;
  @OptionalFilledText(200) fullName?: string;
  @IsOptional() @Matches(DATE, { message: 'birthDate must be a date YYYY-MM-DD' }) birthDate?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'nationality must be an ISO 3166-1 alpha-2 code' }) nationality?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => BusinessInfoDto) businessInfo?: BusinessInfoDto;
  /** Individuals: the platform's own KYC result (the sandbox rule decides when omitted). */
  @IsOptional() @oneOf(KYC_STATUSES) kycStatus?: DeclaredKycStatus;
  /** Businesses: the platform's own KYB result. */
  @IsOptional() @oneOf(KYC_STATUSES) kybStatus?: DeclaredKycStatus;
}

export class CreateCustomerDto extends CustomerProfileDto {
  /** Unique per platform (409 CONFLICT); the customer's own uuid when omitted. */
  @OptionalFilledText(200) platformCustomerId?: string;
  @IsIn(['INDIVIDUAL', 'BUSINESS']) customerType!: 'INDIVIDUAL' | 'BUSINESS';
}

/**
 * The checks of POST /customers on a body that arrives another way: each row of a bulk import is
 * validated by exactly these (libs/application's CustomerBodyValidator).
 */
export const validateCreateCustomer = (body: Record<string, unknown>) => bodyErrors(CreateCustomerDto, body);

export class UpdateCustomerDto extends CustomerProfileDto {
  /** The public API requires it; here optional, and it must be the customer's (a type never changes). */
  @IsOptional() @IsIn(['INDIVIDUAL', 'BUSINESS']) customerType?: 'INDIVIDUAL' | 'BUSINESS';
  /** Unique per platform, like on create: a taken one is 409 CONFLICT. */
  @OptionalFilledText(200) platformCustomerId?: string;
}

export class ListCustomersQuery extends PageParams {
  @OptionalText(200) platformCustomerId?: string;
  @IsOptional() @IsIn(['INDIVIDUAL', 'BUSINESS']) customerType?: 'INDIVIDUAL' | 'BUSINESS';
  @IsOptional() @IsISO8601({ strict: true }) createdAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) createdBefore?: string;
  @IsOptional() @IsISO8601({ strict: true }) updatedAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) updatedBefore?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'region must be an ISO 3166-1 alpha-2 code' }) region?: string;
  @IsOptional() @IsCurrencyCode('currency') currency?: string;
  @OptionalText(200) umaAddress?: string;
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'isIncludingDeleted must be true or false' })
  isIncludingDeleted?: boolean;
}

/** The read-model filters of a GET /customers query (the CLI's customers:list takes the same). */
