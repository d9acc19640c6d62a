import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { TransferRecord } from './ledger-state.js';
import { SettledTransfers } from './settled-transfers.js';

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

  it('refuses a truncated encoding', () => {
    const bytes = SettledTransfers.empty.with([['x', record(1n)]]).bytes;
    expect(() => SettledTransfers.fromBytes(bytes.subarray(0, 8))).toThrow(/truncated/);
  });
});
