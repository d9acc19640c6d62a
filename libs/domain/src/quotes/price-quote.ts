import { createHash } from 'node:crypto';
import { depositNetwork, depositWallet } from '../crypto/deposit-networks.js';
import { DomainError, invalid } from '../errors.js';
import type { LookupRecord } from '../lookups/lookup.js';
import { CRYPTO_CURRENCIES, toAmount } from '../money.js';
import {
  assertQuotable,
  priceByReceiving,
  priceBySending,
  railsFor,
  rateDetails,
  toDisplayNumber,
  type Rail,
} from '../rates/rate-table.js';
import type { PaymentPlan } from '../transactions/payment-plan.js';
import { referenceFor, type TransactionDestination, type TransactionRecord } from '../transactions/transaction.js';
import { buildPayloadToSign, operationOf } from '../wallet/payload.js';
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

/** What the source turned out to be (loaded by the application); no account for real-time funding. */
export interface QuoteSource {
  /** ACCOUNT when absent. */
  sourceType?: 'ACCOUNT' | 'REALTIME_FUNDING';
  accountId?: string;
  cryptoNetwork?: string;
  customerId: string;
  platformCustomerId: string;
  currency: string;
  funding: QuoteFunding;
}

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
    const payloadToSign = embeddedWalletPayload(quoteId, source.accountId!, requestId, expiresAt);
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
      accountOrWalletInfo: {
        accountType: `${source.currency}_ACCOUNT`,
        paymentRails: railsFor(source.currency)
          .filter((r) => r.instant)
          .map((r) => r.name),
        accountNumber: digits,
        routingNumber: '021000021',
        bankName: 'Sandbox Settlement Bank',
        reference,
      },
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

/** The quote and its transaction (not yet stored), priced on the rate table at `now`. */
// eslint-disable-next-line max-lines-per-function -- 88 lines, to be split
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
  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + destination.rail.quoteWindowSeconds * 1000).toISOString();
  const details = rateDetails(pricing);
  const exchangeRate = toDisplayNumber(pricing.rate);
  const optional = {
    ...(req.description !== undefined ? { description: req.description } : {}),
    ...(req.purposeOfPayment !== undefined ? { purposeOfPayment: req.purposeOfPayment } : {}),
    ...(destination.counterpartyInformation ? { counterpartyInformation: destination.counterpartyInformation } : {}),
    ...(req.agentId ? { agentId: req.agentId } : {}),
  };
  const instructions = paymentInstructions(source, quoteId, reference, expiresAt, ids.requestId);
  const quote: QuoteRecord = {
    id: quoteId,
    platformId,
    createdAt,
    expiresAt,
    source:
      source.sourceType === 'REALTIME_FUNDING'
        ? {
            sourceType: 'REALTIME_FUNDING',
            accountId: '',
            customerId: source.customerId,
            currency: source.currency,
            ...(source.cryptoNetwork ? { cryptoNetwork: source.cryptoNetwork } : {}),
          }
        : { sourceType: 'ACCOUNT', accountId: source.accountId!, customerId: source.customerId },
    funding: source.funding,
    destination: destination.quote,
    sendingCurrency: source.currency,
    receivingCurrency: to,
    totalSendingAmount: pricing.sendingAmount.toString(),
    totalReceivingAmount: pricing.receivingAmount.toString(),
    feesIncluded: pricing.fees.toString(),
    exchangeRate,
    rateDetails: details,
    lockedCurrencySide: req.lockedCurrencySide,
    lockedCurrencyAmount: locked.toString(),
    transactionId,
    ...(instructions ? { paymentInstructions: instructions } : {}),
    ...(req.senderCustomerInfo ? { senderCustomerInfo: req.senderCustomerInfo } : {}),
    ...optional,
  };
  const transaction: TransactionRecord = {
    id: transactionId,
    platformId,
    type: 'OUTGOING',
    status: 'PENDING',
    source:
      source.sourceType === 'REALTIME_FUNDING'
        ? { sourceType: 'REALTIME_FUNDING', customerId: source.customerId, currency: source.currency }
        : { sourceType: 'ACCOUNT', accountId: source.accountId!, currency: source.currency },
    destination: destination.transaction,
    customerId: source.customerId,
    platformCustomerId: source.platformCustomerId,
    sentAmount: quote.totalSendingAmount,
    receivedAmount: quote.totalReceivingAmount,
    fees: pricing.feesInReceivingCurrency.toString(),
    exchangeRate,
    rateDetails: details,
    reference,
    quoteId,
    ...(instructions ? { paymentInstructions: instructions } : {}),
    plan: destination.plan,
    createdAt,
    updatedAt: createdAt,
    ...optional,
  };
  return { quote, transaction };
}
