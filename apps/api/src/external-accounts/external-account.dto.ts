import { IsBoolean, IsObject, IsOptional, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CURRENCY_CODE_PATTERN, CURRENCY_CODE_TEXT } from '#domain/money.js';
import { OptionalFilledText } from '../http/fields.js';
import { PageParams } from '../http/list-params.js';
import { CUSTOMER_ID } from '../http/formats.js';

const customerIdMessage = { message: 'customerId must have the form Customer:<uuid>' };
const currencyMessage = { message: `currency must be ${CURRENCY_CODE_TEXT}` };

/** The platform's own external account: no customerId. */
export class CreatePlatformExternalAccountDto {
  @Matches(CURRENCY_CODE_PATTERN, currencyMessage) currency!: string;
  @OptionalFilledText(200) platformAccountId?: string;
  @IsOptional() @IsBoolean() defaultUmaDepositAccount?: boolean;
  // Per-type fields are checked against the account type table (accountInfo.<field> errors).
  @IsObject({ message: 'accountInfo must be an object with accountType and the fields of that type' })
  @JSONSchema({ $ref: '#/components/schemas/ExternalAccountCreateInfo' })
  accountInfo!: Record<string, unknown>;
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
