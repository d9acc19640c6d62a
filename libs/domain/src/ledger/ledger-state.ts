import type { SettledTransfers } from './settled-transfers.js';

/**
 * A double-entry ledger in the TigerBeetle style: accounts keep posted and pending debits and
 * credits; transfers move one amount between two accounts of one currency and never change.
 * Pending transfers reserve funds (two-phase) and are later posted or voided.
 * One ledger stream per platform keeps every balance check strongly consistent.
 */
export interface LedgerAccountSpec {
  id: string;
  currency: string;
  /** Platform settlement accounts may go negative: they mirror money outside the system. */
  allowNegative: boolean;
}

export interface LedgerAccount extends LedgerAccountSpec {
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
}

export interface TransferRecord {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  currency: string;
  pending: boolean;
  /** For pending transfers: POSTED or VOIDED once resolved. */
  resolution?: 'POSTED' | 'VOIDED';
  postedAmount?: bigint;
  code: string;
  /** What the transfer belongs to (an authorization, a transaction...), as given on creation. */
  reference?: string;
}

export interface LedgerState {
  accounts: Map<string, LedgerAccount>;
  /** Transfers as records: every pending one not yet resolved, and those folded since the state was restored. */
  transfers: Map<string, TransferRecord>;
  /** The transfers a restored snapshot held that no command can change any more (see SettledTransfers). */
  settled: SettledTransfers;
}

/** An account of the ledger: every transfer names accounts opened before it, so a missing one is a corrupt stream. */
export function ledgerAccount(state: LedgerState, id: string): LedgerAccount {
  const account = state.accounts.get(id);
  if (!account) throw new Error(`ledger account ${id} was never opened`);
  return account;
}

/** A transfer kept as a record (a pending one not yet resolved always is); a missing one is a corrupt stream. */
export function transferRecord(state: LedgerState, id: string): TransferRecord {
  const transfer = state.transfers.get(id);
  if (!transfer) throw new Error(`transfer ${id} is not held as a record`);
  return transfer;
}
