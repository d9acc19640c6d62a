import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { DomainError } from '#domain/errors.js';
import { formatAmount, type IdGenerator, publicId, streams } from '#domain/primitives.js';
import { available, ledgerDecider } from '#domain/ledger/ledger.js';
import { networkRail } from '#domain/payments/rates/rate-table.js';
import type { PaymentPlan, PaymentRef } from '#domain/payments/transactions/payment-plan.js';
import {
  referenceFor,
  toTransactionResource,
  transactionDecider,
  type TransactionRecord,
} from '#domain/payments/transactions/transaction.js';
import { transferAmount } from '#domain/payments/transfers/transfer-amount.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandRunner } from '../../command-runner.js';
import { IDS, READ_MODELS, type Actor } from '../../tokens.js';
import { requireSupportedCurrencies } from '../../platforms/platform-config.js';
import {
  loadCustomerAccount,
  loadLiveExternalAccount,
  requireActive,
  requireSameOwner,
  type LiveExternalAccount,
  type OwnedInternalAccount,
} from '../transactions/payment-accounts.js';
import { PaymentRails } from '../quotes/quote-builder.js';
import { PaymentProcess } from '../transactions/payment-process.js';
import { PlatformClocks } from '../../command-context.js';
import { effectId } from '../../idempotency/effect-ids.js';

export interface TransferInput {
  source: { accountId: string };
  destination: { accountId: string; paymentRail?: string };
  amount: number;
  /** Set when an agent started the transfer (the transaction carries it). */
  agentId?: string;
  /** The transaction's id when the caller fixes it in advance (an agent action, to find it after a crash). */
  transactionId?: string;
}

/**
 * The platform's transfer: `amount` may be left out (see transferAmount: a transfer-out sends the whole available
 * balance, a transfer-in answers 400 INVALID_AMOUNT).
 */
export type PlatformTransferInput = Omit<TransferInput, 'amount'> & { amount?: number };

export class TransferInCommand {
  constructor(
    readonly input: PlatformTransferInput,
    readonly actor: Actor,
  ) {}
}
export class TransferOutCommand {
  constructor(
    readonly input: PlatformTransferInput,
    readonly actor: Actor,
  ) {}
}

/** The account's available balance (posted credits less debits and pending holds); 0 for an unknown account. */
export async function availableBalance(runner: CommandRunner, platformId: string, accountId: string): Promise<bigint> {
  const { state: ledger } = await runner.load(streams.ledger(platformId), ledgerDecider);
  const balance = ledger.accounts.get(accountId);
  return balance ? available(balance) : 0n;
}

const mismatch = (field: string, message: string) =>
  new DomainError('invalid', 'CURRENCY_MISMATCH', message, {
    errors: [{ field, constraint: 'CURRENCY_MISMATCH', message }],
  });

/**
 * Transfers between a customer's internal account and an external account in the same currency.
 * On a sandbox platform the external account's last three characters select the outcome (see
 * transactions/payment-plan.ts); on a production platform the transfer goes through the currency's bank rail
 * (a credit transfer out, a direct debit in) and completes only when the bank books it.
 */
@Injectable()
abstract class TransferHandler {
  constructor(
    protected readonly runner: CommandRunner,
    protected readonly process: PaymentProcess,
    @Inject(READ_MODELS) protected readonly readModels: ReadModelStore,
    protected readonly clocks: PlatformClocks,
    @Inject(IDS) protected readonly ids: IdGenerator,
  ) {}

  /** IN: from the external account into the internal one; OUT: from the internal account out to the external one. */
  protected abstract readonly direction: 'IN' | 'OUT';

  /** What is moved (and, for an OUT, the rail it is paid on); refused here, before anything is recorded. */
  protected abstract plan(
    internal: OwnedInternalAccount,
    external: LiveExternalAccount,
    input: PlatformTransferInput,
    actor: Actor,
  ): Promise<{ amount: bigint; rail?: string }>;

  async execute({ input, actor }: TransferInCommand | TransferOutCommand): Promise<Record<string, unknown>> {
    const { internal, external } = await this.accounts(input, actor);
    // How the money moves is settled first: without a rail for the currency nothing else matters.
    const field = this.direction === 'IN' ? 'source.accountId' : 'destination.accountId';
    const movement = await new PaymentRails(this.runner).transfer(actor.platformId, external, this.direction, field);
    const { amount, rail } = await this.plan(internal, external, input, actor);
    return this.run({ internal, external, movement }, amount, rail, actor, input);
  }

  /** The transfer's internal account (an IN's destination, an OUT's source) and its external one, checked. */
  private async accounts(input: { source: { accountId: string }; destination: { accountId: string } }, actor: Actor) {
    const [own, other] =
      this.direction === 'IN' ? (['destination', 'source'] as const) : (['source', 'destination'] as const);
    const [internalId, externalId] = [input[own].accountId, input[other].accountId];
    const fields = { internal: `${own}.accountId`, external: `${other}.accountId` };
    const internal = await loadCustomerAccount(
      this.runner,
      this.readModels,
      internalId,
      actor.platformId,
      fields.internal,
    );
    requireActive(internal);
    const external = await loadLiveExternalAccount(this.runner, externalId, actor.platformId);
    requireSameOwner(external, internal.customerId, fields.external);
    if (external.currency !== internal.currency)
      throw mismatch(
        fields.external,
        `the external account holds ${external.currency}, the internal account ${internal.currency}`,
      );
    await requireSupportedCurrencies(this.runner, actor.platformId, [
      { code: internal.currency, field: fields.internal },
    ]);
    return { internal, external };
  }

  private async run(
    {
      internal,
      external,
      movement,
    }: { internal: OwnedInternalAccount; external: LiveExternalAccount; movement: PaymentPlan },
    amount: bigint,
    rail: string | undefined,
    actor: Actor,
    input?: PlatformTransferInput,
  ) {
    const id = input?.transactionId ?? publicId('Transaction', effectId(actor, this.ids));
    const agentId = input?.agentId;
    const ref: PaymentRef = { kind: 'transaction', id };
    const now = (await this.clocks.now(actor.platformId)).toISOString();
    const code = internal.currency;
    const inbound = this.direction === 'IN';
    const transaction: TransactionRecord = {
      id,
      platformId: actor.platformId,
      type: inbound ? 'INCOMING' : 'OUTGOING',
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: inbound ? external.id : internal.id, currency: code },
      destination: {
        destinationType: 'ACCOUNT',
        accountId: inbound ? internal.id : external.id,
        currency: code,
        ...(rail ? { paymentRail: rail } : {}),
      },
      customerId: internal.customerId,
      platformCustomerId: internal.platformCustomerId,
      sentAmount: amount.toString(),
      receivedAmount: amount.toString(),
      fees: '0',
      exchangeRate: 1,
      reference: referenceFor(id),
      plan: movement,
      createdAt: now,
      updatedAt: now,
      ...(agentId ? { agentId } : {}),
    };
    const metadata = { ...actor };
    await this.process.scheduleRecovery(actor.platformId, ref);
    await this.runner.run(
      streams.transaction(id),
      transactionDecider,
      { type: 'CreateTransaction', transaction },
      { metadata, answersAfter: 'append' },
    );
    try {
      return toTransactionResource(await this.process.start(ref, { from: ['PENDING'] }, metadata));
    } catch (error) {
      // Funds spent by a concurrent payment since the check: the transfer fails, the caller hears why.
      if (error instanceof DomainError && error.code === 'INSUFFICIENT_FUNDS') {
        await this.process.failForFunds(ref, metadata);
      }
      throw error;
    }
  }
}

@CommandHandler(TransferInCommand)
export class TransferInHandler extends TransferHandler {
  protected readonly direction = 'IN';

  protected async plan(_internal: OwnedInternalAccount, _external: LiveExternalAccount, input: PlatformTransferInput) {
    return { amount: transferAmount('IN', input.amount, 0n) };
  }
}

@CommandHandler(TransferOutCommand)
export class TransferOutHandler extends TransferHandler {
  protected readonly direction = 'OUT';

  protected async plan(
    internal: OwnedInternalAccount,
    external: LiveExternalAccount,
    input: PlatformTransferInput,
    actor: Actor,
  ) {
    const rail = networkRail(external.currency, input.destination.paymentRail);
    // Refused before anything is recorded; the hold at start is the authoritative check.
    const balance = await availableBalance(this.runner, actor.platformId, internal.id);
    const amount = transferAmount('OUT', input.amount, balance);
    if (balance < amount)
      throw new DomainError(
        'invalid',
        'INSUFFICIENT_FUNDS',
        `account ${internal.id} has insufficient funds for ${formatAmount(amount, internal.currency)}`,
      );
    return { amount, rail: rail.name };
  }
}
