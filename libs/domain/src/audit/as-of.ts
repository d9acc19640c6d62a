import type { CustomerState } from '../customers/customer.js';
import { customerFields } from '../customers/customer-fields.js';
import {
  evolveLedger,
  initialLedgerState,
  type LedgerEvent,
  type LedgerState,
  postedBalance,
} from '../ledger/ledger.js';
import { statedAmount } from '../primitives.js';
import { toHistoryEntry, type AuditSourceEvent, type HistoryEntry } from './history.js';

/** One ledger posting of an internal account, with the account's posted balance right after it. */
export interface PostingEntry extends HistoryEntry {
  posting: {
    transferId: string;
    /** DEBIT lowers the account's balance, CREDIT raises it. */
    direction: 'DEBIT' | 'CREDIT';
    /** Minor units; for a post or void, what it moves (0 for a void); null past 2^53-1, with `amountExact`. */
    amount: number | null;
    amountExact?: string;
    /** PENDING holds funds; POSTED and VOIDED resolve an earlier hold; SETTLED moves them at once. */
    kind: 'SETTLED' | 'PENDING' | 'POSTED' | 'VOIDED';
    pendingTransferId?: string;
    code: string;
    reference?: string;
  };
  /** Posted balance (credits less debits) after this posting, minor units; null past 2^53-1, with `balanceExact`. */
  balance: number | null;
  balanceExact?: string;
}

/**
 * Walks a platform's ledger stream with the write path's evolveLedger and keeps the postings
 * that touch `accountId`, each with the running balance.
 */
export function ledgerPostings(events: readonly AuditSourceEvent[], accountId: string): PostingEntry[] {
  const out: PostingEntry[] = [];
  for (const { recorded, movement: m, state } of ledgerMovements(events)) {
    if (m.debitAccountId !== accountId && m.creditAccountId !== accountId) continue;
    const posting: PostingEntry['posting'] = {
      transferId: m.transferId,
      direction: m.debitAccountId === accountId ? 'DEBIT' : 'CREDIT',
      amount: m.amount,
      ...(m.amountExact !== undefined ? { amountExact: m.amountExact } : {}),
      kind: m.kind,
      ...(m.pendingTransferId !== undefined ? { pendingTransferId: m.pendingTransferId } : {}),
      code: m.code,
      ...(m.reference !== undefined ? { reference: m.reference } : {}),
    };
    const account = state.accounts.get(accountId)!;
    const balance = statedAmount(postedBalance(account));
    out.push({
      ...toHistoryEntry(recorded),
      posting,
      balance: balance.amount,
      ...(balance.exact !== undefined ? { balanceExact: balance.exact } : {}),
    });
  }
  return out;
}

/** What one ledger event moves (a post or a void: between its hold's accounts), and the reference it was made for. */
type Movement = LedgerLeg['leg'] & { reference?: string };

const stated = (n: bigint) => {
  const { amount, exact } = statedAmount(n);
  return { amount, ...(exact !== undefined ? { amountExact: exact } : {}) };
};

function movementOf(state: LedgerState, event: LedgerEvent): Movement | undefined {
  if (event.type === 'TransferCreated') {
    const d = event.data;
    return {
      transferId: d.id,
      debitAccountId: d.debitAccountId,
      creditAccountId: d.creditAccountId,
      ...stated(BigInt(d.amount)),
      currency: d.currency,
      kind: d.pending ? 'PENDING' : 'SETTLED',
      code: d.code,
      ...(d.reference !== undefined ? { reference: d.reference } : {}),
    };
  }
  if (event.type === 'PendingTransferPosted' || event.type === 'PendingTransferVoided') {
    const held = state.transfers.get(event.data.pendingId);
    if (!held) return undefined;
    const posted = event.type === 'PendingTransferPosted';
    return {
      transferId: event.data.id,
      debitAccountId: held.debitAccountId,
      creditAccountId: held.creditAccountId,
      ...stated(posted ? BigInt(event.data.amount) : 0n),
      currency: held.currency,
      kind: posted ? 'POSTED' : 'VOIDED',
      pendingTransferId: event.data.pendingId,
      code: held.code,
      ...(held.reference !== undefined ? { reference: held.reference } : {}),
    };
  }
  return undefined;
}

/**
 * Folds a platform's ledger stream with the write path's evolveLedger and yields each movement (read before its event
 * is folded) with the state right after it.
 */
function* ledgerMovements(events: readonly AuditSourceEvent[]) {
  const state = initialLedgerState();
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as unknown as LedgerEvent;
    const movement = movementOf(state, event);
    evolveLedger(state, event);
    if (movement) yield { recorded, movement, state };
  }
}

/** Ledger totals of one account after folding the given ledger events (zeros when it had none). */
export function ledgerTotals(events: readonly AuditSourceEvent[], accountId: string) {
  const state = initialLedgerState();
  for (const e of events) evolveLedger(state, { type: e.type, data: e.data } as unknown as LedgerEvent);
  const a = state.accounts.get(accountId);
  const z = 0n;
  return {
    debitsPosted: (a?.debitsPosted ?? z).toString(),
    creditsPosted: (a?.creditsPosted ?? z).toString(),
    debitsPending: (a?.debitsPending ?? z).toString(),
    creditsPending: (a?.creditsPending ?? z).toString(),
    balance: a ? postedBalance(a) : z,
  };
}

/**
 * The Customer resource from a folded customer state, as the customer read model shows it
 * (profile fields flattened, kycStatus or kybStatus by customer type).
 */
export function toCustomerResource(
  state: CustomerState,
  times: { createdAt: string; updatedAt: string },
): Record<string, unknown> {
  return {
    id: state.id,
    platformCustomerId: state.platformCustomerId,
    ...customerFields(state),
    isDeleted: state.isDeleted,
    createdAt: times.createdAt,
    updatedAt: times.updatedAt,
  };
}

/** One leg of a transfer made for a resource (a transaction): which accounts it moved money between. */
export interface LedgerLeg extends HistoryEntry {
  leg: {
    transferId: string;
    debitAccountId: string;
    creditAccountId: string;
    /** Minor units; 0 for a void; null past 2^53-1, with `amountExact`. */
    amount: number | null;
    amountExact?: string;
    currency: string;
    kind: 'SETTLED' | 'PENDING' | 'POSTED' | 'VOIDED';
    pendingTransferId?: string;
    code: string;
  };
}

/** The ledger transfers whose reference is `reference` (and the posts and voids of its holds), in ledger order. */
export function ledgerLegs(events: readonly AuditSourceEvent[], reference: string): LedgerLeg[] {
  const out: LedgerLeg[] = [];
  for (const { recorded, movement } of ledgerMovements(events)) {
    const { reference: of, ...leg } = movement;
    if (of === reference) out.push({ ...toHistoryEntry(recorded), leg });
  }
  return out;
}
