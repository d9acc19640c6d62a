import type { Filter } from '#read-models/read-model-store.js';
import type { ListRequest } from './list-query.js';

/**
 * What a list is asked for in the API's own terms (the query parameters, already validated at the edge); each
 * list's criteria become read-model filters here, so no controller builds a store query. Dates are inclusive
 * bounds; an absent criterion does not filter.
 */
export interface Paging {
  limit?: number;
  cursor?: string;
  sortOrder?: 'asc' | 'desc';
}

/** Inclusive bounds on when a resource was created and last updated. */
export interface TimestampBounds {
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

export interface CustomerCriteria extends Paging, TimestampBounds {
  platformCustomerId?: string;
  customerType?: string;
  region?: string;
  currency?: string;
  umaAddress?: string;
  isIncludingDeleted?: boolean;
}

export interface InternalAccountCriteria extends Paging {
  /** Customers' accounts or the platform's own. */
  owner: 'customer' | 'platform';
  customerId?: string;
  type?: string;
  currency?: string;
}

export interface TransactionCriteria extends Paging {
  customerId?: string;
  platformCustomerId?: string;
  /** Any of the transaction's account identifiers. */
  accountIdentifier?: string;
  /** The source's account id, or UMA address when it starts with `$`. */
  senderAccountIdentifier?: string;
  /** The destination's account id, or UMA address when it starts with `$`. */
  receiverAccountIdentifier?: string;
  status?: string;
  type?: string;
  reference?: string;
  startDate?: string;
  endDate?: string;
}

export interface QuoteCriteria extends Paging {
  status?: string;
  customerId?: string;
}

export interface DeliveryCriteria extends Paging {
  status?: string;
  type?: string;
}

export interface AgentCriteria extends Paging, TimestampBounds {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
}

export interface AgentActionCriteria extends Paging {
  agentId?: string;
  customerId?: string;
  status?: string;
  /** createdAt bounds. */
  startDate?: string;
  endDate?: string;
}

const iso = (value: string) => new Date(value).toISOString();

/** Collects filters: `eq` skips an absent value, `range` turns inclusive bounds into gte/lte. */
export class Filters {
  readonly list: Filter[] = [];
  eq(field: string, value: string | boolean | undefined): this {
    if (value !== undefined) this.list.push({ field, op: 'eq', value });
    return this;
  }
  exists(field: string, value: boolean): this {
    this.list.push({ field, op: 'exists', value });
    return this;
  }
  contains(field: string, value: string | undefined): this {
    if (value !== undefined) this.list.push({ field, op: 'contains', value });
    return this;
  }
  range(field: string, from?: string, to?: string): this {
    if (from) this.list.push({ field, op: 'gte', value: iso(from) });
    if (to) this.list.push({ field, op: 'lte', value: iso(to) });
    return this;
  }
  /** The createdAt and updatedAt bounds. */
  timestamps(bounds: TimestampBounds): this {
    this.range('createdAt', bounds.createdAfter, bounds.createdBefore);
    return this.range('updatedAt', bounds.updatedAfter, bounds.updatedBefore);
  }
  identifier(side: 'source' | 'destination', value: string | undefined): this {
    if (value === undefined) return this;
    return this.eq(value.startsWith('$') ? `${side}.umaAddress` : `${side}.accountId`, value);
  }
  /** The list request; `defaultOrder` is the order when the caller asked for none. */
  request(paging: Paging, defaultOrder?: 'asc' | 'desc'): ListRequest {
    const sortOrder = paging.sortOrder ?? defaultOrder;
    return { filters: this.list, limit: paging.limit, cursor: paging.cursor, sortOrder };
  }
}

export function customerList(c: CustomerCriteria): ListRequest {
  const f = new Filters()
    .eq('platformCustomerId', c.platformCustomerId)
    .eq('customerType', c.customerType)
    .timestamps(c)
    .eq('region', c.region)
    .contains('currencies', c.currency)
    .eq('umaAddress', c.umaAddress);
  if (!c.isIncludingDeleted) f.eq('isDeleted', false);
  return f.request(c);
}

export function internalAccountList(c: InternalAccountCriteria): ListRequest {
  return new Filters()
    .exists('customerId', c.owner === 'customer')
    .eq('customerId', c.customerId)
    .eq('type', c.type)
    .eq('currency', c.currency)
    .request(c);
}

export function transactionList(c: TransactionCriteria): ListRequest {
  return new Filters()
    .eq('customerId', c.customerId)
    .eq('platformCustomerId', c.platformCustomerId)
    .contains('accountIdentifiers', c.accountIdentifier)
    .identifier('source', c.senderAccountIdentifier)
    .identifier('destination', c.receiverAccountIdentifier)
    .eq('status', c.status)
    .eq('type', c.type)
    .eq('reconciliationInstructions.reference', c.reference)
    .range('createdAt', c.startDate, c.endDate)
    .request(c, 'desc');
}

export function quoteList(c: QuoteCriteria): ListRequest {
  return new Filters().eq('status', c.status).eq('customerId', c.customerId).request(c, 'desc');
}

export function deliveryList(c: DeliveryCriteria): ListRequest {
  return new Filters().eq('status', c.status).eq('type', c.type).request(c, 'desc');
}

export function agentList(c: AgentCriteria): ListRequest {
  return new Filters()
    .timestamps(c)
    .eq('customerId', c.customerId)
    .eq('isPaused', c.isPaused)
    .eq('isConnected', c.isConnected)
    .request(c);
}

export function agentActionList(c: AgentActionCriteria): ListRequest {
  return new Filters()
    .range('createdAt', c.startDate, c.endDate)
    .eq('agentId', c.agentId)
    .eq('customerId', c.customerId)
    .eq('status', c.status)
    .request(c, 'desc');
}

export interface ApiTokenCriteria extends Paging, TimestampBounds {
  name?: string;
}

export function apiTokenList(c: ApiTokenCriteria): ListRequest {
  return new Filters().eq('name', c.name).timestamps(c).request(c);
}
