import { describe, expect, it } from '@jest/globals';
import type { BankEntry, BankMessage } from '#domain/payments/rails/bank-messages.js';
import { partsOf } from './file-rail.js';

const entry = (n: number): BankEntry => ({
  entryReference: `E${n}`,
  amount: String(100 + n),
  currency: 'USD',
  creditDebit: 'DBIT',
  status: 'BOOK',
  bookingDate: '2026-03-09',
  endToEndId: `TX-${String(n).padStart(12, '0')}`,
});

const notification = (count: number): BankMessage => ({
  type: 'NOTIFICATION',
  messageId: 'N1',
  account: { accountNumber: '7000123456', currency: 'USD' },
  entries: Array.from({ length: count }, (_, i) => entry(i + 1)),
});

describe('an inbox file in parts', () => {
  it('keeps a file within a record whole, under its digest', () => {
    const message = notification(3);
    expect(partsOf('abc', message, 3)).toEqual([{ key: 'abc', message }]);
    const report: BankMessage = { type: 'STATUS_REPORT', messageId: 'R', originalMessageId: 'M', transactions: [] };
    expect(partsOf('def', report, 1)).toEqual([{ key: 'def', message: report }]);
    expect(partsOf('ghi', { unreadable: 'not XML' }, 1)).toEqual([{ key: 'ghi', message: { unreadable: 'not XML' } }]);
  });

  it('splits a larger notification into parts keyed <digest>/<n>, every entry in exactly one, in order', () => {
    const parts = partsOf('abc', notification(7), 3);
    expect(parts.map((p) => p.key)).toEqual(['abc', 'abc/2', 'abc/3']);
    const entries = parts.flatMap((p) =>
      'type' in p.message && p.message.type === 'NOTIFICATION' ? p.message.entries : [],
    );
    expect(entries.map((e) => e.entryReference)).toEqual(['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7']);
    expect(parts.map((p) => ('type' in p.message ? p.message.messageId : ''))).toEqual(['N1', 'N1', 'N1']);
  });
});
