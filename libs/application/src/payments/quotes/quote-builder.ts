import { DomainError, invalid, notFound } from '#domain/errors.js';
import {
  CRYPTO_CURRENCIES,
  currency as currencyOf,
  type IdGenerator,
  isPublicId,
  publicId,
  streams,
} from '#domain/primitives.js';
import { type LookupRecord, requireLookupSender, type SandboxUmaOutcome } from '#domain/payments/lookups/lookup.js';
import { INTERNAL_RAIL, networkRail, UMA_RAIL } from '#domain/payments/rates/rate-table.js';
import {
  LEDGER_PLAN,
  type PaymentPlan,
  quoteDestinationPlan,
  type RailPlan,
  transferPlan,
  umaDestinationPlan,
} from '#domain/payments/transactions/payment-plan.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import type { CommandRunner } from '../../command-runner.js';
import { effectId } from '../../idempotency/effect-ids.js';
import type { Actor } from '../../tokens.js';
import { loadLiveLookup } from '../lookups/lookup-commands.js';
import { isSandboxPlatform, requireSupportedCurrencies } from '../../platforms/platform-config.js';
import {
  loadCustomerAccount,
  loadLiveExternalAccount,
  platformCustomerIdOf,
  requireActive,
  requireSameOwner,
} from '../transactions/payment-accounts.js';
import {
  accountDestination,
  assertImmediateExecution,
  type PlatformQuoteRequest,
  type QuoteDestinationFacts,
  type QuoteFacts,
  type QuoteRequest,
  type QuoteSource,
  type RealtimeFundingSource,
} from '#domain/payments/quotes/price-quote.js';
import { depositNetwork } from '#domain/crypto/deposit-networks.js';
import { Collections } from '#read-models/projections/collections.js';
import { accountInfoView, beneficiaryName } from '#domain/external-accounts/account-info-view.js';
import type { ExistingExternalAccount } from '#domain/external-accounts/external-account.js';
import { counterpartyBankAccount, noRail, railFor } from '#domain/payments/rails/bank-rails.js';
import { platformDecider } from '#domain/platforms/platform.js';

export type { PlatformQuoteRequest, QuoteRequest };

/**
 * Resolves and checks a quote request into the facts the quote decider prices it from (the source, the destination
 * with its rail and sandbox plan, fresh ids).
 */
export class QuoteBuilder {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readModels: ReadModelStore,
    private readonly ids: IdGenerator,
  ) {}

  private readonly rails = new PaymentRails(this.runner);

  /** A live customer of this platform, with its platform id; 404 otherwise. */
  private async customer(customerId: string, platformId: string): Promise<{ id: string; platformCustomerId: string }> {
    const doc = await this.readModels.get<Doc & { platformCustomerId?: string; isDeleted?: boolean }>(
      Collections.customers,
      customerId,
    );
    if (!doc || doc.platformId !== platformId || doc.isDeleted) throw notFound('CUSTOMER', customerId);
    return { id: customerId, platformCustomerId: doc.platformCustomerId ?? '' };
  }

  /**
   * Real-time funding: the customer pays in by paymentInstructions. Without customerId the payer is the
   * destination's owner (resolved once the destination is known; `customerId` is empty until then).
   */
  private async realtimeSource(s: RealtimeFundingSource, platformId: string): Promise<QuoteSource> {
    const code = s.currency.toUpperCase();
    currencyOf(code);
    const network = CRYPTO_CURRENCIES.has(code) ? depositNetwork(code, s.cryptoNetwork, true) : undefined;
    if (!network && s.cryptoNetwork !== undefined)
      throw invalid('INVALID_INPUT', `${code} is not paid in on a crypto network`, 'source.cryptoNetwork');
    const owner = s.customerId ? await this.customer(s.customerId, platformId) : undefined;
    return {
      sourceType: 'REALTIME_FUNDING',
      customerId: owner?.id ?? '',
      platformCustomerId: owner?.platformCustomerId ?? '',
      currency: code,
      funding: 'EXTERNAL',
      ...(network ? { cryptoNetwork: network } : {}),
    };
  }

  private async source(req: PlatformQuoteRequest, platformId: string): Promise<QuoteSource> {
    if (req.source.sourceType === 'REALTIME_FUNDING') return this.realtimeSource(req.source, platformId);
    const { accountId, customerId } = req.source;
    let source: QuoteSource;
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

  private async destination(
    req: PlatformQuoteRequest,
    source: QuoteSource,
    platformId: string,
    now: Date,
  ): Promise<QuoteDestinationFacts> {
    const d = req.destination;
    if (d.destinationType === 'UMA_ADDRESS') return this.umaDestination(req, d, source, platformId, now);
    if (d.accountId === source.accountId)
      throw invalid('SAME_ACCOUNT', 'source and destination must differ', 'destination.accountId');
    if (isPublicId('InternalAccount', d.accountId)) return this.internalDestination(d, source, platformId);
    if (!isPublicId('ExternalAccount', d.accountId)) throw notFound('EXTERNAL_ACCOUNT', d.accountId);
    return this.externalDestination(req, d, source, { platformId, now });
  }

  /** A UMA address, with the lookup made for it (by this sender) and one of the currencies it accepts. */
  private async umaDestination(
    req: PlatformQuoteRequest,
    d: Extract<PlatformQuoteRequest['destination'], { destinationType: 'UMA_ADDRESS' }>,
    source: QuoteSource,
    platformId: string,
    now: Date,
  ): Promise<QuoteDestinationFacts> {
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
    if (source.customerId) requireLookupSender(lookup, source.customerId);
    const code = d.currency?.toUpperCase() ?? lookup.supportedCurrencies[0];
    if (!lookup.supportedCurrencies.includes(code))
      throw invalid(
        'INVALID_CURRENCY',
        `the receiver accepts ${lookup.supportedCurrencies.join(', ')}, not ${d.currency}`,
        'destination.currency',
      );
    return {
      quote: {
        destinationType: 'UMA_ADDRESS',
        umaAddress: d.umaAddress,
        lookupId,
        paymentRail: UMA_RAIL.name,
        currency: code,
      },
      transaction: {
        destinationType: 'UMA_ADDRESS',
        umaAddress: d.umaAddress,
        currency: code,
        paymentRail: UMA_RAIL.name,
      },
      rail: UMA_RAIL,
      plan: await this.rails.umaPayout(platformId, lookup.sandboxOutcome, 'destination.umaAddress'),
      lookup,
      counterpartyInformation: lookup.counterpartyInformation,
    };
  }

  /** An active internal account of a customer of this platform, paid on the INTERNAL rail. */
  private async internalDestination(
    d: Extract<PlatformQuoteRequest['destination'], { destinationType: 'ACCOUNT' }>,
    source: QuoteSource,
    platformId: string,
  ): Promise<QuoteDestinationFacts> {
    const account = await loadCustomerAccount(
      this.runner,
      this.readModels,
      d.accountId,
      platformId,
      'destination.accountId',
    );
    requireActive(account);
    if (source.sourceType === 'REALTIME_FUNDING' && !source.customerId)
      Object.assign(source, { customerId: account.customerId, platformCustomerId: account.platformCustomerId });
    if (d.paymentRail !== undefined && d.paymentRail !== INTERNAL_RAIL.name) {
      throw invalid(
        'UNSUPPORTED_PAYMENT_RAIL',
        'payments between internal accounts use the INTERNAL rail',
        'destination.paymentRail',
      );
    }
    return accountDestination(d.accountId, account.currency, INTERNAL_RAIL, LEDGER_PLAN);
  }

  /** A live external account, of the source's customer (or, for real-time funding without one, of the payer). */
  private async externalDestination(
    req: PlatformQuoteRequest,
    d: Extract<PlatformQuoteRequest['destination'], { destinationType: 'ACCOUNT' }>,
    source: QuoteSource,
    at: { platformId: string; now: Date },
  ): Promise<QuoteDestinationFacts> {
    const { platformId, now } = at;
    // Real-time funding may pay out to an external account (an on-ramp); an external account source may not.
    if (source.funding === 'EXTERNAL' && source.sourceType !== 'REALTIME_FUNDING')
      throw invalid(
        'INVALID_INPUT',
        'a quote funded externally pays into an internal account or a UMA address',
        'destination.accountId',
      );
    const external = await loadLiveExternalAccount(this.runner, d.accountId, platformId);
    if (source.customerId) requireSameOwner(external, source.customerId, 'destination.accountId');
    else if (external.customerId) {
      const owner = await this.customer(external.customerId, platformId);
      Object.assign(source, { customerId: owner.id, platformCustomerId: owner.platformCustomerId });
    }
    let lookup: LookupRecord | undefined;
    if (req.lookupId) {
      lookup = await loadLiveLookup(this.runner, req.lookupId, platformId, now);
      if (lookup.kind !== 'EXTERNAL_ACCOUNT' || lookup.accountId !== d.accountId)
        throw invalid('LOOKUP_MISMATCH', 'the lookup was made for another receiver', 'lookupId');
      requireLookupSender(lookup, source.customerId);
    }
    const rail = networkRail(external.currency, d.paymentRail);
    const name = external.beneficiaryVerifiedData?.fullName ?? external.beneficiary?.fullName;
    return {
      ...accountDestination(
        d.accountId,
        external.currency,
        rail,
        await this.rails.quotePayout(platformId, external, 'destination.accountId'),
      ),
      lookup,
      counterpartyInformation: name ? { FULL_NAME: name } : undefined,
    };
  }

  /** The quote's facts as `actor` asks for it (its platform, and the ids its request's effects are named with). */
  async facts(req: PlatformQuoteRequest, actor: Actor, now: Date): Promise<QuoteFacts> {
    const { platformId } = actor;
    const source = await this.source(req, platformId);
    assertImmediateExecution(req, source.funding);
    const destination = await this.destination(req, source, platformId, now);
    if (!source.customerId)
      throw invalid(
        'INVALID_INPUT',
        'source.customerId is required when the destination does not belong to a customer',
        'source.customerId',
      );
    await requireSupportedCurrencies(this.runner, platformId, [
      {
        code: source.currency,
        field: source.sourceType === 'REALTIME_FUNDING' ? 'source.currency' : 'source.accountId',
      },
      {
        code: destination.transaction.currency,
        field: req.destination.destinationType === 'UMA_ADDRESS' ? 'destination.currency' : 'destination.accountId',
      },
    ]);
    const quoteId = publicId('Quote', effectId(actor, this.ids));
    const transactionId = publicId('Transaction', effectId(actor, this.ids));
    const requestId = source.funding === 'EMBEDDED_WALLET' ? publicId('Request', effectId(actor, this.ids)) : undefined;
    return { platformId, source, destination, ids: { quoteId, transactionId, requestId } };
  }
}

/**
 * How money to or from outside the ledger moves, decided when a payment is created: on a sandbox platform by the
 * sandbox's rail (its magic values); on a production platform through the bank rail configured for the currency, or
 * not at all (400 UNSUPPORTED_PAYMENT_RAIL before anything is recorded). No production payment completes by itself.
 */
export class PaymentRails {
  constructor(private readonly runner: CommandRunner) {}

  /** A quote paying out to an external account. */
  async quotePayout(platformId: string, external: ExistingExternalAccount, field: string): Promise<PaymentPlan> {
    if (await isSandboxPlatform(this.runner, platformId)) return quoteDestinationPlan(external.primaryIdentifier);
    return { rail: await this.bankRail(platformId, external, 'CREDIT_TRANSFER', field) };
  }

  /** POST /transfer-out (and agents' transfers out): a credit transfer; transfer-in: a direct debit. */
  async transfer(
    platformId: string,
    external: ExistingExternalAccount,
    direction: 'IN' | 'OUT',
    field: string,
  ): Promise<PaymentPlan> {
    if (await isSandboxPlatform(this.runner, platformId)) return transferPlan(external.primaryIdentifier);
    const instruction = direction === 'OUT' ? 'CREDIT_TRANSFER' : 'DIRECT_DEBIT';
    return { rail: await this.bankRail(platformId, external, instruction, field) };
  }

  /** A quote paying a UMA address: this installation has no UMA network connection of its own outside the sandbox. */
  async umaPayout(platformId: string, outcome: SandboxUmaOutcome | undefined, field: string): Promise<PaymentPlan> {
    if (await isSandboxPlatform(this.runner, platformId)) return umaDestinationPlan(outcome);
    throw new DomainError(
      'invalid',
      'UNSUPPORTED_PAYMENT_RAIL',
      'this installation has no UMA network connection for production platforms; pay a bank account instead',
      { errors: [{ field, constraint: 'UNSUPPORTED_PAYMENT_RAIL', message: 'no UMA rail outside the sandbox' }] },
    );
  }

  private async bankRail(
    platformId: string,
    external: ExistingExternalAccount,
    instruction: RailPlan['instruction'],
    field: string,
  ): Promise<RailPlan> {
    const { state } = await this.runner.load(streams.platform(platformId), platformDecider);
    const rail = railFor(state.rails, external.currency);
    if (!rail) throw noRail(external.currency, field);
    const info = accountInfoView(external);
    const name = beneficiaryName(info) ?? external.beneficiaryVerifiedData?.fullName;
    if (!counterpartyBankAccount(info, name))
      throw refused(field, `a bank rail pays accounts with an IBAN or an account number, not ${info.accountType}`);
    if (instruction === 'DIRECT_DEBIT') {
      if (!rail.creditorSchemeId)
        throw refused(field, `the ${rail.currency} rail has no creditorSchemeId to collect direct debits under`);
      if (!external.directDebitMandate)
        throw refused(field, 'the external account has no direct debit mandate to pull under; record one first');
    }
    return { type: rail.type, instruction, currency: rail.currency };
  }
}

function refused(field: string, message: string): DomainError {
  return new DomainError('invalid', 'UNSUPPORTED_PAYMENT_RAIL', message, {
    errors: [{ field, constraint: 'UNSUPPORTED_PAYMENT_RAIL', message }],
  });
}
