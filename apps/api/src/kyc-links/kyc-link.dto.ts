import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsUrl, Matches, MaxLength, ValidateNested } from 'class-validator';
import { OptionalFilledText } from '../http/fields.js';
import { AddressDto, BusinessInfoDto } from '../customers/customer.dto.js';
import { COUNTRY, DATE } from '../http/formats.js';

export class CreateKycLinkDto {
  /** Where the page sends the customer once done (https, or http for local development). */
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false })
  @MaxLength(2000)
  redirectUri?: string;
}

/** What the hosted page submits: the fields a KYC or KYB verification needs. */
export class KycSubmissionDto {
  @OptionalFilledText(200) fullName?: string;
  @IsOptional() @Matches(DATE, { message: 'birthDate must be a date YYYY-MM-DD' }) birthDate?: string;
  @IsOptional() @Matches(COUNTRY, { message: 'nationality must be an ISO 3166-1 alpha-2 code' }) nationality?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => BusinessInfoDto) businessInfo?: BusinessInfoDto;
}
