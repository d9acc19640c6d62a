import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { ByteSource } from '../snapshot-codec.js';
import { SettledTransfers, type TransferRecord } from './ledger-state.js';

const record = (amount: bigint, pending = false, resolution?: 'POSTED' | 'VOIDED'): TransferRecord => ({
  id: 'ignored',
  debitAccountId: 'a',
  creditAccountId: 'b',
  amount,
  currency: 'USD',
  pending,
  code: 'TEST',
  ...(resolution ? { resolution } : {}),
});

describe('settled transfers', () => {
  it('finds every key added in any number of merges, and no other', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 30 }), { maxLength: 6 }),
        fc.array(fc.string({ minLength: 13, maxLength: 20 }), { maxLength: 20 }),
        (batches, absent) => {
          let set = SettledTransfers.empty;
          const added = new Map<string, bigint>();
          batches.forEach((keys, b) => {
            set = set.with(keys.map((k) => [k, record(BigInt(b + 1))]));
            for (const k of keys) added.set(k, BigInt(b + 1));
          });
          set = SettledTransfers.fromBytes(Buffer.from(set.bytes));
          expect(set.size).toBe(added.size);
          for (const [k, amount] of added) {
            const found = set.get(k);
            expect(found?.sameAs(record(amount))).toBe(true);
            expect(found?.sameAs(record(amount + 1n))).toBe(false);
          }
          for (const k of absent) expect(set.has(k)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps whether a transfer was pending and how it was resolved', () => {
    const set = SettledTransfers.empty.with([
      ['posted', record(5n, true, 'POSTED')],
      ['voided', record(5n, true, 'VOIDED')],
      ['plain', record(5n)],
    ]);
    expect(set.get('posted')).toMatchObject({ pending: true, resolution: 'POSTED' });
    expect(set.get('voided')).toMatchObject({ pending: true, resolution: 'VOIDED' });
    expect(set.get('plain')).toMatchObject({ pending: false });
    expect(set.get('plain')?.resolution).toBeUndefined();
    expect(set.get('plain')?.sameAs({ ...record(5n), pending: true })).toBe(false);
  });

  it('searched by range where its bytes lie, finds what the whole bytes find, one read a lookup once warm', () => {
    const records = Array.from({ length: 5000 }, (_, i): [string, TransferRecord] => [`t-${i}`, record(BigInt(i + 1))]);
    const bytes = Buffer.from(SettledTransfers.empty.with(records).bytes);
    const reads: number[] = [];
    // a source without `bytes`, as a snapshot's file is: every range is read (and counted)
    const file: ByteSource = {
      byteLength: bytes.length,
      read: (offset, length) => (reads.push(length), Buffer.from(bytes.subarray(offset, offset + length))),
    };
    const ranged = SettledTransfers.over(file);
    expect(reads).toEqual([]);
    for (let i = 0; i < 5000; i += 7) {
      expect(ranged.get(`t-${i}`)?.sameAs(record(BigInt(i + 1)))).toBe(true);
      expect(ranged.has(`u-${i}`)).toBe(false);
    }
    reads.length = 0;
    for (let i = 0; i < 100; i++) ranged.has(`t-${i}`);
    // the keys above the blocks are kept from the earlier lookups: one read of at most one block each
    expect(reads).toHaveLength(100);
    expect(Math.max(...reads)).toBeLessThanOrEqual(256 * 18);
    // a merge reads it whole and holds the result
    const merged = ranged.with([['t-new', record(1n)]]);
    expect(merged.size).toBe(5001);
    expect(Buffer.from(merged.bytes).length).toBe(bytes.length + 18);
    expect(merged.has('t-4999') && merged.has('t-new')).toBe(true);
  });

  it('searched by range, finds exactly the keys the whole bytes hold, whatever their number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 999 }), (count, salt) => {
        const keys = Array.from({ length: count }, (_, i) => `k-${salt}-${i}`);
        const bytes = Buffer.from(SettledTransfers.empty.with(keys.map((k) => [k, record(1n)])).bytes);
        const ranged = SettledTransfers.over({ byteLength: bytes.length, read: (o, n) => bytes.subarray(o, o + n) });
        for (const k of keys) expect(ranged.has(k)).toBe(true);
        for (let i = 0; i < 50; i++) expect(ranged.has(`k-${salt}-${count + i}`)).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a truncated encoding', () => {
    const bytes = SettledTransfers.empty.with([['x', record(1n)]]).bytes;
    expect(() => SettledTransfers.fromBytes(bytes.subarray(0, 8))).toThrow(/truncated/);
  });
});
