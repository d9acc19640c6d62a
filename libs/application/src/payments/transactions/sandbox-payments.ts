import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { umaAddressKey } from '#domain/claims/claim.js';
import { customerDecider } from '#domain/customers/customer.js';
import { conflict, invalid, notFound } from '#domain/errors.js';
import { currency, formatAmount, publicId, streams } from '#domain/primitives.js';
import { incomingPlan, type PaymentRef } from '#domain/payments/transactions/payment-plan.js';
import {
  referenceFor,
  requireTransactionRecord,
  toTransactionResource,
  transactionDecider,
  type TransactionRecord,
} from '#domain/payments/transactions/transaction.js';
import { sandboxOriginator, type FundingOriginator } from '#domain/payments/rails/funding-originator.js';
import type { QuoteRecord } from '#domain/payments/quotes/quote-record.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../../command-context.js';
import { firstForPlatform } from '../../queries/list-query.js';
import { IdentityClaims } from '../../claims/identity-claims.js';
import { requireSandbox } from '../ledger/fund-commands.js';
import { loadOwnQuote, requireExecutable, startQuote } from '../quotes/quote-commands.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { PaymentProcess } from './payment-process.js';
import { requireLiveAccounts } from './payment-accounts.js';
import { effectId } from '../../idempotency/effect-ids.js';

export class SandboxSendCommand {
  constructor(
    readonly input: { quoteId: string; currencyCode: string; currencyAmount?: number },
    readonly actor: Actor,
  ) {}
}

export class SandboxUmaReceiveCommand {
  constructor(
    readonly input: {
      senderUmaAddress: string;
      receiverUmaAddress?: string;
      customerId?: string;
      receivingCurrencyCode: string;
      receivingCurrencyAmount: number;
    },
    readonly actor: Actor,
  ) {}
}

/** Simulates paying an externally funded quote's paymentInstructions: the quote starts as if the funds arrived. */
@CommandHandler(SandboxSendCommand)
export class SandboxSendHandler implements ICommandHandler<SandboxSendCommand, Record<string, unknown>> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  /** The sandbox's payer: the paying customer, on the first rail the quote's instructions name. */
  private async originator(quote: QuoteRecord, reference: string): Promise<FundingOriginator> {
    const customer = quote.source.customerId
      ? await this.readModels.get(Collections.customers, quote.source.customerId)
      : undefined;
    const legalName = (customer?.businessInfo as { legalName?: string } | undefined)?.legalName;
    const holderName = typeof customer?.fullName === 'string' ? customer.fullName : legalName;
    const info = quote.paymentInstructions?.[0]?.accountOrWalletInfo as { paymentRails?: string[] } | undefined;
    return sandboxOriginator({ quoteId: quote.id, reference, paymentRail: info?.paymentRails?.[0], holderName });
  }

  async execute({ input, actor }: SandboxSendCommand) {
    await requireSandbox(this.ctx.runner, actor);
    const state = await loadOwnQuote(this.ctx.runner, input.quoteId, actor.platformId);
    const { quote } = state;
    if (quote.funding !== 'EXTERNAL')
      throw conflict(
        'QUOTE_NOT_FUNDED_EXTERNALLY',
        'only quotes funded by paymentInstructions are paid with /sandbox/send; execute this one instead',
      );
    const metadata = { ...actor };
    await requireExecutable(this.process, state, await this.ctx.now(actor.platformId), metadata);
    if (input.currencyCode !== quote.sendingCurrency)
      throw invalid('CURRENCY_MISMATCH', `the quote is paid in ${quote.sendingCurrency}`, 'currencyCode');
    const paid = input.currencyAmount === undefined ? BigInt(quote.totalSendingAmount) : BigInt(input.currencyAmount);
    if (paid !== BigInt(quote.totalSendingAmount))
      throw invalid(
        'AMOUNT_MISMATCH',
        `the quote expects exactly ${formatAmount(BigInt(quote.totalSendingAmount), quote.sendingCurrency)}`,
        'currencyAmount',
      );
    await requireLiveAccounts(this.ctx.runner, this.readModels, quote);
    const originator = await this.originator(quote, state.transaction.reference);
    return toTransactionResource(await startQuote(this.process, quote, metadata, originator));
  }
}

/**
 * Simulates an incoming UMA payment to a customer: credited from the platform's settlement
 * account into the customer's account in the receiving currency (INCOMING transaction). The
 * sender address selects the outcome (see incomingPlan).
 */
@CommandHandler(SandboxUmaReceiveCommand)
export class SandboxUmaReceiveHandler implements ICommandHandler<SandboxUmaReceiveCommand, Record<string, unknown>> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly process: PaymentProcess,
    private readonly claims: IdentityClaims,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  private async receiver(input: SandboxUmaReceiveCommand['input'], platformId: string): Promise<Doc> {
    if ((input.receiverUmaAddress === undefined) === (input.customerId === undefined)) {
      throw invalid('INVALID_INPUT', 'give exactly one of receiverUmaAddress and customerId', 'receiverUmaAddress');
    }
    if (input.customerId !== undefined) {
      const doc = await this.readModels.get(Collections.customers, input.customerId);
      if (!doc || doc.platformId !== platformId || doc.isDeleted) throw notFound('CUSTOMER', input.customerId);
      return doc;
    }
    // An address has one owner in the installation: the customer holding its claim.
    const address = input.receiverUmaAddress!;
    const key = umaAddressKey(address);
    const holder = await this.claims.holder(key);
    if (holder) {
      const doc = await this.readModels.get(Collections.customers, holder.ownerId);
      const uses = typeof doc?.umaAddress === 'string' && umaAddressKey(doc.umaAddress).value === key.value;
      if (!doc || !uses || doc.platformId !== platformId || doc.isDeleted) throw notFound('RECEIVER', address);
      return doc;
    }
    // Customers recorded before addresses were claimed hold no claim: the oldest one is the owner.
    const oldest = await firstForPlatform(this.readModels, Collections.customers, platformId, [
      { field: 'umaAddress', op: 'eq', value: address },
      { field: 'isDeleted', op: 'eq', value: false },
    ]);
    if (!oldest) throw notFound('RECEIVER', address);
    return oldest;
  }

  async execute({ input, actor }: SandboxUmaReceiveCommand) {
    await requireSandbox(this.ctx.runner, actor);
    const code = currency(input.receivingCurrencyCode).code;
    const customer = await this.receiver(input, actor.platformId);
    const { state } = await this.ctx.runner.load(streams.customer(customer.id), customerDecider);
    // Received into the customer's regular account in that currency, else an embedded wallet.
    const candidates = [...state.accounts.values()].filter((a) => a.currency === code && a.status === 'ACTIVE');
    const account = candidates.find((a) => a.type !== 'EMBEDDED_WALLET') ?? candidates[0];
    if (!account)
      throw invalid('UNSUPPORTED_CURRENCY', `the receiver has no active account in ${code}`, 'receivingCurrencyCode');

    const id = publicId('Transaction', effectId(actor, this.ctx.ids));
    const ref: PaymentRef = { kind: 'transaction', id };
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const amount = BigInt(input.receivingCurrencyAmount).toString();
    const { needsApproval, plan } = incomingPlan(input.senderUmaAddress);
    const transaction: TransactionRecord = {
      id,
      platformId: actor.platformId,
      type: 'INCOMING',
      status: 'CREATED',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: input.senderUmaAddress, currency: code },
      destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: code, paymentRail: 'UMA' },
      customerId: customer.id,
      platformCustomerId: String(customer.platformCustomerId ?? ''),
      sentAmount: amount,
      receivedAmount: amount,
      fees: '0',
      exchangeRate: 1,
      counterpartyInformation: { UMA_ADDRESS: input.senderUmaAddress },
      reference: referenceFor(id),
      plan,
      createdAt: now,
      updatedAt: now,
    };
    const metadata = { ...actor };
    // A payment that waits for approval takes the plan's later step (its timeout) when nobody approves it.
    const approval = needsApproval ? plan.later : undefined;
    if (approval) {
      await this.process.schedule(
        { kind: 'PAYMENT_STEP', platformId: actor.platformId, ref, step: approval.step },
        approval.afterMs,
      );
      const { state: created } = await this.ctx.runner.run(
        streams.transaction(id),
        transactionDecider,
        { type: 'CreateTransaction', transaction, then: ['PENDING'] },
        { metadata },
      );
      return toTransactionResource(requireTransactionRecord(created));
    }
    await this.process.scheduleRecovery(actor.platformId, ref);
    // The receiver lookup (CREATED) and the pay request (PENDING) happen together in the simulation.
    await this.ctx.runner.run(
      streams.transaction(id),
      transactionDecider,
      { type: 'CreateTransaction', transaction, then: ['PENDING'] },
      { metadata, answersAfter: 'append' },
    );
    return toTransactionResource(await this.process.start(ref, { from: ['PENDING'] }, metadata));
  }
}
