import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, Matches, ValidateNested } from 'class-validator';
import { AGENT_ACTION_STATUSES } from '#domain/agents/agent-types.js';
import { IsCurrencyCode } from '../http/currency-code.js';
import { CreatePlatformExternalAccountDto } from '../external-accounts/external-account.dto.js';
import { CUSTOMER_ID } from '../http/formats.js';
import { PageParams } from '../http/list-params.js';
import { CreateQuoteDto, QuoteFundingSourceDto } from '../payments/quotes/quotes.controller.js';
import { TransactionFilters } from '../payments/transactions/transaction.dto.js';
import {
  CreateTransferInDto,
  CreateTransferOutDto,
  ExternalEndDto,
  InternalEndDto,
} from '../payments/transfers/transfers.controller.js';

/**
 * Request DTOs of the agent side (`/agents/me/*`, bearer auth). They are the single source of the
 * agent operations' input schemas: the OpenAPI document and agent tooling derive them from here.
 */

/**
 * A quote for the agent's customer, from one of its accounts or funded in real time by it (REALTIME_FUNDING, paid by
 * the quote's paymentInstructions); `source.customerId` is inferred. Needs CREATE_QUOTES.
 */
export class AgentCreateQuoteDto extends CreateQuoteDto {
  // Restated so the schema generator gives the agent DTO a schema of its own (inherited fields included).
  @IsDefined() @ValidateNested() @Type(() => QuoteFundingSourceDto) declare source: QuoteFundingSourceDto;
}

/**
 * From one of the customer's external accounts into one of its internal accounts (same currency). Needs
 * CREATE_TRANSFERS. `amount` is optional in the schema, as in the public API, but a pull needs it (400 INVALID_AMOUNT).
 */
export class AgentTransferInDto extends CreateTransferInDto {
  @IsDefined() @ValidateNested() @Type(() => ExternalEndDto) declare source: ExternalEndDto;
}

/**
 * From one of the customer's internal accounts to one of its external accounts (same currency). Needs CREATE_TRANSFERS.
 * Without `amount` the account's whole available balance is sent (and checked against the policy as that amount).
 */
export class AgentTransferOutDto extends CreateTransferOutDto {
  @IsDefined() @ValidateNested() @Type(() => InternalEndDto) declare source: InternalEndDto;
}

/**
 * An external account of the agent's customer; `customerId` is inferred (if given it must be that customer). Needs
 * MANAGE_EXTERNAL_ACCOUNTS.
 */
export class AgentCreateExternalAccountDto extends CreatePlatformExternalAccountDto {
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
}

export class AgentListActionsQuery extends PageParams {
  @IsOptional() @IsIn(AGENT_ACTION_STATUSES) status?: (typeof AGENT_ACTION_STATUSES)[number];
}

const ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;

export class AgentListInternalAccountsQuery extends PageParams {
  @IsOptional() @IsCurrencyCode('currency') currency?: string;
  @IsOptional() @IsIn(ACCOUNT_TYPES) type?: (typeof ACCOUNT_TYPES)[number];
}

export class AgentListExternalAccountsQuery extends PageParams {
  @IsOptional() @IsCurrencyCode('currency') currency?: string;
}

/** The customer is the agent's: a customer filter is not accepted. */
export class AgentListTransactionsQuery extends TransactionFilters {}
