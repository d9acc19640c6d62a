import { createHash } from 'node:crypto';
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
 */
export type PaymentLeg = 'hold' | 'post' | 'void' | 'credit' | 'refund';

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
};

/** Whether money leaves an internal account (held on start) and whether it lands in one. */
export function legsOf(tx: TransactionRecord): { holdsSource: boolean; creditsDestination: boolean } {
  return {
    holdsSource: tx.source.sourceType === 'ACCOUNT' && isPublicId('InternalAccount', tx.source.accountId),
    creditsDestination:
      tx.destination.destinationType === 'ACCOUNT' && isPublicId('InternalAccount', tx.destination.accountId),
  };
}
