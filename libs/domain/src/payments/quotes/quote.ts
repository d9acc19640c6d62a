import type { Decider } from '../../decider.js';
import { DomainError, conflict } from '../../errors.js';
import { compact, currency, toJsonNumber } from '../../primitives.js';
import {
  decideLifecycle,
  evolveTransaction,
  type LifecycleCommand,
  type TransactionEvent,
  type TransactionRecord,
  type TransactionStatus,
} from '../transactions/transaction.js';
import { priceQuote, type PlatformQuoteRequest, type QuoteFacts, type QuoteRequest } from './price-quote.js';
import type { QuoteRecord } from './quote-record.js';
export type * from './quote-record.js';

/**
 * A quote locks a rate and fees until `expiresAt`. Its stream (`quote-<uuid>`) also carries the
 * lifecycle of the transaction created with it, so a quote and its transaction can never
 * disagree: the quote's status is derived from the transaction's.
 */
export type QuoteStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';
export const PURPOSES_OF_PAYMENT = [
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'OTHER',
] as const;

export interface QuoteState {
  quote?: QuoteRecord;
  transaction?: TransactionRecord;
}

export type QuoteEvent = { type: 'QuoteCreated'; data: { platformId: string; quote: QuoteRecord } } | TransactionEvent;

/**
 * `CreateQuote`: the request and the facts the application found for it (source, destination with its rail and
 * sandbox plan, ids); the decider prices the quote on the rate table at `now`.
 */
export type QuoteCommand =
  { type: 'CreateQuote'; request: PlatformQuoteRequest; facts: QuoteFacts; now: string } | LifecycleCommand;

export function quoteStatusOf(status: TransactionStatus): QuoteStatus {
  switch (status) {
    case 'CREATED':
    case 'PENDING':
      return 'PENDING';
    case 'PROCESSING':
    case 'COMPLETED':
    case 'EXPIRED':
      return status;
    case 'FAILED':
    case 'REJECTED':
    case 'REFUNDED':
      return 'FAILED';
  }
}

export const isQuoteExpired = (quote: QuoteRecord, now: Date) => now.getTime() >= Date.parse(quote.expiresAt);

export const quoteDecider: Decider<QuoteState, QuoteCommand, QuoteEvent> = {
  initialState: () => ({}),
  decide(cmd, state) {
    if (cmd.type === 'CreateQuote') {
      if (state.quote) throw conflict('QUOTE_EXISTS', `quote ${cmd.facts.ids.quoteId} already exists`);
      const { quote, transaction } = priceQuote(cmd.request, cmd.facts, new Date(cmd.now));
      return [
        { type: 'QuoteCreated', data: { platformId: quote.platformId, quote } },
        { type: 'TransactionCreated', data: { platformId: quote.platformId, transaction } },
      ];
    }
    return decideLifecycle(state.transaction, cmd);
  },
  evolve(state, event) {
    if (event.type === 'QuoteCreated') return { ...state, quote: event.data.quote };
    return { ...state, transaction: evolveTransaction(state.transaction, event) };
  },
};

/** The Quote resource. */
export function toQuoteResource(quote: QuoteRecord, status: TransactionStatus): Record<string, unknown> {
  return compact({
    id: quote.id,
    status: quoteStatusOf(status),
    createdAt: quote.createdAt,
    expiresAt: quote.expiresAt,
    // A real-time funded source has no account: its empty accountId is not shown.
    source:
      quote.source?.sourceType === 'REALTIME_FUNDING'
        ? compact({ ...quote.source, accountId: undefined })
        : { ...quote.source },
    destination: { ...quote.destination },
    sendingCurrency: currency(quote.sendingCurrency),
    receivingCurrency: currency(quote.receivingCurrency),
    totalSendingAmount: toJsonNumber(BigInt(quote.totalSendingAmount)),
    totalReceivingAmount: toJsonNumber(BigInt(quote.totalReceivingAmount)),
    exchangeRate: quote.exchangeRate,
    feesIncluded: toJsonNumber(BigInt(quote.feesIncluded)),
    lockedCurrencySide: quote.lockedCurrencySide,
    lockedCurrencyAmount: toJsonNumber(BigInt(quote.lockedCurrencyAmount)),
    transactionId: quote.transactionId,
    paymentInstructions: quote.paymentInstructions,
    counterpartyInformation: quote.counterpartyInformation,
    rateDetails: quote.rateDetails,
    description: quote.description,
    purposeOfPayment: quote.purposeOfPayment,
    agentId: quote.agentId,
  });
}

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
