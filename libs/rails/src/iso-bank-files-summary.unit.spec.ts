import { describe, expect, it } from '@jest/globals';
import { BankFileUnreadable } from '#application/payments/rails/bank-files.js';
import { IsoBankFiles } from './iso-bank-files.js';
import { writeNotification, type Entry } from './iso20022/index.js';

const entry = (entryReference: string, minor: bigint): Entry => ({
  entryReference,
  amount: { minor, currency: 'USD' },
  creditDebit: 'DBIT',
  status: 'BOOK',
  bookingDate: '2026-11-28',
  details: [{ endToEndId: `E2E-${entryReference}` }],
});

const NOTIFICATION = writeNotification({
  messageId: 'N-1',
  createdAt: '2026-11-28T10:00:00Z',
  notificationId: 'N-1',
  account: { name: 'Acme', accountNumber: '7000123456', currency: 'USD' },
  entries: [entry('E1', 5000n), entry('E2', 1250n)],
});

/** The notification with a TxsSummry stating `count` entries adding up to `sum`. */
const summarised = (count: string, sum: string) =>
  NOTIFICATION.replace(
    '<Ntry>',
    `<TxsSummry><TtlNtries><NbOfNtries>${count}</NbOfNtries><Sum>${sum}</Sum></TtlNtries></TxsSummry><Ntry>`,
  );

function reasonOf(content: string): string {
  try {
    new IsoBankFiles('/nonexistent').read(content, 'USD');
  } catch (error) {
    expect(error).toBeInstanceOf(BankFileUnreadable);
    return (error as BankFileUnreadable).reason;
  }
  throw new Error('the file was read');
}

describe('a notification stating totals of its entries', () => {
  const files = new IsoBankFiles('/nonexistent');

  it('is read when the count and sum agree with the entries', () => {
    expect(files.read(summarised('2', '62.50'), 'USD')).toMatchObject({ type: 'NOTIFICATION', messageId: 'N-1' });
    expect(files.read(summarised('002', '62.500'), 'USD')).toMatchObject({ type: 'NOTIFICATION' });
  });

  it('is refused whole when they do not', () => {
    expect(reasonOf(summarised('3', '62.50'))).toBe('TxsSummry/TtlNtries/NbOfNtries is 3 but the file holds 2 entries');
    expect(reasonOf(summarised('2', '62.51'))).toBe('TxsSummry/TtlNtries/Sum is 62.51 but the entries add up to 62.50');
    expect(reasonOf(summarised('2', '62.505'))).toMatch(/Sum is 62.505/);
    expect(reasonOf(summarised('two', '62.50'))).toMatch(/NbOfNtries is two/);
  });
});
