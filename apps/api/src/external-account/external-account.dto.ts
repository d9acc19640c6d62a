import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CURRENCY_CODES } from '#domain/money.js';
import { PageParams } from '../http/list-params.js';
import { CUSTOMER_ID } from '../http/formats.js';

const customerIdMessage = { message: 'customerId must have the form Customer:<uuid>' };

export class BeneficiaryDto {
  @IsString() @IsNotEmpty() @MaxLength(200) fullName!: string;
}

/** The platform's own external account: no customerId. */
export class CreatePlatformExternalAccountDto {
  @IsIn(CURRENCY_CODES, { message: `currency must be one of ${CURRENCY_CODES.join(', ')}` }) currency!: string;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) platformAccountId?: string;
  @IsOptional() @IsBoolean() defaultUmaDepositAccount?: boolean;
  // Per-type fields are checked against the account type table (accountInfo.<field> errors).
  @IsObject({ message: 'accountInfo must be an object with accountType and the fields of that type' })
  @JSONSchema({ $ref: '#/components/schemas/AccountInfo' })
  accountInfo!: Record<string, unknown>;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => BeneficiaryDto) beneficiary?: BeneficiaryDto;
}

export class CreateCustomerExternalAccountDto extends CreatePlatformExternalAccountDto {
  @Matches(CUSTOMER_ID, customerIdMessage) customerId!: string;
}

export class ListPlatformExternalAccountsQuery extends PageParams {
  @IsOptional() @IsIn(CURRENCY_CODES) currency?: string;
}

export class ListCustomerExternalAccountsQuery extends ListPlatformExternalAccountsQuery {
  @IsOptional() @Matches(CUSTOMER_ID, customerIdMessage) customerId?: string;
}
