import { publicId } from '../primitives.js';
import { uuidFromName } from '../webhooks/webhook-ids.js';
import type { ApprovedAuthorization, AuthorizationHold } from './card-types.js';

/**
 * The pending holds of an approved authorization, oldest first: the one `holdTransferId` until an incremental
 * authorization added a second. Clearings post them in order; expiry, reversal and the card's close void them all.
 */
export interface Hold {
  transferId: string;
  amount: bigint;
}

export function holdsOf(a: ApprovedAuthorization): Hold[] {
  if (a.holds) return a.holds.map((h) => ({ transferId: h.transferId, amount: BigInt(h.amount) }));
  return [{ transferId: a.holdTransferId, amount: BigInt(a.heldAmount ?? a.amount) }];
}

/** The transfer ids an authorization holds with (none for a declined one). */
export const holdTransferIds = (a: { holds?: AuthorizationHold[]; holdTransferId: string | null }): string[] =>
  a.holds ? a.holds.map((h) => h.transferId) : a.holdTransferId ? [a.holdTransferId] : [];

/**
 * The fields that record `holds` as what the authorization now holds: `heldAmount` their total, `holdTransferId` the
 * first. An authorization never incremented keeps its one-hold shape; once it had several, `holds` stays listed.
 */
export function withHolds(
  a: ApprovedAuthorization,
  holds: Hold[],
): Pick<ApprovedAuthorization, 'holdTransferId' | 'heldAmount' | 'holds'> {
  const total = holds.reduce((sum, h) => sum + h.amount, 0n);
  const listed = a.holds !== undefined || holds.length > 1;
  return {
    holdTransferId: holds[0]?.transferId ?? a.holdTransferId,
    heldAmount: total.toString(),
    ...(listed ? { holds: holds.map((h) => ({ transferId: h.transferId, amount: h.amount.toString() })) } : {}),
  };
}

/**
 * How a clearing of `amount` within (or above) the holds posts them, oldest first: each hold posted in full while the
 * amount lasts, the one it ends in posted in part (its `rest` released, to be held again), the later ones untouched.
 */
export function clearingSplit(holds: Hold[], amount: bigint): { posts: Hold[]; rest?: bigint; untouched: Hold[] } {
  const posts: Hold[] = [];
  const untouched: Hold[] = [];
  let left = amount;
  let rest: bigint | undefined;
  for (const hold of holds) {
    if (left <= 0n) untouched.push(hold);
    else if (left >= hold.amount) {
      posts.push(hold);
      left -= hold.amount;
    } else {
      posts.push({ transferId: hold.transferId, amount: left });
      rest = hold.amount - left;
      left = 0n;
    }
  }
  return { posts, ...(rest !== undefined ? { rest } : {}), untouched };
}

/**
 * How a reversal of `amount` (less than held) releases the holds, newest first: each hold voided while the amount
 * lasts; the one it ends in voided too, its `rest` to be held again; the older ones kept.
 */
export function reversalSplit(holds: Hold[], amount: bigint): { voided: Hold[]; rest?: bigint; kept: Hold[] } {
  const voided: Hold[] = [];
  let left = amount;
  let index = holds.length;
  let rest: bigint | undefined;
  while (left > 0n && index > 0) {
    const hold = holds[--index]!;
    voided.unshift(hold);
    if (left < hold.amount) rest = hold.amount - left;
    left -= left < hold.amount ? left : hold.amount;
  }
  return { voided, ...(rest !== undefined ? { rest } : {}), kept: holds.slice(0, index) };
}

/** The hold of an incremental authorization: derived from the authorization and the increment's network id. */
export const incrementHoldTransferId = (authorizationId: string, networkTransactionId: string): string =>
  publicId('Transfer', uuidFromName(`card-increment-hold:${authorizationId}:${networkTransactionId}`));

/** The rest a partial reversal holds again: derived from the authorization and the reversal's network id. */
export const reversalReholdTransferId = (authorizationId: string, networkTransactionId: string): string =>
  publicId('Transfer', uuidFromName(`card-reversal-rehold:${authorizationId}:${networkTransactionId}`));

/** The ledger leg posting the `index`th hold (from the second on) of an authorization's clearing. */
export const holdPostTransferId = (authorizationId: string, sequence: number, index: number): string =>
  publicId('Transfer', uuidFromName(`card-clearing:${authorizationId}:post:${sequence}:hold:${index}`));
