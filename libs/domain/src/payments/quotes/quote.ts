import type { Decider } from '../../decider.js';
import { conflict } from '../../errors.js';
import { currency, toJsonNumber } from '../../money.js';
import {
  decideLifecycle,
  evolveTransaction,
  type LifecycleCommand,
  type TransactionEvent,
  type TransactionRecord,
  type TransactionStatus,
} from '../transactions/transaction.js';
import { compact } from '../../objects.js';
import { priceQuote, type PlatformQuoteRequest, type QuoteFacts } from './price-quote.js';
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
