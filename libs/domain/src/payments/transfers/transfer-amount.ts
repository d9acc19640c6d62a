import { invalid } from '../../errors.js';
import { toAmount } from '../../primitives.js';

/**
 * How much a transfer moves. The public API lets `amount` be left out: a transfer-out then sends
 * the source account's whole available balance (which must not be empty); a transfer-in pulls
 * from an external account whose balance is unknown here, so it needs the amount.
 */
export function transferAmount(direction: 'IN' | 'OUT', requested: number | undefined, available: bigint): bigint {
  if (requested !== undefined) {
    const amount = toAmount(requested, 'amount');
    if (amount <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
    return amount;
  }
  if (direction === 'IN')
    throw invalid('INVALID_AMOUNT', 'amount is required to pull from an external account', 'amount');
  if (available <= 0n)
    throw invalid('INVALID_AMOUNT', 'without an amount the whole available balance is sent, and it is empty', 'amount');
  return available;
}
