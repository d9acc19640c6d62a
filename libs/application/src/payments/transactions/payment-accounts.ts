import { customerDecider, type InternalAccountType } from '#domain/customers/customer.js';
import { conflict, DomainError, invalid, notFound } from '#domain/errors.js';
import {
  type ExistingExternalAccount,
  externalAccountDecider,
  type ExternalAccountState,
} from '#domain/external-accounts/external-account.js';
import { isPublicId, streams, uuidOf } from '#domain/primitives.js';
import type { QuoteRecord } from '#domain/payments/quotes/quote-record.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { getForPlatform } from '../../queries/list-query.js';
import type { CommandRunner } from '../../command-runner.js';
import { type LedgerCommand, ledgerDecider, transferStatus } from '#domain/ledger/ledger.js';
import type { TransactionRecord } from '#domain/payments/transactions/transaction.js';
import { ledgerBatchDecider, LEG_CODES, legsOf, legTransferId } from '#domain/payments/transactions/payment-plan.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { PlatformClocks } from '../../command-context.js';
import { settlementAccountOf } from '../../platforms/platform-config.js';

/*
 * The accounts a payment touches: each end's internal or external account, loaded and checked live, and the ledger
 * legs the payment posts on its internal ones.
 */

/** The stream of an external account id, or a 404 that does not reveal whether the id exists elsewhere. */
export function externalAccountStream(id: string): string {
  if (!uuidOf('ExternalAccount', id)) throw notFound('EXTERNAL_ACCOUNT', id);
  return streams.externalAccount(id);
}

/** A live external account of this platform (customer's or the platform's own); 404 otherwise. */
export async function loadExternalAccount(
  runner: CommandRunner,
  id: string,
  platformId: string,
): Promise<ExistingExternalAccount> {
  const { state } = await runner.load(externalAccountStream(id), externalAccountDecider);
  if (!state.exists || state.platformId !== platformId || state.status === 'DELETED')
    throw notFound('EXTERNAL_ACCOUNT', id);
  return state;
}

/** A customer's internal account, with its status from the customer stream (the source of truth). */
export interface OwnedInternalAccount {
  id: string;
  customerId: string;
  platformCustomerId: string;
  type: InternalAccountType;
  currency: string;
  status: string;
}

/** Customers' platform ids come from the read model: the customer stream does not keep them. */
export async function platformCustomerIdOf(readModels: ReadModelStore, customerId: string): Promise<string> {
  const doc = await readModels.get<Doc & { platformCustomerId?: string }>(Collections.customers, customerId);
  return doc?.platformCustomerId ?? '';
}

/**
 * A customer's internal account of this platform. Platform settlement accounts are refused: they
 * mirror money outside the system and cannot take part in a payment.
 */
export async function loadCustomerAccount(
  runner: CommandRunner,
  readModels: ReadModelStore,
  accountId: string,
  platformId: string,
  field: string,
): Promise<OwnedInternalAccount> {
  if (!isPublicId('InternalAccount', accountId)) throw notFound('INTERNAL_ACCOUNT', accountId);
  const collection = Collections.internalAccounts;
  const doc = await getForPlatform<InternalAccountDoc>(
    readModels,
    collection,
    'INTERNAL_ACCOUNT',
    platformId,
    accountId,
  );
  if (!doc.customerId)
    throw invalid(
      'INVALID_INPUT',
      'platform settlement accounts cannot send or receive payments; use a customer account',
      field,
    );
  const { state: customer } = await runner.load(streams.customer(doc.customerId), customerDecider);
  const account = customer.accounts.get(accountId);
  if (!account) throw notFound('INTERNAL_ACCOUNT', accountId);
  return {
    id: accountId,
    customerId: doc.customerId,
    platformCustomerId: await platformCustomerIdOf(readModels, doc.customerId),
    type: account.type,
    currency: account.currency,
    status: account.status,
  };
}

export function requireActive(account: { id: string; status?: string }): void {
  if (account.status !== 'ACTIVE')
    throw conflict(
      'ACCOUNT_NOT_ACTIVE',
      `account ${account.id} is ${account.status} and cannot send or receive payments`,
    );
}

/**
 * Checks, as a quote starts, that its accounts can still take part (409 ACCOUNT_NOT_ACTIVE otherwise): an internal
 * source or destination still ACTIVE (its customer not deleted since the quote was made), an external destination
 * not deleted. Nothing moves before this.
 */
export async function requireLiveAccounts(
  runner: CommandRunner,
  readModels: ReadModelStore,
  quote: Pick<QuoteRecord, 'platformId' | 'source' | 'destination'>,
): Promise<void> {
  const { platformId, source, destination } = quote;
  const internal = (id: string, field: string) => loadCustomerAccount(runner, readModels, id, platformId, field);
  if (isPublicId('InternalAccount', source.accountId))
    requireActive(await internal(source.accountId, 'source.accountId'));
  if (destination.destinationType !== 'ACCOUNT') return;
  const { accountId } = destination;
  if (isPublicId('InternalAccount', accountId))
    return requireActive(await internal(accountId, 'destination.accountId'));
  const { state } = await runner.load(externalAccountStream(accountId), externalAccountDecider);
  requireActive({ id: accountId, status: state.exists ? state.status : 'DELETED' });
}

export type LiveExternalAccount = ExistingExternalAccount;

export async function loadLiveExternalAccount(
  runner: CommandRunner,
  accountId: string,
  platformId: string,
): Promise<LiveExternalAccount> {
  return loadExternalAccount(runner, accountId, platformId);
}

/** An external account used together with a customer's account must be that customer's or the platform's own. */
export function requireSameOwner(external: ExternalAccountState, customerId: string, field: string): void {
  if (external.customerId && external.customerId !== customerId) {
    throw new DomainError(
      'invalid',
      'ACCOUNT_OWNER_MISMATCH',
      `external account ${external.id} belongs to another customer`,
      {
        errors: [
          { field, constraint: 'ACCOUNT_OWNER_MISMATCH', message: 'the external account belongs to another customer' },
        ],
      },
    );
  }
}

/** The internal account at an end of a payment that has a leg there (`legsOf` says which ends have one). */
function internalAccount(end: { accountId?: string }): string {
  if (!end.accountId) throw new Error('a payment leg needs an internal account at its end');
  return end.accountId;
}

/**
 * The ledger commands of a payment's legs (see `legsOf` in the payment plan), each with a transfer id derived
 * from the transaction so that repeating a leg is a no-op. A step's legs are appended together.
 */
export class PaymentLedger {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
  ) {}

  /** Appends the commands as one batch; the status change that follows waits for the read models. */
  async run(platformId: string, commands: LedgerCommand[], metadata: EventMetadata): Promise<void> {
    if (commands.length === 0) return;
    await this.runner.run(streams.ledger(platformId), ledgerBatchDecider, commands, {
      metadata,
      answersAfter: 'append',
    });
  }

  private async transfer(
    tx: TransactionRecord,
    leg: 'hold' | 'credit' | 'refund' | 'reverse',
    toSettlement: boolean,
    accountId: string,
    code: string,
    amount: string,
  ): Promise<LedgerCommand> {
    const settlement = {
      id: await settlementAccountOf(this.runner, tx.platformId, code),
      currency: code,
      allowNegative: true,
    };
    const account = { id: accountId, currency: code, allowNegative: false };
    return {
      type: 'CreateTransfer',
      id: legTransferId(tx.id, leg),
      debit: toSettlement ? account : settlement,
      credit: toSettlement ? settlement : account,
      amount: BigInt(amount),
      ...(leg === 'hold' ? { pending: true } : {}),
      code: LEG_CODES[leg],
      reference: tx.id,
      now: (await this.clocks.now(tx.platformId)).toISOString(),
    };
  }

  /** Source account -> settlement account of the source currency, pending. */
  async hold(tx: TransactionRecord): Promise<LedgerCommand[]> {
    if (!legsOf(tx).holdsSource) return [];
    return [await this.transfer(tx, 'hold', true, internalAccount(tx.source), tx.source.currency, tx.sentAmount)];
  }

  /**
   * Refuses (400 AMOUNT_OUT_OF_RANGE) a payment whose credit would take a balance past what the API can state, before
   * anything moves: its hold, the hold's post and the credit are decided together against the ledger as it is, as the
   * payment would complete now; only that refusal counts here (the others are the hold's own, when it runs).
   */
  async assertCreditFits(tx: TransactionRecord): Promise<void> {
    if (!legsOf(tx).creditsDestination) return;
    const hold = await this.hold(tx);
    const now = (await this.clocks.now(tx.platformId)).toISOString();
    const pendingId = legTransferId(tx.id, 'hold');
    const post: LedgerCommand[] = hold.map(() => ({
      type: 'PostPendingTransfer',
      id: legTransferId(tx.id, 'post'),
      pendingId,
      now,
    }));
    const commands = [...hold, ...post, ...(await this.credit(tx))];
    const { state } = await this.runner.load(streams.ledger(tx.platformId), ledgerDecider);
    try {
      ledgerBatchDecider.decide(commands, state);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'AMOUNT_OUT_OF_RANGE') throw error;
    }
  }

  /** Settlement account of the destination currency -> destination account. */
  async credit(tx: TransactionRecord): Promise<LedgerCommand[]> {
    if (!legsOf(tx).creditsDestination) return [];
    return [
      await this.transfer(
        tx,
        'credit',
        false,
        internalAccount(tx.destination),
        tx.destination.currency,
        tx.receivedAmount,
      ),
    ];
  }

  /**
   * The money of a completed payment coming back: to the source account (settlement account of the source currency
   * -> source account); for money pulled into an internal account from outside, out of it again (destination account
   * -> settlement account).
   */
  async refund(tx: TransactionRecord): Promise<LedgerCommand[]> {
    const { holdsSource, creditsDestination } = legsOf(tx);
    if (holdsSource)
      return [await this.transfer(tx, 'refund', false, internalAccount(tx.source), tx.source.currency, tx.sentAmount)];
    if (!creditsDestination || !tx.plan.rail) return [];
    const destination = internalAccount(tx.destination);
    return [await this.transfer(tx, 'reverse', true, destination, tx.destination.currency, tx.receivedAmount)];
  }

  /** Posts or voids the hold; nothing when it is already resolved that way (or, for a void, was never placed). */
  async release(tx: TransactionRecord, how: 'post' | 'void'): Promise<LedgerCommand[]> {
    if (!legsOf(tx).holdsSource) return [];
    const { state } = await this.runner.load(streams.ledger(tx.platformId), ledgerDecider);
    const pendingId = legTransferId(tx.id, 'hold');
    const hold = transferStatus(state, pendingId);
    if (!hold) {
      if (how === 'void') return [];
      throw new DomainError('conflict', 'HOLD_MISSING', `payment ${tx.id} has no hold to settle`);
    }
    if (hold.resolution) {
      if (hold.resolution === (how === 'post' ? 'POSTED' : 'VOIDED')) return [];
      throw new DomainError(
        'conflict',
        'PENDING_TRANSFER_RESOLVED',
        `the hold of ${tx.id} is already ${hold.resolution.toLowerCase()}`,
      );
    }
    const id = legTransferId(tx.id, how);
    const now = (await this.clocks.now(tx.platformId)).toISOString();
    return [
      how === 'post'
        ? { type: 'PostPendingTransfer', id, pendingId, now }
        : { type: 'VoidPendingTransfer', id, pendingId, now },
    ];
  }
}
