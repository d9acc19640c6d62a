import { hash } from 'node:crypto';

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

/** What an entry is made of: a transfer record (ledger-state.ts) has these members. */
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

/**
 * The transfers of a long ledger that no later command can change: every transfer except a pending one not yet
 * posted or voided. A ledger decides on them only whether a transfer id was used (a repeat is a no-op, other fields
 * under it are a conflict) and, for a resolved hold, how it was resolved, so each is kept as 18 bytes: the first 12
 * bytes of the SHA-256 of its key, a 40-bit fingerprint of the fields a repeat must match, and its flags,
 * sorted by key hash for a binary search. A snapshot keeps these bytes as they are (its binary part), so a ledger of a
 * million transfers restores without parsing a record per transfer. Two keys would have to share 96 bits
 * of hash to be confused (about 10^-17 for ten million keys), and a repeat with other fields would pass as the same
 * transfer only if 40 bits of fingerprint matched (10^-12).
 */
export class SettledTransfers {
  static readonly empty = new SettledTransfers(Buffer.alloc(0));

  private constructor(private readonly entries: Buffer) {}

  get size(): number {
    return this.entries.length / ENTRY;
  }

  /** The set over these bytes (not copied: a set never changes its bytes). */
  static fromBytes(bytes: Uint8Array): SettledTransfers {
    const entries = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (entries.length % ENTRY !== 0) throw new Error('settled transfers: truncated entries');
    return new SettledTransfers(entries);
  }

  /** The sorted entries, as a snapshot keeps them. */
  get bytes(): Uint8Array {
    return this.entries;
  }

  get(key: string): SettledTransfer | undefined {
    const at = this.find(keyHash(key));
    if (at < 0) return undefined;
    const flags = this.entries[at + ENTRY - 1];
    const stored = this.entries.toString('latin1', at + KEY_BYTES, at + KEY_BYTES + FINGERPRINT_BYTES);
    return {
      pending: (flags & PENDING) !== 0,
      ...(flags & POSTED ? { resolution: 'POSTED' as const } : flags & VOIDED ? { resolution: 'VOIDED' as const } : {}),
      sameAs: (fields) => stored === fingerprint(fields),
    };
  }

  has(key: string): boolean {
    return this.find(keyHash(key)) >= 0;
  }

  /**
   * These entries and the given records (which win over an entry of the same key), as a new set: the records are
   * sorted as strings of their bytes, and each is placed into the sorted entries by a binary search, so adding a
   * snapshot's worth of transfers to a long ledger's set copies it once.
   */
  with(records: Iterable<[string, SettledRecord]>): SettledTransfers {
    const sorted = [...records].map(([key, r]) => entryOf(key, r)).sort();
    // the sort is stable: of entries with one key, the last given is kept
    const added = sorted.filter(
      (e, i) => i + 1 === sorted.length || e.slice(0, KEY_BYTES) !== sorted[i + 1].slice(0, KEY_BYTES),
    );
    if (added.length === 0) return this;
    if (this.size === 0) return new SettledTransfers(Buffer.from(added.join(''), 'latin1'));
    const base = this.entries;
    const out = Buffer.alloc(base.length + added.length * ENTRY);
    let o = 0;
    let from = 0;
    for (const entry of added) {
      const bytes = Buffer.from(entry, 'latin1');
      const { at, found } = this.search(bytes, from / ENTRY);
      o += base.copy(out, o, from, at);
      o += bytes.copy(out, o);
      from = found ? at + ENTRY : at;
    }
    o += base.copy(out, o, from);
    return new SettledTransfers(out.subarray(0, o));
  }

  private find(key: Buffer): number {
    const { at, found } = this.search(key, 0);
    return found ? at : -1;
  }

  /** The byte offset of the first entry from entry `lo` on whose key is not below `key`, and whether it is equal. */
  private search(key: Buffer, lo: number): { at: number; found: boolean } {
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.entries, mid * ENTRY, key, 0) < 0) lo = mid + 1;
      else hi = mid;
    }
    const at = lo * ENTRY;
    return { at, found: lo < this.size && compareKeys(this.entries, at, key, 0) === 0 };
  }
}
