import { DomainError } from '../../errors.js';
import type { PlatformQuoteRequest, QuoteRequest } from './price-quote.js';

/** A quote request as the API takes it in: the source's and the destination's fields of every type, not yet sorted. */
export interface QuoteRequestBody extends Omit<QuoteRequest, 'source' | 'destination'> {
  source: {
    sourceType: 'ACCOUNT' | 'REALTIME_FUNDING';
    accountId?: string;
    customerId?: string;
    currency?: string;
    cryptoNetwork?: string;
  };
  destination: {
    destinationType: 'ACCOUNT' | 'UMA_ADDRESS';
    accountId?: string;
    paymentRail?: string;
    umaAddress?: string;
    lookupId?: string;
    currency?: string;
  };
}

/** A field given that the chosen source or destination type does not take (`constraint`: the type's field). */
const wrongField = (field: string, message: string, constraint = 'sourceType') =>
  new DomainError('invalid', 'INVALID_INPUT', 'the request is not valid', { errors: [{ field, constraint, message }] });

/** The request as pricing takes it: a source and a destination carry only the fields of their type (400 otherwise). */
export function quoteRequestOf(body: QuoteRequestBody): PlatformQuoteRequest {
  const s = body.source;
  if (s.sourceType === 'ACCOUNT') {
    if (s.currency !== undefined || s.cryptoNetwork !== undefined)
      throw wrongField('source.currency', 'currency and cryptoNetwork belong to REALTIME_FUNDING sources');
    return accountQuoteRequest({
      ...body,
      source: { sourceType: 'ACCOUNT', accountId: s.accountId!, customerId: s.customerId },
    });
  }
  if (s.accountId !== undefined) throw wrongField('source.accountId', 'accountId belongs to ACCOUNT sources');
  const source = {
    sourceType: 'REALTIME_FUNDING' as const,
    currency: s.currency!,
    ...(s.customerId ? { customerId: s.customerId } : {}),
    ...(s.cryptoNetwork ? { cryptoNetwork: s.cryptoNetwork } : {}),
  };
  // The destination is checked first, as for an account source.
  const { destination, ...rest } = accountQuoteRequest({ ...body, source: { sourceType: 'ACCOUNT', accountId: '' } });
  return { ...rest, destination, source };
}

/** A request from an account; its destination carries only the fields of its type (400 otherwise). */
function accountQuoteRequest(
  body: Omit<QuoteRequestBody, 'source'> & { source: QuoteRequest['source'] },
): QuoteRequest {
  const d = body.destination;
  if (d.destinationType === 'ACCOUNT') {
    if (d.currency !== undefined)
      throw wrongField('destination.currency', 'currency belongs to UMA_ADDRESS destinations', 'destinationType');
    if (d.umaAddress !== undefined || d.lookupId !== undefined) {
      const message = 'umaAddress and destination.lookupId belong to UMA_ADDRESS destinations';
      throw wrongField('destination.umaAddress', message, 'destinationType');
    }
    const destination = { destinationType: 'ACCOUNT' as const, accountId: d.accountId! };
    return { ...body, destination: { ...destination, ...(d.paymentRail ? { paymentRail: d.paymentRail } : {}) } };
  }
  if (d.accountId !== undefined || d.paymentRail !== undefined) {
    const message = 'accountId and paymentRail belong to ACCOUNT destinations';
    throw wrongField('destination.accountId', message, 'destinationType');
  }
  return {
    ...body,
    destination: {
      destinationType: 'UMA_ADDRESS',
      umaAddress: d.umaAddress!,
      ...(d.lookupId ? { lookupId: d.lookupId } : {}),
      ...(d.currency ? { currency: d.currency } : {}),
    },
  };
}
