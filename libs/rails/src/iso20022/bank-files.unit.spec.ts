import { describe, expect, it } from '@jest/globals';
import {
  Iso20022Error,
  readBankFile,
  readNotification,
  readNotifications,
  readPain001,
  readPain008,
  readStatement,
  readStatusReport,
} from './index.js';
import { CAMT053, CAMT054, PAIN001, PAIN002, PAIN008 } from './bank-files.fixtures.js';
import { CODECS } from './codecs.fixtures.js';
import { partlyAccepted, txStatus } from './samples.fixtures.js';
import { validateAgainstXsd } from './xmllint.fixtures.js';

describe('ISO 20022 readers on files from elsewhere', () => {
  it('the fixtures are valid ISO 20022 files', () => {
    for (const { type, file } of CODECS) expect(validateAgainstXsd(file, type).output).toMatch(/validates/);
  });

  it('reads a prefixed pain.002 with reason and extra elements', () => {
    expect(readStatusReport(PAIN002)).toEqual(
      partlyAccepted('BANK-PSR-000981', '2026-11-28T10:15:02.123+01:00', [
        txStatus('E2E-EUR-1', 'ACSC', 'PI-EUR-1'),
        txStatus('E2E-EUR-2', 'RJCT', 'PI-EUR-1', ['AM04', 'Insufficient funds & no overdraft']),
      ]),
    );
  });

  it('reads a file with a byte order mark and CRLF line ends', () => {
    expect(readStatusReport('\uFEFF' + PAIN002.replace(/\n/g, '\r\n')).transactions.length).toBe(2);
  });

  it('reads a tab-indented camt.054 with a return, several remittance lines and a pending entry', () => {
    const n = readNotification(CAMT054);
    expect(n.account).toEqual({
      name: 'Payments Platform GmbH',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      currency: 'EUR',
    });
    expect(n.entries[0]).toEqual({
      entryReference: '0001',
      amount: { minor: 25000n, currency: 'EUR' },
      creditDebit: 'CRDT',
      status: 'BOOK',
      bookingDate: '2026-11-28',
      valueDate: '2026-11-29',
      bankReference: 'BANKREF-1',
      reversal: false,
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subFamily: 'RRTN' },
      details: [
        {
          endToEndId: 'E2E-EUR-9',
          remittanceInformation: 'Invoice 2026-0042 second line',
          returnReasonCode: 'AC06',
          counterparty: { name: 'Jan de Vries', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' },
        },
      ],
    });
    expect(n.entries[1]).toMatchObject({ entryReference: 'BANKREF-2', amount: { minor: 1000n }, status: 'PDNG' });
    expect(n.entries[1].bookingDate).toBe('2026-11-30');
  });

  it('reads a prefixed camt.053 whose opening balance is the previous day closing (PRCD)', () => {
    const s = readStatement(CAMT053);
    expect(s.date).toBe('2026-11-28');
    expect(s.account).toEqual({
      name: 'Payments Platform Inc',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      currency: 'USD',
    });
    expect(s.openingBalance).toEqual({ amount: { minor: 100000n, currency: 'USD' }, creditDebit: 'CRDT' });
    expect(s.closingBalance.amount.minor).toBe(98901n);
    expect(s.entries[0].details[0]).toEqual({
      endToEndId: 'E2E-USD-1',
      counterparty: { name: 'Jane Q. Payee', accountNumber: '987654321' },
    });
  });

  it('reads a pain.001 and a pain.008 from other software', () => {
    const p1 = readPain001(PAIN001);
    expect(p1.payments[0].requestedExecutionDate).toBe('2026-11-30');
    expect(p1.payments[0].debtor).toEqual({ name: 'Payments Platform GmbH', iban: 'DE89370400440532013000' });
    expect(p1.payments[0].transfers).toEqual([
      {
        endToEndId: 'E-1',
        instructionId: 'I-1',
        amount: { minor: 9990n, currency: 'EUR' },
        creditor: { name: 'Jan de Vries', iban: 'NL91ABNA0417164300' },
      },
    ]);
    const p8 = readPain008(PAIN008);
    expect(p8.payments[0].collections[0]).toEqual({
      endToEndId: 'C-1',
      amount: { minor: 550n, currency: 'EUR' },
      debtor: { name: 'Jan de Vries', iban: 'NL91ABNA0417164300' },
      mandate: { id: 'M-1', signedOn: '2026-01-01' },
      remittanceInformation: 'Membership',
    });
  });

  it('reads whatever the inbox holds by its namespace, and several accounts in one file', () => {
    expect(readBankFile(PAIN002)).toMatchObject({ type: 'pain.002.001.10', report: { messageId: 'BANK-PSR-000981' } });
    expect(readBankFile(CAMT053)).toMatchObject({ type: 'camt.053.001.08', statements: [{ date: '2026-11-28' }] });
    const twoAccounts = CAMT054.replace(/(<Ntfctn>[\s\S]*<\/Ntfctn>)/, '$1$1');
    const read = readBankFile(twoAccounts);
    expect(read.type === 'camt.054.001.08' && read.notifications.length).toBe(2);
    expect(readNotifications(twoAccounts)[1].entries.length).toBe(2);
    expect(() => readNotification(twoAccounts)).toThrow(/holds 2 Ntfctn/);
    expect(() => readBankFile(PAIN001)).toThrow(Iso20022Error);
    expect(() => readBankFile(PAIN001)).toThrow(/not a bank file the service reads \(namespace .*pain.001.001.09\)/);
    expect(() => readBankFile('garbage')).toThrow(/namespace missing/);
  });
});
