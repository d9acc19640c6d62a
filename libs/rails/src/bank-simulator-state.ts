/**
 * The bank simulator's state and its outcome table, kept apart from the message flow: what it remembers
 * between runs (balances, MsgIds seen, bookings due next time, what it booked) and how it serialises to JSON.
 */
import {
  Amount,
  BankAccount,
  BankTransactionCode,
  Entry,
  EntryDetail,
  OriginalMessageType,
} from './iso20022/messages.js';

/**
 * What the bank does with a transfer or collection, chosen by the last three characters of the counterparty's
 * account identifier (IBAN or account number), as the service's sandbox does for external accounts.
 */
export type Outcome =
  | 'reject-insufficient-funds'
  | 'reject-closed-account'
  | 'reject-next-run'
  | 'return-next-run'
  | 'book-next-run'
  | 'book';

export const OUTCOME_BY_SUFFIX: Readonly<Record<string, Outcome>> = {
  '002': 'reject-insufficient-funds', // RJCT AM04 now
  '003': 'reject-closed-account', // RJCT AC04 now
  '004': 'reject-next-run', // ACSP now, RJCT AG01 in the next run
  '005': 'return-next-run', // ACSC and booked now, returned (AC06) in the next run
  '006': 'book-next-run', // ACSP now, booked (and ACSC) in the next run
};

export function accountKey(account: BankAccount): string {
  const key = account.iban ?? account.accountNumber;
  if (!key) throw new Error(`account of ${account.name} has neither IBAN nor account number`);
  return key;
}

export function outcomeFor(counterparty: BankAccount): Outcome {
  return OUTCOME_BY_SUFFIX[accountKey(counterparty).slice(-3)] ?? 'book';
}

/** A status the next run reports for a transaction of an earlier file. */
export interface DueStatus {
  originalMessageId: string;
  originalMessageType: OriginalMessageType;
  paymentInformationId: string;
  endToEndId: string;
  status: string;
  reasonCode?: string;
}

/** An entry the next run books on one of the bank's customer accounts. */
export interface DueBooking {
  accountKey: string;
  amount: Amount;
  creditDebit: 'CRDT' | 'DBIT';
  code?: BankTransactionCode;
  details: EntryDetail[];
}

export interface Pending {
  status?: DueStatus;
  booking?: DueBooking;
}

export interface OwnAccount {
  account: BankAccount;
  currency: string;
  balance: bigint;
}

export interface SimulatorState {
  /** Names the bank's files and entries; grows with every file and entry. */
  counter: number;
  accounts: Record<string, OwnAccount>;
  seenMessageIds: string[];
  pending: Pending[];
  booked: { accountKey: string; entry: Entry }[];
}

export function emptyState(): SimulatorState {
  return { counter: 0, accounts: {}, seenMessageIds: [], pending: [], booked: [] };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Plain JSON of the state: every bigint becomes `{ "$bigint": "<digits>" }`. */
export function encodeState(value: unknown): Json {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (Array.isArray(value)) return value.map(encodeState);
  if (value && typeof value === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeState(v);
    return out;
  }
  return value as Json;
}

export function decodeState(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeState);
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (Object.keys(obj).length === 1 && typeof obj.$bigint === 'string') return BigInt(obj.$bigint);
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, decodeState(v)]));
  }
  return value;
}

/** Parses saved state, refusing what is not this simulator's. */
export function stateFromJson(json: unknown): SimulatorState {
  const state = decodeState(json) as SimulatorState;
  const shapeOk =
    state &&
    typeof state.counter === 'number' &&
    typeof state.accounts === 'object' &&
    Array.isArray(state.seenMessageIds) &&
    Array.isArray(state.pending) &&
    Array.isArray(state.booked);
  if (!shapeOk) throw new Error('not a bank simulator state');
  return state;
}

/** Signed movement of booked entries: credits add, debits subtract. */
export function netMovement(entries: Entry[]): bigint {
  return entries
    .filter((e) => e.status === 'BOOK')
    .reduce((sum, e) => sum + (e.creditDebit === 'CRDT' ? e.amount.minor : -e.amount.minor), 0n);
}

/** A file name part made of safe characters only. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60);
}

export function sequence(n: number): string {
  return String(n).padStart(6, '0');
}
