import { createHash } from 'node:crypto';
import { DomainError, invalid, notFound } from '#domain/errors.js';
import { isPublicId, publicId, type IdGenerator } from '#domain/ids.js';
import type { LookupRecord } from '#domain/lookups/lookup.js';
import { CRYPTO_CURRENCIES, toAmount } from '#domain/money.js';
import type { LockedCurrencySide, QuoteDestination, QuoteFunding, QuoteRecord } from '#domain/quotes/quote.js';
import {
  INTERNAL_RAIL,
  UMA_RAIL,
  assertQuotable,
  networkRail,
  priceByReceiving,
  priceBySending,
  railsFor,
  rateDetails,
  toDisplayNumber,
  type Rail,
} from '#domain/rates/rate-table.js';
import { SUCCESS_PLAN, type PaymentPlan } from '#domain/transactions/payment-plan.js';
import { referenceFor, type TransactionDestination, type TransactionRecord } from '#domain/transactions/transaction.js';
import { quoteDestinationPlan, umaDestinationPlan } from '#domain/transfers/sandbox-outcomes.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { CommandRunner } from '../command-runner.js';
import { loadLiveLookup } from '../lookups/lookup-commands.js';
import {
  isSandboxPlatform,
  loadCustomerAccount,
  loadLiveExternalAccount,
  platformCustomerIdOf,
  requireActive,
  requireSameOwner,
} from '../transactions/accounts.js';
import { embeddedWalletPayload } from './embedded-wallet-authorization.js';

export interface QuoteRequest {
  source: { sourceType: 'ACCOUNT'; accountId: string; customerId?: string };
  destination:
    | { destinationType: 'ACCOUNT'; accountId: string; paymentRail?: string }
    | { destinationType: 'UMA_ADDRESS'; umaAddress: string; lookupId?: string };
  lookupId?: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  immediatelyExecute?: boolean;
  senderCustomerInfo?: Record<string, string>;
  description?: string;
  purposeOfPayment?: string;
  agentId?: string;
}

interface Source {
  accountId: string;
  customerId: string;
  platformCustomerId: string;
  currency: string;
  funding: QuoteFunding;
}

interface Destination {
  quote: QuoteDestination;
  transaction: TransactionDestination;
  rail: Rail;
  plan: PaymentPlan;
  lookup?: LookupRecord;
  counterpartyInformation?: Record<string, string>;
}

/** Resolves, checks and prices a quote request into the quote and its transaction (not yet stored). */
export class QuoteBuilder {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readModels: ReadModelStore,
    private readonly ids: IdGenerator,
  ) {}

  private async source(req: QuoteRequest, platformId: string): Promise<Source> {
    const { accountId, customerId } = req.source;
    let source: Source;
    if (isPublicId('ExternalAccount', accountId)) {
      const external = await loadLiveExternalAccount(this.runner, accountId, platformId);
      if (!external.customerId)
        throw invalid(
          'INVALID_INPUT',
          'a platform external account cannot fund a quote; use a customer’s account',
          'source.accountId',
        );
      source = {
        accountId,
        customerId: external.customerId,
        platformCustomerId: await platformCustomerIdOf(this.readModels, external.customerId),
        currency: external.currency,
        funding: 'EXTERNAL',
      };
    } else if (isPublicId('InternalAccount', accountId)) {
      const account = await loadCustomerAccount(
        this.runner,
        this.readModels,
        accountId,
        platformId,
        'source.accountId',
      );
      requireActive(account);
      source = { ...account, accountId, funding: account.type === 'EMBEDDED_WALLET' ? 'EMBEDDED_WALLET' : 'INTERNAL' };
    } else {
      throw notFound('INTERNAL_ACCOUNT', accountId);
    }
    if (customerId !== undefined && customerId !== source.customerId)
      throw invalid(
        'ACCOUNT_OWNER_MISMATCH',
        'the source account does not belong to this customer',
        'source.customerId',
      );
    return source;
  }

  private async destination(req: QuoteRequest, source: Source, platformId: string, now: Date): Promise<Destination> {
    const d = req.destination;
    const sandbox = await isSandboxPlatform(this.runner, platformId);
    if (d.destinationType === 'UMA_ADDRESS') {
      const lookupId = d.lookupId ?? req.lookupId;
      if (!lookupId)
        throw invalid(
          'LOOKUP_REQUIRED',
          'a UMA destination needs the lookupId of GET /receiver/uma/{receiverUmaAddress}',
          'lookupId',
        );
      if (d.lookupId && req.lookupId && d.lookupId !== req.lookupId)
        throw invalid('INVALID_INPUT', 'lookupId and destination.lookupId differ', 'lookupId');
      const lookup = await loadLiveLookup(this.runner, lookupId, platformId, now);
      if (lookup.kind !== 'UMA_ADDRESS' || lookup.receiverUmaAddress !== d.umaAddress)
        throw invalid('LOOKUP_MISMATCH', 'the lookup was made for another receiver', 'lookupId');
      const code = lookup.supportedCurrencies[0];
      return {
        quote: { destinationType: 'UMA_ADDRESS', umaAddress: d.umaAddress, lookupId, paymentRail: UMA_RAIL.name },
        transaction: {
          destinationType: 'UMA_ADDRESS',
          umaAddress: d.umaAddress,
          currency: code,
          paymentRail: UMA_RAIL.name,
        },
        rail: UMA_RAIL,
        plan: umaDestinationPlan(lookup.sandboxOutcome),
        lookup,
        counterpartyInformation: lookup.counterpartyInformation,
      };
    }
    if (d.accountId === source.accountId)
      throw invalid('SAME_ACCOUNT', 'source and destination must differ', 'destination.accountId');
    if (isPublicId('InternalAccount', d.accountId)) {
      const account = await loadCustomerAccount(
        this.runner,
        this.readModels,
        d.accountId,
        platformId,
        'destination.accountId',
      );
      requireActive(account);
      if (d.paymentRail !== undefined && d.paymentRail !== INTERNAL_RAIL.name) {
        throw invalid(
          'UNSUPPORTED_PAYMENT_RAIL',
          'payments between internal accounts use the INTERNAL rail',
          'destination.paymentRail',
        );
      }
      return {
        quote: { destinationType: 'ACCOUNT', accountId: d.accountId, paymentRail: INTERNAL_RAIL.name },
        transaction: {
          destinationType: 'ACCOUNT',
          accountId: d.accountId,
          currency: account.currency,
          paymentRail: INTERNAL_RAIL.name,
        },
        rail: INTERNAL_RAIL,
        plan: SUCCESS_PLAN,
      };
    }
    if (!isPublicId('ExternalAccount', d.accountId)) throw notFound('EXTERNAL_ACCOUNT', d.accountId);
    if (source.funding === 'EXTERNAL')
      throw invalid(
        'INVALID_INPUT',
        'a quote funded externally pays into an internal account or a UMA address',
        'destination.accountId',
      );
    const external = await loadLiveExternalAccount(this.runner, d.accountId, platformId);
    requireSameOwner(external, source.customerId, 'destination.accountId');
    let lookup: LookupRecord | undefined;
    if (req.lookupId) {
      lookup = await loadLiveLookup(this.runner, req.lookupId, platformId, now);
      if (lookup.kind !== 'EXTERNAL_ACCOUNT' || lookup.accountId !== d.accountId)
        throw invalid('LOOKUP_MISMATCH', 'the lookup was made for another receiver', 'lookupId');
    }
    const rail = networkRail(external.currency, d.paymentRail);
    const name = external.beneficiaryVerifiedData?.fullName ?? external.beneficiary?.fullName;
    return {
      quote: { destinationType: 'ACCOUNT', accountId: d.accountId, paymentRail: rail.name },
      transaction: {
        destinationType: 'ACCOUNT',
        accountId: d.accountId,
        currency: external.currency,
        paymentRail: rail.name,
      },
      rail,
      plan: quoteDestinationPlan(external.primaryIdentifier, sandbox),
      lookup,
      counterpartyInformation: name ? { FULL_NAME: name } : undefined,
    };
  }

  /** Every field the receiving side asked for (the lookup's requiredPayerDataFields) must be given. */
  private requirePayerData(lookup: LookupRecord | undefined, info: Record<string, string> | undefined): void {
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

  private paymentInstructions(
    source: Source,
    quoteId: string,
    reference: string,
    expiresAt: string,
  ): Record<string, unknown>[] | undefined {
    if (source.funding === 'INTERNAL') return undefined;
    if (source.funding === 'EMBEDDED_WALLET') {
      const payloadToSign = embeddedWalletPayload(
        quoteId,
        source.accountId,
        publicId('Request', this.ids.uuid()),
        expiresAt,
      );
      return [
        {
          accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign },
          instructionsNotes:
            'Stamp payloadToSign with a session key of the wallet and send it as ' +
            'Service-Wallet-Signature on POST /quotes/{quoteId}/execute.',
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
      return [
        {
          accountOrWalletInfo: {
            accountType: 'SPARK_WALLET',
            assetType: source.currency,
            address: `sp1sandbox${digits}`,
            reference,
          },
          instructionsNotes: note,
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
      },
    ];
  }

  async build(
    req: QuoteRequest,
    platformId: string,
    now: Date,
  ): Promise<{ quote: QuoteRecord; transaction: TransactionRecord }> {
    const source = await this.source(req, platformId);
    if (req.immediatelyExecute && source.funding !== 'INTERNAL') {
      throw invalid(
        'IMMEDIATE_EXECUTION_NOT_SUPPORTED',
        source.funding === 'EMBEDDED_WALLET'
          ? 'an EMBEDDED_WALLET source cannot execute immediately: create the quote, then execute ' +
              'it with a wallet signature'
          : 'an externally funded quote starts when its paymentInstructions are paid',
        'immediatelyExecute',
      );
    }
    const destination = await this.destination(req, source, platformId, now);
    this.requirePayerData(destination.lookup, req.senderCustomerInfo);
    const locked = toAmount(req.lockedCurrencyAmount, 'lockedCurrencyAmount');
    if (locked <= 0n)
      throw invalid('INVALID_AMOUNT', 'lockedCurrencyAmount must be greater than zero', 'lockedCurrencyAmount');
    const to = destination.transaction.currency;
    const pricing =
      req.lockedCurrencySide === 'SENDING'
        ? priceBySending(source.currency, to, destination.rail, locked)
        : priceByReceiving(source.currency, to, destination.rail, locked);
    assertQuotable(pricing);

    const quoteId = publicId('Quote', this.ids.uuid());
    const transactionId = publicId('Transaction', this.ids.uuid());
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
    const paymentInstructions = this.paymentInstructions(source, quoteId, reference, expiresAt);
    const quote: QuoteRecord = {
      id: quoteId,
      platformId,
      createdAt,
      expiresAt,
      source: { sourceType: 'ACCOUNT', accountId: source.accountId, customerId: source.customerId },
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
      ...(paymentInstructions ? { paymentInstructions } : {}),
      ...(req.senderCustomerInfo ? { senderCustomerInfo: req.senderCustomerInfo } : {}),
      ...optional,
    };
    const transaction: TransactionRecord = {
      id: transactionId,
      platformId,
      type: 'OUTGOING',
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: source.accountId, currency: source.currency },
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
      plan: destination.plan,
      createdAt,
      updatedAt: createdAt,
      ...optional,
    };
    return { quote, transaction };
  }
}
