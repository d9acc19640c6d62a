import type { RateDetails } from '../rates/rate-table.js';

/*
 * A quote as its creation records it: the types pricing builds and the quote decider keeps (re-exported by quote.ts).
 */

export type LockedCurrencySide = 'SENDING' | 'RECEIVING';
/**
 * How the source is funded: an internal balance (held on execute), an embedded wallet (signed execute), or externally
 * (paymentInstructions).
 */
export type QuoteFunding = 'INTERNAL' | 'EMBEDDED_WALLET' | 'EXTERNAL';

export type QuoteDestination =
  | { destinationType: 'ACCOUNT'; accountId: string; paymentRail: string }
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string; lookupId: string; paymentRail: string; currency?: string };

/**
 * Where the money comes from. REALTIME_FUNDING: the customer pays `currency` by paymentInstructions; such a
 * source has no account (`accountId` is empty and never shown).
 */
export interface QuoteRecordSource {
  sourceType: 'ACCOUNT' | 'REALTIME_FUNDING';
  accountId: string;
  customerId: string;
  currency?: string;
  cryptoNetwork?: string;
}

export interface QuoteRecord {
  id: string;
  platformId: string;
  createdAt: string;
  expiresAt: string;
  source: QuoteRecordSource;
  funding: QuoteFunding;
  destination: QuoteDestination;
  sendingCurrency: string;
  receivingCurrency: string;
  totalSendingAmount: string;
  totalReceivingAmount: string;
  feesIncluded: string;
  exchangeRate: number;
  rateDetails: RateDetails;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: string;
  transactionId: string;
  paymentInstructions?: Record<string, unknown>[];
  counterpartyInformation?: Record<string, string>;
  senderCustomerInfo?: Record<string, string>;
  description?: string;
  purposeOfPayment?: string;
  agentId?: string;
}
