import { DomainError } from '#domain/errors.js';
import { streams } from '#domain/ids.js';
import { ledgerDecider, transferStatus, type LedgerCommand } from '#domain/ledger/ledger.js';
import type { TransactionRecord } from '#domain/payments/transactions/transaction.js';
import { LEG_CODES, ledgerBatchDecider, legTransferId, legsOf } from '#domain/payments/transfers/payment-legs.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { CommandRunner } from '../../command-runner.js';
import type { PlatformClocks } from '../../platforms/platform-clocks.js';
import { settlementAccountOf } from '../../platforms/platform-config.js';

/** The internal account at an end of a payment that has a leg there (`legsOf` says which ends have one). */
function internalAccount(end: { accountId?: string }): string {
  if (!end.accountId) throw new Error('a payment leg needs an internal account at its end');
  return end.accountId;
}

/**
 * The ledger commands of a payment's legs (see payment-legs.ts), each with a transfer id derived
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
