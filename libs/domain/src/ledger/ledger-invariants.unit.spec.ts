import { describe, expect, it } from '@jest/globals';
import { LedgerInvariants } from './ledger-invariants.js';

const opened = (id: string, allowNegative = false) => ({
  type: 'LedgerAccountOpened',
  data: { id, currency: 'USD', allowNegative },
});
const AT = '2026-01-01T00:00:00.000Z';
const transfer = (id: string, debit: string, credit: string, amount: number, pending = false, currency = 'USD') => ({
  type: 'TransferCreated',
  data: { id, debitAccountId: debit, creditAccountId: credit, amount: String(amount), currency, pending, code: 'T' },
});

function check(events: { type: string; data: Record<string, unknown> }[]) {
  const ledger = new LedgerInvariants('ledger-1');
  for (const e of events) ledger.apply(e);
  return ledger.findings();
}

describe('ledger invariants', () => {
  const base = [opened('S', true), opened('A'), opened('B')];

  it('hold for balanced transfers, holds and posts', () => {
    expect(
      check([
        ...base,
        transfer('t1', 'S', 'A', 1_000),
        transfer('t2', 'A', 'B', 400, true),
        { type: 'PendingTransferPosted', data: { id: 't3', pendingId: 't2', amount: '300', createdAt: AT } },
      ]),
    ).toEqual([]);
  });

  it('name an account that goes negative when it may not, counting holds', () => {
    expect(check([...base, transfer('t1', 'S', 'A', 100), transfer('t2', 'A', 'B', 150, true)])).toEqual([
      'ledger-1: account A is negative (-50) and may not be',
    ]);
  });

  it('name a transfer across currencies, to itself, or of nothing, and a post larger than its hold', () => {
    const findings = check([
      ...base,
      transfer('t1', 'S', 'A', 100, false, 'EUR'),
      transfer('t2', 'S', 'S', 5),
      transfer('t3', 'S', 'B', 0),
      transfer('t4', 'S', 'B', 10, true),
      { type: 'PendingTransferPosted', data: { id: 't5', pendingId: 't4', amount: '11', createdAt: AT } },
    ]);
    expect(findings).toEqual(
      expect.arrayContaining([
        'ledger-1: transfer t1 in EUR touches S in USD',
        'ledger-1: transfer t2 debits and credits the same account S',
        'ledger-1: transfer t3 moves a non-positive amount 0',
        'ledger-1: t5 posts 11 of a 10 hold',
      ]),
    );
  });
});
