import { createHash } from 'node:crypto';
import type { Decider } from '../../decider.js';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  type LedgerCommand,
  type LedgerEvent,
  type LedgerState,
} from '../../ledger/ledger.js';
import { ledgerSnapshot } from '../../ledger/ledger-snapshot.js';
import { isPublicId } from '../../ids.js';
import type { TransactionRecord } from '../transactions/transaction.js';

/**
 * The ledger legs of a payment, each a transfer whose id is derived from the transaction id, so
 * running a step twice (a retried timer, a recovery after a crash) never moves money twice:
 * the ledger treats a repeated transfer id as a no-op.
 *
 * - hold:   source internal account -> settlement account of the source currency (pending)
 * - post / void: resolve the hold
 * - credit: settlement account of the destination currency -> destination internal account
 * - refund: settlement account of the source currency -> source internal account (after completion)
 * - reverse: destination internal account -> settlement account (money pulled in that the bank took back)
 */
export type PaymentLeg = 'hold' | 'post' | 'void' | 'credit' | 'refund' | 'reverse';

export function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  // Version 4 / RFC 4122 variant bits, so the result is shaped like every other id.
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const legTransferId = (transactionId: string, leg: PaymentLeg) =>
  `Transfer:${derivedUuid(`${transactionId}/${leg}`)}`;

export const LEG_CODES: Record<Exclude<PaymentLeg, 'post' | 'void'>, string> = {
  hold: 'PAYMENT_HOLD',
  credit: 'PAYMENT_CREDIT',
  refund: 'PAYMENT_REFUND',
  reverse: 'PAYMENT_REVERSAL',
};

/** Whether money leaves an internal account (held on start) and whether it lands in one. */
export function legsOf(tx: TransactionRecord): { holdsSource: boolean; creditsDestination: boolean } {
  return {
    holdsSource: tx.source.sourceType === 'ACCOUNT' && isPublicId('InternalAccount', tx.source.accountId),
    creditsDestination:
      tx.destination.destinationType === 'ACCOUNT' && isPublicId('InternalAccount', tx.destination.accountId),
  };
}

/**
 * A map that reads through to a base map and copies each value on first access, so evolving the
 * overlay never touches the base (ledger accounts and transfers are updated in place by evolve).
 */
class CopyOnReadMap<K, V extends object> extends Map<K, V> {
  constructor(private readonly base: ReadonlyMap<K, V>) {
    super();
  }
  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    const value = this.base.get(key);
    if (value === undefined) return undefined;
    const copy = { ...value };
    super.set(key, copy);
    return copy;
  }
  override has(key: K): boolean {
    return super.has(key) || this.base.has(key);
  }
}

/**
 * Several ledger commands decided together and appended as one batch (one write for a payment's
 * settlement legs). Each command is decided against the state left by the previous ones; the
 * committed state is untouched until the batch is appended.
 */
export const ledgerBatchDecider: Decider<LedgerState, LedgerCommand[], LedgerEvent> = {
  initialState: initialLedgerState,
  evolve: evolveLedger,
  snapshot: ledgerSnapshot,
  decide(commands, state) {
    if (commands.length === 1) return decideLedger(commands[0], state);
    const view: LedgerState = {
      accounts: new CopyOnReadMap(state.accounts),
      transfers: new CopyOnReadMap(state.transfers),
      settled: state.settled,
    };
    const events: LedgerEvent[] = [];
    for (const command of commands) {
      for (const event of decideLedger(command, view)) {
        evolveLedger(view, event);
        events.push(event);
      }
    }
    return events;
  },
};
