import { hash } from 'node:crypto';
import { bytesSource, type ByteSource } from '../snapshot-codec.js';

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

// The settled transfers a state keeps (`settled`): 18 bytes each, sorted, searched where they lie.

/** One entry: the key's hash, the fields' fingerprint, the flags. */
const KEY_BYTES = 12;
const FINGERPRINT_BYTES = 5;
const ENTRY = KEY_BYTES + FINGERPRINT_BYTES + 1;
const PENDING = 1;
const POSTED = 2;
const VOIDED = 4;

/** What the ledger still knows of a settled transfer: whether it was pending and how it was resolved. */
export interface SettledTransfer {
  pending: boolean;
  resolution?: 'POSTED' | 'VOIDED';
  /** Whether a transfer with these fields is the same one (an idempotent repeat rather than a conflict). */
  sameAs(fields: TransferFields): boolean;
}

/** The fields that make a repeated CreateTransfer the same transfer. */
export interface TransferFields {
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  pending: boolean;
}

/** What an entry is made of: a TransferRecord has these members. */
interface SettledRecord extends TransferFields {
  resolution?: 'POSTED' | 'VOIDED';
}

const sha256 = (text: string): Buffer => hash('sha256', text, 'buffer') as unknown as Buffer;

const keyHash = (key: string): Buffer => sha256(key).subarray(0, KEY_BYTES);

/**
 * 40 bits of two FNV-1a lanes over the fields: a fingerprint only tells a repeat from a conflicting reuse of an id
 * the service chose, so it needs no cryptographic strength (a key hash does: it decides what a new id is).
 */
function fingerprint(f: TransferFields): string {
  const text = `${f.debitAccountId}\n${f.creditAccountId}\n${f.amount.toString()}\n${f.pending ? 1 : 0}`;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return String.fromCharCode(a & 0xff, (a >>> 8) & 0xff, (a >>> 16) & 0xff, (a >>> 24) & 0xff, b & 0xff);
}

/** An entry as a latin1 string: one character a byte, so strings sort as their bytes do. */
function entryOf(key: string, r: SettledRecord): string {
  const flags =
    (r.pending ? PENDING : 0) | (r.resolution === 'POSTED' ? POSTED : 0) | (r.resolution === 'VOIDED' ? VOIDED : 0);
  return keyHash(key).toString('latin1') + fingerprint(r) + String.fromCharCode(flags);
}

/** The order of a's key at aAt against b's key at bAt (negative when a's comes first). */
const compareKeys = (a: Buffer, aAt: number, b: Buffer, bAt: number): number =>
  a.compare(b, bAt, bAt + KEY_BYTES, aAt, aAt + KEY_BYTES);

/** The same bytes as a Buffer (a view, not a copy). */
const view = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The byte offset of the first of `entries` from entry `lo` on whose key is not below `key`; whether it is equal. */
function search(entries: Buffer, key: Buffer, lo: number): { at: number; found: boolean } {
  const size = entries.length / ENTRY;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(entries, mid * ENTRY, key, 0) < 0) lo = mid + 1;
    else hi = mid;
  }
  const at = lo * ENTRY;
  return { at, found: lo < size && compareKeys(entries, at, key, 0) === 0 };
}

/**
 * Entries a set read by range reads at once when its search has narrowed to them (4.5 KiB): one read a lookup once
 * the keys above them are known.
 */
const BLOCK_ENTRIES = 256;

/**
 * The transfers of a long ledger that no later command can change: every transfer except a pending one not yet
 * posted or voided. A ledger decides on them only whether a transfer id was used (a repeat is a no-op, other fields
 * under it are a conflict) and, for a resolved hold, how it was resolved, so each is kept as 18 bytes: the first 12
 * bytes of the SHA-256 of its key, a 40-bit fingerprint of the fields a repeat must match, and its flags,
 * sorted by key hash for a binary search. A snapshot keeps these bytes as they are (its binary part), so a ledger of a
 * million transfers restores without parsing a record per transfer. Two keys would have to share 96 bits
 * of hash to be confused (about 10^-17 for ten million keys), and a repeat with other fields would pass as the same
 * transfer only if 40 bits of fingerprint matched (10^-12).
 *
 * A set restored from a snapshot whose binary part lies in a file is searched there, by range, and never read whole
 * until the next snapshot merges it: restoring a ledger reads none of its settled transfers, and a lookup reads the
 * keys on its way down (kept: the upper levels are the same for every search, about two keys per block in all) and
 * then one block of entries.
 */
export class SettledTransfers {
  static readonly empty = new SettledTransfers(bytesSource(Buffer.alloc(0)));

  /** The entries when they are held in memory. */
  private readonly whole: Buffer | undefined;
  /** Keys read by a search by range, by entry index, as latin1 strings (which sort as their bytes do). */
  private readonly keys = new Map<number, string>();

  private constructor(private readonly source: ByteSource) {
    this.whole = source.bytes && view(source.bytes);
  }

  get size(): number {
    return this.source.byteLength / ENTRY;
  }

  /** Whether the entries are held in memory (else they are read by range where they lie). */
  get held(): boolean {
    return this.whole !== undefined;
  }

  /** The set over these entries, held or read by range (not copied: a set never changes its bytes). */
  static over(source: ByteSource): SettledTransfers {
    if (source.byteLength % ENTRY !== 0) throw new Error('settled transfers: truncated entries');
    return new SettledTransfers(source);
  }

  /** The set over these bytes (not copied). */
  static fromBytes(bytes: Uint8Array): SettledTransfers {
    return SettledTransfers.over(bytesSource(bytes));
  }

  /** The sorted entries, as a snapshot keeps them (read whole from where they lie). */
  get bytes(): Uint8Array {
    return this.entries();
  }

  get(key: string): SettledTransfer | undefined {
    const entry = this.entry(keyHash(key));
    if (!entry) return undefined;
    const flags = entry[ENTRY - 1];
    const stored = entry.toString('latin1', KEY_BYTES, KEY_BYTES + FINGERPRINT_BYTES);
    return {
      pending: (flags & PENDING) !== 0,
      ...(flags & POSTED ? { resolution: 'POSTED' as const } : flags & VOIDED ? { resolution: 'VOIDED' as const } : {}),
      sameAs: (fields) => stored === fingerprint(fields),
    };
  }

  has(key: string): boolean {
    return this.entry(keyHash(key)) !== undefined;
  }

  /**
   * These entries and the given records (which win over an entry of the same key), as a new set held in memory: the
   * records are sorted as strings of their bytes, and each is placed into the sorted entries by a binary search, so
   * adding a snapshot's worth of transfers to a long ledger's set copies it once.
   */
  with(records: Iterable<[string, SettledRecord]>): SettledTransfers {
    const sorted = [...records].map(([key, r]) => entryOf(key, r)).sort();
    // the sort is stable: of entries with one key, the last given is kept
    const added = sorted.filter(
      (e, i) => i + 1 === sorted.length || e.slice(0, KEY_BYTES) !== sorted[i + 1].slice(0, KEY_BYTES),
    );
    if (added.length === 0) return this;
    if (this.size === 0) return SettledTransfers.fromBytes(Buffer.from(added.join(''), 'latin1'));
    const base = this.entries();
    const out = Buffer.alloc(base.length + added.length * ENTRY);
    let o = 0;
    let from = 0;
    for (const entry of added) {
      const bytes = Buffer.from(entry, 'latin1');
      const { at, found } = search(base, bytes, from / ENTRY);
      o += base.copy(out, o, from, at);
      o += bytes.copy(out, o);
      from = found ? at + ENTRY : at;
    }
    o += base.copy(out, o, from);
    return SettledTransfers.fromBytes(out.subarray(0, o));
  }

  private entries(): Buffer {
    return this.whole ?? view(this.source.read(0, this.source.byteLength));
  }

  /** The entry of this key hash, or undefined. */
  private entry(key: Buffer): Buffer | undefined {
    if (this.whole) {
      const { at, found } = search(this.whole, key, 0);
      return found ? this.whole.subarray(at, at + ENTRY) : undefined;
    }
    const wanted = key.toString('latin1');
    let lo = 0;
    let hi = this.size;
    while (hi - lo >= BLOCK_ENTRIES) {
      const mid = (lo + hi) >>> 1;
      if (this.keyAt(mid) < wanted) lo = mid + 1;
      else hi = mid;
    }
    // The first key not below the wanted one is in [lo, hi]: the entry at hi may be the one.
    const block = view(this.source.read(lo * ENTRY, (Math.min(hi + 1, this.size) - lo) * ENTRY));
    const { at, found } = search(block, key, 0);
    return found ? block.subarray(at, at + ENTRY) : undefined;
  }

  private keyAt(index: number): string {
    let key = this.keys.get(index);
    if (key === undefined) {
      key = view(this.source.read(index * ENTRY, KEY_BYTES)).toString('latin1');
      this.keys.set(index, key);
    }
    return key;
  }
}
