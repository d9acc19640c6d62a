import type { ByteSource, SnapshotCodec } from '../snapshot-codec.js';
import { SettledTransfers, type LedgerAccount, type LedgerState, type TransferRecord } from './ledger-state.js';

/**
 * A ledger's state in a snapshot: its accounts and its pending transfers not yet resolved as records (JSON, records
 * column by column, one array per field; amounts as decimal strings, absent optional fields as null), and every
 * other transfer as an entry of its settled set, whose sorted entries are the snapshot's binary part: the snapshot of
 * a long ledger grows by 18 bytes a transfer, and restoring it reads those bytes as they are, with nothing to parse.
 */
interface EncodedLedger {
  /** [id, currency, allowNegative, debitsPosted, creditsPosted, debitsPending, creditsPending] */
  accounts: [string, string, boolean, string, string, string, string][];
  transfers: {
    /** The map's key (a posting or voiding record is kept under its own id). */
    key: string[];
    id: string[];
    debitAccountId: string[];
    creditAccountId: string[];
    amount: string[];
    currency: string[];
    pending: boolean[];
    code: string[];
    reference: (string | null)[];
    createdAt: (string | null)[];
    resolution: (TransferRecord['resolution'] | null)[];
    postedAmount: (string | null)[];
  };
}

/** What evolve stores for a transfer: the record plus the event's creation time. */
type StoredTransfer = TransferRecord & { createdAt?: string };

const COLUMNS = [
  'key',
  'id',
  'debitAccountId',
  'creditAccountId',
  'amount',
  'currency',
  'pending',
  'code',
  'reference',
  'createdAt',
  'resolution',
  'postedAmount',
] as const;

function encode(state: LedgerState): EncodedLedger {
  const accounts = [...state.accounts.values()].map(
    (a) =>
      [
        a.id,
        a.currency,
        a.allowNegative,
        a.debitsPosted.toString(),
        a.creditsPosted.toString(),
        a.debitsPending.toString(),
        a.creditsPending.toString(),
      ] as EncodedLedger['accounts'][number],
  );
  const t = Object.fromEntries(COLUMNS.map((c) => [c, [] as unknown[]])) as unknown as EncodedLedger['transfers'];
  for (const [key, r] of state.transfers as Map<string, StoredTransfer>) {
    if (settledRecord(r)) continue;
    t.key.push(key);
    t.id.push(r.id);
    t.debitAccountId.push(r.debitAccountId);
    t.creditAccountId.push(r.creditAccountId);
    t.amount.push(r.amount.toString());
    t.currency.push(r.currency);
    t.pending.push(r.pending);
    t.code.push(r.code);
    t.reference.push(r.reference ?? null);
    t.createdAt.push(r.createdAt ?? null);
    t.resolution.push(r.resolution ?? null);
    t.postedAmount.push(r.postedAmount === undefined ? null : r.postedAmount.toString());
  }
  return { accounts, transfers: t };
}

/** Every transfer but a pending one not yet posted or voided: no command changes it any more. */
const settledRecord = (r: TransferRecord): boolean => !r.pending || r.resolution !== undefined;

function encodeBinary(state: LedgerState): Uint8Array {
  return state.settled.with([...state.transfers].filter(([, r]) => settledRecord(r))).bytes;
}

function decode(encoded: unknown, binary?: ByteSource): LedgerState {
  const { accounts, transfers: t } = encoded as EncodedLedger;
  if (!binary) throw new Error('ledger snapshot: no settled transfers');
  const state: LedgerState = { accounts: new Map(), transfers: new Map(), settled: SettledTransfers.over(binary) };
  for (const [id, currency, allowNegative, debitsPosted, creditsPosted, debitsPending, creditsPending] of accounts) {
    const account: LedgerAccount = {
      id,
      currency,
      allowNegative,
      debitsPosted: BigInt(debitsPosted),
      creditsPosted: BigInt(creditsPosted),
      debitsPending: BigInt(debitsPending),
      creditsPending: BigInt(creditsPending),
    };
    state.accounts.set(id, account);
  }
  const size = t.key.length;
  if (COLUMNS.some((c) => t[c].length !== size)) throw new Error('ledger snapshot: transfer columns differ in length');
  for (let i = 0; i < size; i++) {
    // The fields in the order evolve writes them, so a restored record is the same object shape as a folded one.
    const r: StoredTransfer = {
      id: t.id[i],
      debitAccountId: t.debitAccountId[i],
      creditAccountId: t.creditAccountId[i],
      amount: BigInt(t.amount[i]),
      currency: t.currency[i],
      pending: t.pending[i],
      code: t.code[i],
    };
    const reference = t.reference[i];
    const createdAt = t.createdAt[i];
    const resolution = t.resolution[i];
    const postedAmount = t.postedAmount[i];
    if (reference !== null) r.reference = reference;
    if (createdAt !== null) r.createdAt = createdAt;
    if (resolution !== null) r.resolution = resolution;
    if (postedAmount !== null) r.postedAmount = BigInt(postedAmount);
    state.transfers.set(t.key[i], r);
  }
  return state;
}

/** Shared by every decider of the ledger stream (single commands and batches). */
export const ledgerSnapshot: SnapshotCodec<LedgerState> = {
  name: 'ledger',
  version: 2,
  encode,
  encodeBinary,
  decode,
  // Evolve never changes the settled set (a snapshot's merge makes a new one): it is still the one of those bytes.
  rebind: (state, binary) => ({ ...state, settled: SettledTransfers.over(binary) }),
};
