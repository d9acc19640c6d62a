import { describe, expect, it } from '@jest/globals';
import { BankFile, BankSimulator } from './bank-simulator.js';
import {
  BankAccount,
  Pain001,
  messageTypeOf,
  readNotification,
  readStatement,
  readStatusReport,
  writePain001,
  writePain008,
} from './iso20022/index.js';
import { ourEur, ourUsd, pain008 } from './iso20022/samples.fixtures.js';
import { validateAgainstXsd } from './iso20022/xmllint.fixtures.js';

const payee = (suffix: string): BankAccount => ({ name: `Payee ${suffix}`, iban: `NL91ABNA0417164${suffix}` });
const day1 = new Date('2026-11-28T10:00:00Z');
const day1Later = new Date('2026-11-28T15:00:00Z');
const day2 = new Date('2026-11-29T10:00:00Z');

/** A payout file with one transfer of 10.00 EUR per counterparty suffix. */
function payouts(messageId: string, suffixes: string[]): BankFile {
  const m: Pain001 = {
    messageId,
    createdAt: '2026-11-28T09:00:00Z',
    initiatingPartyName: 'Payments Platform',
    payments: [
      {
        paymentInformationId: `${messageId}-P1`,
        requestedExecutionDate: '2026-11-28',
        debtor: ourEur,
        transfers: suffixes.map((s) => ({
          endToEndId: `${messageId}-${s}`,
          amount: { minor: 1000n, currency: 'EUR' },
          creditor: payee(s),
          remittanceInformation: `payout ${s}`,
        })),
      },
    ],
  };
  return { name: `${messageId}.xml`, xml: writePain001(m) };
}

function expectValid(files: BankFile[]): void {
  for (const f of files) {
    const type = messageTypeOf(f.xml)!;
    expect({ name: f.name, ...validateAgainstXsd(f.xml, type) }).toMatchObject({ name: f.name, ok: true });
  }
}

const statuses = (f: BankFile) =>
  readStatusReport(f.xml).transactions.map((t) => [t.endToEndId.split('-').pop(), t.status, t.reasonCode]);

describe('bank simulator', () => {
  const bank = () => BankSimulator.create([{ account: ourEur, currency: 'EUR', balance: 100000n }]);

  it('answers payouts by the counterparty suffix table, now and in the next run', () => {
    const b = bank();
    const first = b.process({ files: [payouts('PO1', ['001', '002', '003', '004', '005', '006'])], now: day1 });
    expectValid(first);
    expect(first.map((f) => f.name)).toEqual([
      'bank-000003.pain.002.PO1.xml',
      'bank-000004.camt.054.DE89370400440532013000.xml',
    ]);
    expect(readStatusReport(first[0].xml).groupStatus).toBe('PART');
    expect(statuses(first[0])).toEqual([
      ['001', 'ACSC', undefined],
      ['002', 'RJCT', 'AM04'],
      ['003', 'RJCT', 'AC04'],
      ['004', 'ACSP', undefined],
      ['005', 'ACSC', undefined],
      ['006', 'ACSP', undefined],
    ]);
    const booked = readNotification(first[1].xml).entries;
    expect(booked.map((e) => [e.creditDebit, e.amount.minor, e.details[0].endToEndId])).toEqual([
      ['DBIT', 1000n, 'PO1-001'],
      ['DBIT', 1000n, 'PO1-005'],
    ]);
    expect(b.balanceOf(ourEur)).toBe(98000n);

    const second = b.process({ files: [], now: day1Later });
    expectValid(second);
    expect(statuses(second[0])).toEqual([
      ['004', 'RJCT', 'AG01'],
      ['006', 'ACSC', undefined],
    ]);
    const next = readNotification(second[1].xml).entries;
    expect(next[0]).toMatchObject({
      creditDebit: 'CRDT',
      amount: { minor: 1000n },
      bankTransactionCode: { family: 'ICDT', subFamily: 'RRTN' },
      details: [{ endToEndId: 'PO1-005', returnReasonCode: 'AC06', counterparty: payee('005') }],
    });
    expect(next[1]).toMatchObject({ creditDebit: 'DBIT', details: [{ endToEndId: 'PO1-006' }] });
    expect(b.balanceOf(ourEur)).toBe(98000n);
    expect(b.process({ files: [], now: day1Later })).toEqual([]);
  });

  it('rejects a MsgId it has seen as a duplicate (group RJCT DU01), and a file it cannot read (FF01)', () => {
    const b = bank();
    b.process({ files: [payouts('PO1', ['001'])], now: day1 });
    const again = b.process({ files: [payouts('PO1', ['001']), { name: 'junk.xml', xml: 'not xml' }], now: day1 });
    expectValid(again);
    const [dup, junk] = again.map((f) => readStatusReport(f.xml));
    expect(dup).toMatchObject({
      originalMessageId: 'PO1',
      groupStatus: 'RJCT',
      groupReasonCode: 'DU01',
      transactions: [],
    });
    expect(junk).toMatchObject({ groupStatus: 'RJCT', groupReasonCode: 'FF01' });
    expect(junk.groupAdditionalInformation).toMatch(/^junk.xml: not a pain.001.001.09 document/);
    expect(b.balanceOf(ourEur)).toBe(99000n);
  });

  it('collects by the debtor suffix table and books collections as credits', () => {
    const b = BankSimulator.create();
    const m = structuredClone(pain008);
    m.payments[0].collections[1].debtor = payee('005');
    const first = b.process({ files: [{ name: 'dd.xml', xml: writePain008(m) }], now: day1 });
    expectValid(first);
    expect(readStatusReport(first[0].xml).originalMessageType).toBe('pain.008.001.08');
    expect(first.filter((f) => f.name.includes('.camt.054.')).length).toBe(2);
    expect(b.balanceOf(ourEur)).toBe(254999n);
    expect(b.balanceOf(ourUsd)).toBe(1099n);
    const second = b.process({ files: [], now: day2 });
    expectValid(second);
    const entry = readNotification(second[0].xml).entries[0];
    expect(entry).toMatchObject({ creditDebit: 'DBIT', bankTransactionCode: { family: 'IDDT', subFamily: 'UPDD' } });
    expect(entry.details[0]).toMatchObject({ endToEndId: 'COL-2', returnReasonCode: 'AC06' });
    expect(b.balanceOf(ourEur)).toBe(4999n);
  });

  it('books a customer paying in with the next run', () => {
    const b = bank();
    b.incomingCredit({
      account: ourEur,
      amount: { minor: 2550n, currency: 'EUR' },
      remittanceInformation: 'wallet top-up W-9',
      debtor: payee('777'),
    });
    const [ntf] = b.process({ files: [], now: day1 });
    expectValid([ntf]);
    expect(readNotification(ntf.xml).entries[0]).toMatchObject({
      creditDebit: 'CRDT',
      amount: { minor: 2550n, currency: 'EUR' },
      details: [{ remittanceInformation: 'wallet top-up W-9', counterparty: payee('777') }],
    });
    expect(b.balanceOf(ourEur)).toBe(102550n);
  });

  it("states a day's booked entries with opening and closing balances", () => {
    const b = bank();
    b.process({ files: [payouts('PO1', ['001', '005'])], now: day1 });
    b.process({ files: [payouts('PO2', ['001'])], now: day2 });
    const stmt1 = b.endOfDay('2026-11-28');
    const stmt2 = b.endOfDay('2026-11-29', ourEur);
    expectValid([stmt1, stmt2]);
    const s1 = readStatement(stmt1.xml);
    expect([s1.openingBalance.amount.minor, s1.closingBalance.amount.minor, s1.entries.length]).toEqual([
      100000n,
      98000n,
      2,
    ]);
    const s2 = readStatement(stmt2.xml);
    expect([s2.openingBalance.amount.minor, s2.closingBalance.amount.minor, s2.entries.length]).toEqual([
      98000n,
      98000n,
      2,
    ]);
    expect(s2.date).toBe('2026-11-29');
    expect(stmt1.name).toMatch(/^bank-\d{6}\.camt\.053\.2026-11-28\.DE89370400440532013000\.xml$/);
    expect(b.endOfDayAll('2026-11-30').map((f) => readStatement(f.xml).entries.length)).toEqual([0]);
  });

  it('serialises its state to JSON and carries on exactly as if it had not', () => {
    const straight = bank();
    const saved = bank();
    const files = [payouts('PO1', ['001', '004', '005', '006'])];
    expect(saved.process({ files, now: day1 })).toEqual(straight.process({ files, now: day1 }));
    const revived = BankSimulator.fromJSON(JSON.parse(JSON.stringify(saved.toJSON())));
    expect(revived.toJSON()).toEqual(saved.toJSON());
    expect(revived.process({ files: [], now: day2 })).toEqual(straight.process({ files: [], now: day2 }));
    expect(revived.endOfDay('2026-11-28')).toEqual(straight.endOfDay('2026-11-28'));
    expect(() => BankSimulator.fromJSON({ hello: 1 })).toThrow(/not a bank simulator state/);
  });
});
