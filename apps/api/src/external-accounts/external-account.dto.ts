import { Type } from 'class-transformer';
import { IsBoolean, IsISO8601, IsObject, IsOptional, Matches, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CURRENCY_CODE_PATTERN, CURRENCY_CODE_TEXT } from '#domain/primitives.js';
import { OptionalFilledText } from '../http/fields.js';
import { PageParams } from '../http/list-params.js';
import { CUSTOMER_ID } from '../http/formats.js';

const customerIdMessage = { message: 'customerId must have the form Customer:<uuid>' };
const currencyMessage = { message: `currency must be ${CURRENCY_CODE_TEXT}` };

/** The holder's authorization to pull money by direct debit (production bank rails). */
export class DirectDebitMandateDto {
  @Matches(/^[A-Za-z0-9+?/:().,' -]{1,35}$/, {
    message: "mandateId must be 1 to 35 letters, digits, spaces or + ? / - : ( ) . , '",
  })
  mandateId!: string;
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'signedOn must be a date such as 2026-01-31' })
  @IsISO8601({ strict: true }, { message: 'signedOn must be a date such as 2026-01-31' })
  signedOn!: string;
}

/** The platform's own external account: no customerId. */
export class CreatePlatformExternalAccountDto {
  @Matches(CURRENCY_CODE_PATTERN, currencyMessage) currency!: string;
  @OptionalFilledText(200) platformAccountId?: string;
  @IsOptional() @IsBoolean() defaultUmaDepositAccount?: boolean;
  // Per-type fields are checked against the account type table (accountInfo.<field> errors).
  @IsObject({ message: 'accountInfo must be an object with accountType and the fields of that type' })
  @JSONSchema({ $ref: '#/components/schemas/ExternalAccountCreateInfo' })
  accountInfo!: Record<string, unknown>;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DirectDebitMandateDto)
  directDebitMandate?: DirectDebitMandateDto;
}

/** A customer's external account; without customerId, the platform's own. */
export class CreateCustomerExternalAccountDto extends CreatePlatformExternalAccountDto {
  @IsOptional() @Matches(CUSTOMER_ID, customerIdMessage) customerId?: string;
}

export class ListPlatformExternalAccountsQuery extends PageParams {
  @IsOptional() @Matches(CURRENCY_CODE_PATTERN, currencyMessage) currency?: string;
}

export class ListCustomerExternalAccountsQuery extends ListPlatformExternalAccountsQuery {
  @IsOptional() @Matches(CUSTOMER_ID, customerIdMessage) customerId?: string;
}
