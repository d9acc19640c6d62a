import { describe, expect, it } from '@jest/globals';
import { isValidIban } from './bank-rails.js';
import { bankDepositAccount, depositRails, sandboxDepositAccount } from './deposit-accounts.js';

const DIGITS = '004815162342';

/** Each currency's variant: the public API's fields for it, in the formats it gives them. */
const VARIANTS: [code: string, fields: Record<string, RegExp>][] = [
  ['USD', { accountNumber: /^\d{12}$/, routingNumber: /^\d{9}$/ }],
  ['EUR', { iban: /^DE\d{20}$/, swiftCode: /^[A-Z]{6}[A-Z0-9]{2}$/ }],
  ['AED', { iban: /^AE\d{21}$/, swiftCode: /^[A-Z]{6}[A-Z0-9]{2}$/ }],
  ['MXN', { clabeNumber: /^\d{18}$/ }],
  ['GBP', { sortCode: /^\d{6}$/, accountNumber: /^\d{8}$/ }],
  ['INR', { vpa: /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/ }],
  ['BRL', { qrCode: /^000201.+6304[0-9A-F]{4}$/ }],
  ['NGN', { accountNumber: /^\d{10}$/, bankName: /.+/ }],
  ['PHP', { accountNumber: /^\d{8,16}$/, bankName: /.+/ }],
  ['CAD', { bankCode: /^\d{3}$/, branchCode: /^\d{5}$/, accountNumber: /^\d{7,12}$/ }],
];

describe('deposit accounts', () => {
  it.each(VARIANTS)('names a %s deposit with the fields of its variant and the reference', (code, fields) => {
    const info = sandboxDepositAccount(code, DIGITS, 'FUND-0A1B2C3D');
    expect(info).toMatchObject({ accountType: `${code}_ACCOUNT`, reference: 'FUND-0A1B2C3D' });
    for (const [field, format] of Object.entries(fields))
      expect({ field, value: info[field] }).toEqual({
        field,
        value: expect.stringMatching(format),
      });
  });

  it('gives IBANs whose check digits hold and a CLABE whose control digit does', () => {
    for (const code of ['EUR', 'AED'])
      expect(isValidIban(sandboxDepositAccount(code, DIGITS, 'R').iban as string)).toBe(true);
    const clabe = sandboxDepositAccount('MXN', DIGITS, 'R').clabeNumber as string;
    const sum = [...clabe.slice(0, 17)].reduce((acc, d, i) => acc + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
    expect(Number(clabe[17])).toBe((10 - (sum % 10)) % 10);
  });

  it('names the rails in the public API’s words: all for funding, the instant ones for a quote', () => {
    expect(depositRails('USD')).toEqual(['ACH', 'WIRE', 'RTP']);
    expect(depositRails('USD', true)).toEqual(['RTP']);
    expect(depositRails('EUR', true)).toEqual(['SEPA_INSTANT']);
    expect(depositRails('PHP', true)).toEqual(['BANK_TRANSFER']);
    expect(sandboxDepositAccount('BRL', DIGITS, 'R').paymentRails).toBeUndefined();
  });

  it('shows a bank rail’s IBAN account with its BIC as swiftCode', () => {
    const account = { name: 'Acme', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };
    expect(bankDepositAccount('EUR', account, 'FUND-0A1B2C3D')).toEqual({
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013000',
      swiftCode: 'COBADEFFXXX',
      bankName: 'BIC COBADEFFXXX',
      paymentRails: ['SEPA', 'SEPA_INSTANT'],
      reference: 'FUND-0A1B2C3D',
    });
  });
});
