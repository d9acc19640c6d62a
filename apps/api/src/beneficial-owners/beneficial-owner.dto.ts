import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  Matches,
  ValidateNested,
} from 'class-validator';
import {
  BENEFICIAL_OWNER_ROLES,
  IDENTIFICATION_TYPES,
  type BeneficialOwnerRole,
  type IdentificationType,
} from '#domain/beneficial-owners/beneficial-owner.js';
import { FilledText, IntRange, OptionalEmail, OptionalFilledText, OptionalText } from '../http/fields.js';
import { COUNTRY, CUSTOMER_ID, DATE } from '../http/formats.js';
import { PageParams } from '../http/list-params.js';

/** E.164: a plus, then up to 15 digits. */
const E164 = /^\+[1-9]\d{1,14}$/;
const customerIdMessage = { message: 'customerId must have the form Customer:<uuid>' };
const roleMessage = { each: true, message: `each role must be one of ${BENEFICIAL_OWNER_ROLES.join(', ')}` };
const percentMessage = { message: 'ownershipPercentage must be an integer from 0 to 100' };
const country = (field: string) => ({ message: `${field} must be an ISO 3166-1 alpha-2 code` });

/** An owner's address: line1, postalCode and country are required, as in the public API. */
export class BeneficialOwnerAddressDto {
  @FilledText(200) line1!: string;
  @OptionalText(200) line2?: string;
  @OptionalText(100) city?: string;
  @OptionalText(100) state?: string;
  @FilledText(20) postalCode!: string;
  @Matches(COUNTRY, country('country')) country!: string;
}

export class BeneficialOwnerPersonalInfoDto {
  @FilledText(100) firstName!: string;
  @OptionalText(100) middleName?: string;
  @FilledText(100) lastName!: string;
  @Matches(DATE, { message: 'birthDate must be a date YYYY-MM-DD' }) birthDate!: string;
  @Matches(COUNTRY, country('nationality')) nationality!: string;
  @OptionalEmail(254) email?: string;
  @IsOptional()
  @Matches(E164, { message: 'phoneNumber must be in E.164 format, e.g. +14155550192' })
  phoneNumber?: string;
  @IsObject() @ValidateNested() @Type(() => BeneficialOwnerAddressDto) address!: BeneficialOwnerAddressDto;
  @IsIn(IDENTIFICATION_TYPES, { message: `idType must be one of ${IDENTIFICATION_TYPES.join(', ')}` })
  idType!: IdentificationType;
  @FilledText(100) identifier!: string;
  @IsOptional() @Matches(COUNTRY, country('countryOfIssuance')) countryOfIssuance?: string;
}

/** Personal information field by field; only the fields given change (an address as a whole). */
export class BeneficialOwnerPersonalInfoUpdateDto {
  @OptionalFilledText(100) firstName?: string;
  @OptionalText(100) middleName?: string;
  @OptionalFilledText(100) lastName?: string;
  @IsOptional() @Matches(DATE, { message: 'birthDate must be a date YYYY-MM-DD' }) birthDate?: string;
  @IsOptional() @Matches(COUNTRY, country('nationality')) nationality?: string;
  @OptionalEmail(254) email?: string;
  @IsOptional()
  @Matches(E164, { message: 'phoneNumber must be in E.164 format, e.g. +14155550192' })
  phoneNumber?: string;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficialOwnerAddressDto)
  address?: BeneficialOwnerAddressDto;
  @IsOptional()
  @IsIn(IDENTIFICATION_TYPES, { message: `idType must be one of ${IDENTIFICATION_TYPES.join(', ')}` })
  idType?: IdentificationType;
  @OptionalFilledText(100) identifier?: string;
  @IsOptional() @Matches(COUNTRY, country('countryOfIssuance')) countryOfIssuance?: string;
}

export class CreateBeneficialOwnerDto {
  @Matches(CUSTOMER_ID, customerIdMessage) customerId!: string;
  @IsArray()
  @ArrayMaxSize(BENEFICIAL_OWNER_ROLES.length)
  @ArrayUnique()
  @IsIn(BENEFICIAL_OWNER_ROLES, roleMessage)
  roles!: BeneficialOwnerRole[];
  @IntRange(0, 100, percentMessage) ownershipPercentage!: number;
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficialOwnerPersonalInfoDto)
  personalInfo!: BeneficialOwnerPersonalInfoDto;
}

export class UpdateBeneficialOwnerDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BENEFICIAL_OWNER_ROLES.length)
  @ArrayUnique()
  @IsIn(BENEFICIAL_OWNER_ROLES, roleMessage)
  roles?: BeneficialOwnerRole[];
  @IsOptional() @IntRange(0, 100, percentMessage) ownershipPercentage?: number;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficialOwnerPersonalInfoUpdateDto)
  personalInfo?: BeneficialOwnerPersonalInfoUpdateDto;
}

export class ListBeneficialOwnersQuery extends PageParams {
  @Matches(CUSTOMER_ID, customerIdMessage) customerId!: string;
}
