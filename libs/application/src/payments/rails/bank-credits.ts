import { customerDecider } from '#domain/customers/customer.js';
import { DomainError, conflict, notFound } from '#domain/errors.js';
import { formatAmount, streams } from '#domain/primitives.js';
import { ledgerDecider } from '#domain/ledger/ledger.js';
import { bankRailDecider, type RailCredit, type RailEffect } from '#domain/payments/rails/bank-rail-stream.js';
import type { FundingAccounts } from '#domain/payments/rails/bank-credits.js';
import { creditOriginator } from '#domain/payments/rails/funding-originator.js';
import { derivedUuid } from '#domain/payments/transactions/payment-plan.js';
import type { EventMetadata } from '#event-store/event-store.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { loadOwnQuote, startQuote } from '../quotes/quote-commands.js';
import type { PaymentProcess } from '../transactions/payment-process.js';
import type { CommandRunner } from '../../command-runner.js';
import type { PlatformClocks } from '../../command-context.js';
import { settlementAccountOf } from '../../platforms/platform-config.js';

/** The platform's suspense account in a currency: money at the bank that no account has been given yet. */
export const suspenseAccountOf = (platformId: string, currency: string) =>
  `SuspenseAccount:${derivedUuid(`${platformId}/${currency}/suspense`)}`;

/**
 * Money paid into a production platform's bank account that names no payment: credited to the customer account whose
 * funding reference it carries, or held in the platform's suspense account until an operator assigns it. Each
 * movement is a ledger transfer whose id derives from the credit, so applying a file again moves nothing twice.
 */
export class BankCredits {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
    private readonly readModels: ReadModelStore,
    /** Starts the quotes credits pay for (not needed to assign credits). */
    private readonly process?: PaymentProcess,
  ) {}

  /**
   * The one document of this platform whose `field` starts with `prefix` (ids and references are lower-case hex, so
   * `prefix` up to `prefix` + "g" holds them all); none when two share it: a reference that names two is not used.
   */
  private async onlyWithPrefix<T extends Doc>(
    collection: string,
    platformId: string,
    field: string,
    prefix: string,
  ): Promise<T | undefined> {
    const page = await this.readModels.find<T>(collection, {
      filters: [
        { field: 'platformId', op: 'eq', value: platformId },
        { field, op: 'gte', value: prefix },
        { field, op: 'lt', value: `${prefix}g` },
      ],
      limit: 2,
    });
    const [doc, other] = page.data;
    return other ? undefined : doc;
  }

  /** The customer accounts (and pending quotes) of this platform and currency that show each reference. */
  async fundingAccounts(platformId: string, currency: string, references: string[]): Promise<FundingAccounts> {
    const found: Record<string, string> = {};
    for (const reference of references) {
      const hex = reference.slice(reference.indexOf('-') + 1).toLowerCase();
      if (reference.startsWith('TX-')) {
        // A quote's reference is its transaction id's first twelve hex digits.
        const prefix = `Transaction:${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
        const quote = await this.onlyWithPrefix(Collections.quotes, platformId, 'transactionId', prefix);
        if (quote) found[reference] = quote.id;
        continue;
      }
      const prefix = `InternalAccount:${hex}`;
      const doc = await this.onlyWithPrefix<InternalAccountDoc>(Collections.internalAccounts, platformId, 'id', prefix);
      // Two accounts sharing the reference's eight characters: neither is credited (the credit waits in suspense). A
      // closed account (its customer deleted) is credited no more: the credit waits in suspense for an operator.
      if (doc?.customerId && doc.currency === currency && doc.status !== 'CLOSED') found[reference] = doc.id;
    }
    return found;
  }

  private async transfer(
    platformId: string,
    id: string,
    from: { id: string; allowNegative: boolean },
    to: string,
    credit: RailCredit,
    metadata: EventMetadata,
    code?: string,
  ): Promise<void> {
    const now = (await this.clocks.now(platformId)).toISOString();
    await this.runner.run(
      streams.ledger(platformId),
      ledgerDecider,
      {
        type: 'CreateTransfer',
        id: `Transfer:${derivedUuid(id)}`,
        debit: { ...from, currency: credit.currency },
        credit: { id: to, currency: credit.currency, allowNegative: false },
        amount: BigInt(credit.amount),
        code: code ?? (credit.accountId ? 'BANK_CREDIT' : 'BANK_SUSPENSE'),
        reference: credit.id,
        now,
      },
      { metadata, answersAfter: 'append' },
    );
  }

  /**
   * Starts the quote a credit pays for, as the sandbox's send does: exactly the quote's total in its sending currency,
   * while it is pending. A credit the quote cannot take is held in suspense with the reason.
   */
  private async payQuote(platformId: string, credit: RailCredit & { quoteId: string }, metadata: EventMetadata) {
    if (!this.process) throw new Error('starting a funded quote needs the payment process');
    const { quote, transaction } = await loadOwnQuote(this.runner, credit.quoteId, platformId);
    const hold = (reason: string) => this.hold(platformId, credit, reason, metadata);
    if (transaction.status !== 'PENDING') {
      // Started by this credit before (a file applied again), or no longer payable.
      return transaction.status === 'EXPIRED' ? hold(`quote ${quote.id} expired at ${quote.expiresAt}`) : undefined;
    }
    if (quote.funding !== 'EXTERNAL') return hold(`quote ${quote.id} is not funded by payment instructions`);
    if (credit.currency !== quote.sendingCurrency || BigInt(credit.amount) !== BigInt(quote.totalSendingAmount))
      return hold(
        `quote ${quote.id} expects exactly ${formatAmount(BigInt(quote.totalSendingAmount), quote.sendingCurrency)}`,
      );
    try {
      await startQuote(this.process, quote, metadata, creditOriginator(credit));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await hold(`quote ${quote.id} could not start: ${error.message}`);
    }
  }

  /** A credit that named a quote the quote could not take: into suspense, listed with its reason. */
  private async hold(platformId: string, credit: RailCredit, reason: string, metadata: EventMetadata): Promise<void> {
    const now = (await this.clocks.now(platformId)).toISOString();
    await this.runner.run(
      streams.bankRail(platformId, credit.currency),
      bankRailDecider,
      { type: 'HoldCredit', platformId, creditId: credit.id, reason, now },
      { metadata, answersAfter: 'append' },
    );
    const { quoteId: _q, ...held } = credit;
    await this.book(platformId, held, metadata);
  }

  /** Books a credit of a recorded file: into its account, the quote it pays for, or suspense. */
  async book(platformId: string, credit: RailCredit, metadata: EventMetadata): Promise<void> {
    if (credit.quoteId) return this.payQuote(platformId, { ...credit, quoteId: credit.quoteId }, metadata);
    const settlement = await settlementAccountOf(this.runner, platformId, credit.currency);
    const to = credit.accountId ?? suspenseAccountOf(platformId, credit.currency);
    await this.transfer(platformId, credit.id, { id: settlement, allowNegative: true }, to, credit, metadata);
  }

  /** An operator sends a credit held in suspense back to its payer: queued now, written on the worker's next pass. */
  async sendBack(platformId: string, currency: string, creditId: string, metadata: EventMetadata): Promise<void> {
    const now = (await this.clocks.now(platformId)).toISOString();
    await this.runner.run(
      streams.bankRail(platformId, currency),
      bankRailDecider,
      { type: 'ReturnCredit', platformId, creditId, now },
      { metadata, answersAfter: 'append' },
    );
  }

  /**
   * The bank's answer to a credit's return: booked, the money leaves the suspense account (to the settlement account
   * that mirrors the bank); rejected, the credit is OPEN in suspense again.
   */
  async settleReturn(
    platformId: string,
    currency: string,
    creditId: string,
    effect: RailEffect,
    metadata: EventMetadata,
  ): Promise<void> {
    if (effect.action !== 'BOOK' && effect.action !== 'REJECT') return;
    const now = (await this.clocks.now(platformId)).toISOString();
    const outcome = effect.action === 'BOOK' ? 'RETURNED' : 'REJECTED';
    const { state } = await this.runner.load(streams.bankRail(platformId, currency), bankRailDecider);
    const exception = state.exceptions.get(creditId);
    if (!exception) return;
    if (outcome === 'RETURNED') {
      const settlement = await settlementAccountOf(this.runner, platformId, currency);
      const suspense = { id: suspenseAccountOf(platformId, currency), allowNegative: false };
      const credit = { ...exception.credit };
      const id = `${creditId}/${effect.endToEndId}`;
      await this.transfer(platformId, id, suspense, settlement, credit, metadata, 'BANK_CREDIT_RETURN');
    }
    await this.runner.run(
      streams.bankRail(platformId, currency),
      bankRailDecider,
      { type: 'SettleCreditReturn', platformId, creditId, outcome, now },
      { metadata, answersAfter: 'append' },
    );
  }

  /** An operator gives a credit in suspense to a customer account of the same currency. */
  async assign(
    platformId: string,
    currency: string,
    creditId: string,
    accountId: string,
    metadata: EventMetadata,
  ): Promise<RailCredit> {
    await this.requireCustomerAccount(platformId, accountId, currency);
    const now = (await this.clocks.now(platformId)).toISOString();
    const { state } = await this.runner.run(
      streams.bankRail(platformId, currency),
      bankRailDecider,
      { type: 'AssignCredit', platformId, creditId, accountId, now },
      { metadata, answersAfter: 'append' },
    );
    const exception = state.exceptions.get(creditId);
    if (!exception) throw notFound('BANK_CREDIT', creditId);
    const credit = { ...exception.credit, accountId };
    const suspense = { id: suspenseAccountOf(platformId, currency), allowNegative: false };
    await this.transfer(platformId, `${creditId}/assign`, suspense, accountId, credit, metadata);
    return credit;
  }

  private async requireCustomerAccount(platformId: string, accountId: string, currency: string): Promise<void> {
    const doc = await this.readModels.get<InternalAccountDoc>(Collections.internalAccounts, accountId);
    if (!doc || doc.platformId !== platformId || !doc.customerId) throw notFound('INTERNAL_ACCOUNT', accountId);
    const { state: customer } = await this.runner.load(streams.customer(doc.customerId), customerDecider);
    const account = customer.accounts.get(accountId);
    if (!account) throw notFound('INTERNAL_ACCOUNT', accountId);
    if (account.currency !== currency)
      throw new DomainError('invalid', 'CURRENCY_MISMATCH', `the account holds ${account.currency}, not ${currency}`, {
        errors: [{ field: 'accountId', constraint: 'CURRENCY_MISMATCH', message: `not a ${currency} account` }],
      });
    if (account.status !== 'ACTIVE')
      throw conflict('ACCOUNT_NOT_ACTIVE', `account ${accountId} is ${account.status} and cannot receive funds`);
  }
}
