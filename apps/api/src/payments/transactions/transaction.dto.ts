import { IsIn, IsISO8601, IsOptional, Matches } from 'class-validator';
import { TRANSACTION_STATUSES } from '#domain/payments/transactions/transaction.js';
import { OptionalText } from '../../http/fields.js';
import { CUSTOMER_ID } from '../../http/formats.js';
import { SortedPageParams } from '../../http/list-params.js';

/** The filters of a transaction list, the platform's and an agent's alike. Dates are inclusive. */
export class TransactionFilters extends SortedPageParams {
  /** An internal or external account id, or a UMA address, on either side of the transaction. */
  @OptionalText(255) accountIdentifier?: string;
  /** The source's account id, or its UMA address (starting with `$`). */
  @OptionalText(255) senderAccountIdentifier?: string;
  /** The destination's account id, or its UMA address (starting with `$`). */
  @OptionalText(255) receiverAccountIdentifier?: string;
  @IsOptional() @IsIn(TRANSACTION_STATUSES) status?: string;
  @IsOptional() @IsIn(['INCOMING', 'OUTGOING']) type?: 'INCOMING' | 'OUTGOING';
  /** reconciliationInstructions.reference */
  @OptionalText(100) reference?: string;
  /** createdAt at or after (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) startDate?: string;
  /** createdAt at or before (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) endDate?: string;
}

/** The platform's transaction list: its filters, and the customer by id or by the platform's own id. */
export class ListTransactionsQuery extends TransactionFilters {
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
  @OptionalText(200) platformCustomerId?: string;
}
