import { createHash } from 'node:crypto';
import { depositNetwork, depositWallet } from '../../crypto/deposit-networks.js';
import { DomainError, invalid } from '../../errors.js';
import type { LookupRecord } from '../lookups/lookup.js';
import { CRYPTO_CURRENCIES, toAmount } from '../../primitives.js';
import {
  assertQuotable,
  priceByReceiving,
  priceBySending,
  rateDetails,
  toDisplayNumber,
  type Rail,
} from '../rates/rate-table.js';
import type { PaymentPlan } from '../transactions/payment-plan.js';
import { referenceFor, type TransactionDestination, type TransactionRecord } from '../transactions/transaction.js';
import { sandboxDepositAccount } from '../rails/deposit-accounts.js';
import { buildPayloadToSign, operationOf } from '../../wallet/signed-retry.js';
import type { LockedCurrencySide, QuoteDestination, QuoteFunding, QuoteRecord } from './quote-record.js';

/**
 * Pricing a quote, without I/O: the application gathers the facts (the source account, the destination with its
 * rail and lookup, fresh ids), then `priceQuote` checks the request against them and prices it on the rate table.
 */

export interface QuoteRequest {
  source: { sourceType: 'ACCOUNT'; accountId: string; customerId?: string };
  destination:
    | { destinationType: 'ACCOUNT'; accountId: string; paymentRail?: string }
    | { destinationType: 'UMA_ADDRESS'; umaAddress: string; lookupId?: string; currency?: string };
  lookupId?: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  immediatelyExecute?: boolean;
  senderCustomerInfo?: Record<string, string>;
  description?: string;
  purposeOfPayment?: string;
  agentId?: string;
}

/** The customer pays in `currency` by the quote's paymentInstructions, in real time. */
export interface RealtimeFundingSource {
  sourceType: 'REALTIME_FUNDING';
  currency: string;
  customerId?: string;
  cryptoNetwork?: string;
}

/** A platform's quote request: from an account, or funded in real time. */
export type PlatformQuoteRequest = Omit<QuoteRequest, 'source'> & {
  source: QuoteRequest['source'] | RealtimeFundingSource;
};

/** What the source turned out to be (loaded by the application); no account for real-time funding. */
interface SourceFields {
  customerId: string;
  platformCustomerId: string;
  currency: string;
}

/**
 * What funds a quote: an account of the customer (ACCOUNT, also when `sourceType` is absent), or realtime funding,
 * paid in from outside (in `cryptoNetwork` for a crypto currency).
 */
export type QuoteSource =
  | (SourceFields & { sourceType?: 'ACCOUNT'; accountId: string; cryptoNetwork?: string; funding: QuoteFunding })
  | (SourceFields & {
      sourceType: 'REALTIME_FUNDING';
      accountId?: undefined;
      cryptoNetwork?: string;
      funding: 'EXTERNAL';
    });

/** Where the money goes, with the rail and sandbox plan found for it (loaded by the application). */
export interface QuoteDestinationFacts {
  quote: QuoteDestination;
  transaction: TransactionDestination;
  rail: Rail;
  plan: PaymentPlan;
  lookup?: LookupRecord;
  counterpartyInformation?: Record<string, string>;
}

/** An account destination paid over `rail`: what the quote shows and what its transaction records. */
export function accountDestination(
  accountId: string,
  currency: string,
  rail: Rail,
  plan: PaymentPlan,
): QuoteDestinationFacts {
  return {
    quote: { destinationType: 'ACCOUNT', accountId, paymentRail: rail.name },
    transaction: { destinationType: 'ACCOUNT', accountId, currency, paymentRail: rail.name },
    rail,
    plan,
  };
}

/** Fresh ids for the quote and its transaction; `requestId` only for an embedded-wallet source. */
export interface QuoteIds {
  quoteId: string;
  transactionId: string;
  requestId?: string;
}

/** What the embedded wallet signs to execute the quote (Service-Wallet-Signature on POST /quotes/{id}/execute). */
export function embeddedWalletPayload(
  quoteId: string,
  accountId: string,
  requestId: string,
  expiresAt: string,
): string {
  return buildPayloadToSign({
    operation: operationOf('POST', `/quotes/${quoteId}/execute`),
    targetId: quoteId,
    accountId,
    requestId,
    expiresAt,
    body: {},
  });
}

/** Only a quote funded from an internal balance may execute at once. */
export function assertImmediateExecution(
  req: { immediatelyExecute?: boolean; source?: { sourceType: string } },
  funding: QuoteFunding,
): void {
  // Real-time funding executes as soon as the funds arrive: immediatelyExecute asks for nothing more.
  if (req.source?.sourceType === 'REALTIME_FUNDING') return;
  if (req.immediatelyExecute && funding !== 'INTERNAL') {
    throw invalid(
      'IMMEDIATE_EXECUTION_NOT_SUPPORTED',
      funding === 'EMBEDDED_WALLET'
        ? 'an EMBEDDED_WALLET source cannot execute immediately: create the quote, then execute ' +
            'it with a wallet signature'
        : 'an externally funded quote starts when its paymentInstructions are paid',
      'immediatelyExecute',
    );
  }
}

/** Every field the receiving side asked for (the lookup's requiredPayerDataFields) must be given. */
export function requirePayerData(lookup: LookupRecord | undefined, info: Record<string, string> | undefined): void {
  const missing = (lookup?.requiredPayerDataFields ?? []).filter((f) => !info?.[f]);
  if (missing.length > 0) {
    throw new DomainError(
      'invalid',
      'INVALID_INPUT',
      `senderCustomerInfo must include ${missing.join(', ')} (the receiver’s requiredPayerDataFields)`,
      {
        errors: missing.map((f) => ({
          field: `senderCustomerInfo.${f}`,
          constraint: 'requiredPayerDataField',
          message: `${f} is required by the receiver`,
        })),
      },
    );
  }
}

/**
 * How the source pays in: nothing for an internal balance, a payload to sign for an embedded wallet, else bank or
 * wallet details.
 */
export function paymentInstructions(
  source: QuoteSource,
  quoteId: string,
  reference: string,
  expiresAt: string,
  requestId: string | undefined,
): Record<string, unknown>[] | undefined {
  if (source.funding === 'INTERNAL') return undefined;
  if (source.funding === 'EMBEDDED_WALLET') {
    if (!requestId) throw new Error('a quote from an embedded wallet needs a request id to sign');
    const payloadToSign = embeddedWalletPayload(quoteId, source.accountId, requestId, expiresAt);
    return [
      {
        accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
        instructionsNotes:
          'Stamp payloadToSign with a session key of the wallet and send it as ' +
          'Service-Wallet-Signature on POST /quotes/{quoteId}/execute.',
        // The customer's own wallet signs; nothing is paid into another account.
        isPlatformAccount: false,
      },
    ];
  }
  // Deterministic sandbox settlement details, so the same quote always shows the same instructions.
  const digits = BigInt('0x' + createHash('sha256').update(quoteId).digest('hex').slice(0, 15))
    .toString()
    .padStart(12, '0')
    .slice(-12);
  const note =
    `Pay exactly the totalSendingAmount before expiresAt and include the reference ` +
    `${reference}. Sandbox: POST /sandbox/send.`;
  if (CRYPTO_CURRENCIES.has(source.currency)) {
    const network = depositNetwork(source.currency, source.cryptoNetwork);
    return [
      {
        accountOrWalletInfo: {
          ...depositWallet(source.currency, network, `${network.toLowerCase()}sandbox${digits}`),
          reference,
        },
        instructionsNotes: note,
        isPlatformAccount: true,
      },
    ];
  }
  return [
    {
      accountOrWalletInfo: sandboxDepositAccount(source.currency, digits, reference, true),
      instructionsNotes: note,
      // The payer pays into the platform's settlement account, which then funds the payment.
      isPlatformAccount: true,
    },
  ];
}

/** What a quote is priced from besides its request: the platform, the source and destination found, fresh ids. */
export interface QuoteFacts {
  platformId: string;
  source: QuoteSource;
  destination: QuoteDestinationFacts;
  ids: QuoteIds;
}

/** The request's optional fields a quote and its transaction both carry when given. */
const optionalFields = (req: PlatformQuoteRequest, destination: QuoteDestinationFacts) => ({
  ...(req.description !== undefined ? { description: req.description } : {}),
  ...(req.purposeOfPayment !== undefined ? { purposeOfPayment: req.purposeOfPayment } : {}),
  ...(destination.counterpartyInformation ? { counterpartyInformation: destination.counterpartyInformation } : {}),
  ...(req.agentId ? { agentId: req.agentId } : {}),
});

/** What a quote and its transaction share: the price, the times, the reference and the optional fields. */
interface PricedQuote {
  platformId: string;
  source: QuoteSource;
  destination: QuoteDestinationFacts;
  pricing: ReturnType<typeof priceBySending>;
  locked: bigint;
  quoteId: string;
  transactionId: string;
  reference: string;
  createdAt: string;
  expiresAt: string;
  details: ReturnType<typeof rateDetails>;
  exchangeRate: number;
  instructions: Record<string, unknown>[] | undefined;
  optional: ReturnType<typeof optionalFields>;
}

/** The quote and its transaction (not yet stored), priced on the rate table at `now`. */
export function priceQuote(
  req: PlatformQuoteRequest,
  facts: QuoteFacts,
  now: Date,
): { quote: QuoteRecord; transaction: TransactionRecord } {
  const { platformId, source, destination, ids } = facts;
  requirePayerData(destination.lookup, req.senderCustomerInfo);
  const locked = toAmount(req.lockedCurrencyAmount, 'lockedCurrencyAmount');
  if (locked <= 0n)
    throw invalid('INVALID_AMOUNT', 'lockedCurrencyAmount must be greater than zero', 'lockedCurrencyAmount');
  const to = destination.transaction.currency;
  const pricing =
    req.lockedCurrencySide === 'SENDING'
      ? priceBySending(source.currency, to, destination.rail, locked)
      : priceByReceiving(source.currency, to, destination.rail, locked);
  assertQuotable(pricing);

  const { quoteId, transactionId } = ids;
  const reference = referenceFor(transactionId);
  const expiresAt = new Date(now.getTime() + destination.rail.quoteWindowSeconds * 1000).toISOString();
  const priced: PricedQuote = {
    platformId,
    source,
    destination,
    pricing,
    locked,
    quoteId,
    transactionId,
    reference,
    createdAt: now.toISOString(),
    expiresAt,
    details: rateDetails(pricing),
    exchangeRate: toDisplayNumber(pricing.rate),
    instructions: paymentInstructions(source, quoteId, reference, expiresAt, ids.requestId),
    optional: optionalFields(req, destination),
  };
  const quote = quoteRecord(req, priced);
  return { quote, transaction: transactionRecord(quote, priced) };
}

function quoteRecord(req: PlatformQuoteRequest, p: PricedQuote): QuoteRecord {
  const { source, pricing, instructions } = p;
  return {
    id: p.quoteId,
    platformId: p.platformId,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
    source:
      source.sourceType === 'REALTIME_FUNDING'
        ? {
            sourceType: 'REALTIME_FUNDING',
            accountId: '',
            customerId: source.customerId,
            currency: source.currency,
            ...(source.cryptoNetwork ? { cryptoNetwork: source.cryptoNetwork } : {}),
          }
        : { sourceType: 'ACCOUNT', accountId: source.accountId, customerId: source.customerId },
    funding: source.funding,
    destination: p.destination.quote,
    sendingCurrency: source.currency,
    receivingCurrency: p.destination.transaction.currency,
    totalSendingAmount: pricing.sendingAmount.toString(),
    totalReceivingAmount: pricing.receivingAmount.toString(),
    feesIncluded: pricing.fees.toString(),
    exchangeRate: p.exchangeRate,
    rateDetails: p.details,
    lockedCurrencySide: req.lockedCurrencySide,
    lockedCurrencyAmount: p.locked.toString(),
    transactionId: p.transactionId,
    ...(instructions ? { paymentInstructions: instructions } : {}),
    ...(req.senderCustomerInfo ? { senderCustomerInfo: req.senderCustomerInfo } : {}),
    ...p.optional,
  };
}

function transactionRecord(quote: QuoteRecord, p: PricedQuote): TransactionRecord {
  const { source, instructions } = p;
  return {
    id: p.transactionId,
    platformId: p.platformId,
    type: 'OUTGOING',
    status: 'PENDING',
    source:
      source.sourceType === 'REALTIME_FUNDING'
        ? { sourceType: 'REALTIME_FUNDING', customerId: source.customerId, currency: source.currency }
        : { sourceType: 'ACCOUNT', accountId: source.accountId, currency: source.currency },
    destination: p.destination.transaction,
    customerId: source.customerId,
    platformCustomerId: source.platformCustomerId,
    sentAmount: quote.totalSendingAmount,
    receivedAmount: quote.totalReceivingAmount,
    fees: p.pricing.feesInReceivingCurrency.toString(),
    exchangeRate: p.exchangeRate,
    rateDetails: p.details,
    reference: p.reference,
    quoteId: p.quoteId,
    ...(instructions ? { paymentInstructions: instructions } : {}),
    plan: p.destination.plan,
    createdAt: p.createdAt,
    updatedAt: p.createdAt,
    ...p.optional,
  };
}
