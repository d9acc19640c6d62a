import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../errors.js';
import { accountInfoView } from './account-info-view.js';
import { ACCOUNT_TYPE_NAMES } from './account-types.js';
import { validateAccountInfo } from './account-validation.js';
import { outcomeSuffix, sandboxBeneficiaryCheck } from './beneficiary-check.js';

const fieldsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return ((error as DomainError).details?.errors ?? []).map((e) => e.field);
  }
  throw new Error('expected a validation failure');
};

const ada = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
const adaWithAddress = { ...ada, address: { line1: '1 Main St', postalCode: '10115', country: 'DE' } };

describe('account type rules', () => {
  it('knows every type of the public API, and nothing else', () => {
    expect(ACCOUNT_TYPE_NAMES).toHaveLength(44);
    for (const retired of ['IBAN_ACCOUNT', 'UPI', 'PIX']) expect(ACCOUNT_TYPE_NAMES).not.toContain(retired);
    for (const type of ['KES_ACCOUNT', 'SWIFT_ACCOUNT', 'BASE_WALLET', 'POLYGON_WALLET', 'TRON_WALLET'])
      expect(ACCOUNT_TYPE_NAMES).toContain(type);
  });

  it('gives each type’s primary identifier, or none when its identifying fields are all absent', () => {
    const mxn = { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771', beneficiary: ada };
    expect(validateAccountInfo(mxn, 'MXN').primaryIdentifier).toBe('002010077777777771');
    const inr = { accountType: 'INR_ACCOUNT', vpa: 'ada@okhdfc', beneficiary: ada };
    expect(validateAccountInfo(inr, 'INR').primaryIdentifier).toBe('ada@okhdfc');
    const kes = { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345102', provider: 'M-PESA', beneficiary: ada };
    expect(validateAccountInfo(kes, 'KES').primaryIdentifier).toBe('+254712345102');
    expect(validateAccountInfo({ accountType: 'SLV_ACCOUNT', beneficiary: ada }, 'SLV').primaryIdentifier).toBe('');
    const ln = { accountType: 'LIGHTNING', lightningAddress: 'ada@getalby.com' };
    expect(validateAccountInfo(ln, 'BTC').primaryIdentifier).toBe('ada@getalby.com');
  });

  it('takes bounds no tighter than the public API’s', () => {
    const usd = { accountType: 'USD_ACCOUNT', accountNumber: 'GB-1', routingNumber: '021000021', beneficiary: ada };
    expect(() => validateAccountInfo(usd, 'USD')).not.toThrow();
    const php = { accountType: 'PHP_ACCOUNT', accountNumber: '12345678', bankName: 'B', beneficiary: ada };
    expect(() => validateAccountInfo(php, 'PHP')).not.toThrow();
    const aed = { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', beneficiary: adaWithAddress };
    expect(() => validateAccountInfo(aed, 'AED')).not.toThrow();
    const wallet = { accountType: 'TRON_WALLET', address: 'TQ4ZrKqJ8yT1m2bB9pNk' };
    expect(() => validateAccountInfo(wallet, 'USDT')).not.toThrow();
    const swift = { accountType: 'SWIFT_ACCOUNT', country: 'JP', swiftCode: 'MHCBJPJT', bankName: 'Mizuho' };
    expect(() => validateAccountInfo({ ...swift, beneficiary: ada }, 'JPY')).not.toThrow();
  });

  it('requires a beneficiary on bank accounts, with the fields the type asks for', () => {
    const eur = { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' };
    expect(fieldsOf(() => validateAccountInfo(eur, 'EUR'))).toEqual(['accountInfo.beneficiary']);
    expect(fieldsOf(() => validateAccountInfo({ ...eur, beneficiary: ada }, 'EUR'))).toEqual([
      'accountInfo.beneficiary.address',
    ]);
    const business = { beneficiaryType: 'BUSINESS', legalName: 'Acme GmbH', taxId: 'DE123' };
    expect(() => validateAccountInfo({ ...eur, beneficiary: business }, 'EUR')).not.toThrow();
    expect(fieldsOf(() => validateAccountInfo({ ...eur, beneficiary: { beneficiaryType: 'OTHER' } }, 'EUR'))).toEqual([
      'accountInfo.beneficiary.beneficiaryType',
    ]);
    const badAddress = { ...ada, address: { line1: '1 Main St' }, nickname: 'x' };
    expect(fieldsOf(() => validateAccountInfo({ ...eur, beneficiary: badAddress }, 'EUR'))).toEqual([
      'accountInfo.beneficiary.nickname',
      'accountInfo.beneficiary.address.postalCode',
      'accountInfo.beneficiary.address.country',
    ]);
  });

  it('reports every problem at once, with accountInfo-prefixed fields', () => {
    expect(
      fieldsOf(() =>
        validateAccountInfo({ accountType: 'USD_ACCOUNT', accountNumber: '', extra: 'x', beneficiary: ada }, 'EUR'),
      ),
    ).toEqual(['currency', 'accountInfo.accountNumber', 'accountInfo.extra', 'accountInfo.routingNumber']);
    expect(fieldsOf(() => validateAccountInfo({ accountType: 'UPI', vpa: 'a@b' }, 'INR'))).toEqual([
      'accountInfo.accountType',
    ]);
    const gbp = { accountType: 'GBP_ACCOUNT', accountNumber: 12345678, sortCode: '601613', beneficiary: ada };
    expect(fieldsOf(() => validateAccountInfo(gbp, 'GBP'))).toEqual(['accountInfo.accountNumber']);
    const rails = { ...gbp, accountNumber: '12345678', paymentRails: ['ACH'] };
    expect(fieldsOf(() => validateAccountInfo(rails, 'GBP'))).toEqual(['accountInfo.paymentRails']);
  });
});

describe('accounts stored under retired names', () => {
  const view = (accountInfo: Record<string, unknown>, currency: string, beneficiary?: { fullName: string }) =>
    accountInfoView({ accountInfo: accountInfo as never, currency, ...(beneficiary ? { beneficiary } : {}) });

  it('read with today’s type and field names, the beneficiary inside, and the payment rails', () => {
    expect(view({ accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' }, 'MXN', { fullName: 'Ada' })).toEqual({
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '002010077777777771',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada' },
      paymentRails: ['SPEI'],
    });
  });

  // Whole views (toEqual) and the fields that show the renaming (toMatchObject).
  it.each<[string, Record<string, unknown>, string, 'whole' | 'fields', Record<string, unknown>]>([
    [
      'CAD institution and transit numbers',
      { accountType: 'CAD_ACCOUNT', accountNumber: '1234567', institutionNumber: '001', transitNumber: '12345' },
      'CAD',
      'whole',
      {
        accountType: 'CAD_ACCOUNT',
        accountNumber: '1234567',
        bankCode: '001',
        branchCode: '12345',
        paymentRails: ['BANK_TRANSFER'],
      },
    ],
    [
      'UPI',
      { accountType: 'UPI', vpa: 'ada@okhdfc' },
      'INR',
      'fields',
      { accountType: 'INR_ACCOUNT', vpa: 'ada@okhdfc', paymentRails: ['UPI'] },
    ],
    ['PIX', { accountType: 'PIX', pixKey: 'ada@example.com' }, 'BRL', 'fields', { accountType: 'BRL_ACCOUNT' }],
    [
      'IBAN in GBP',
      { accountType: 'IBAN_ACCOUNT', iban: 'GB33BUKB20201555555555' },
      'GBP',
      'fields',
      { accountType: 'SWIFT_ACCOUNT', country: 'GB', paymentRails: ['SWIFT'] },
    ],
    [
      'IBAN in EUR',
      { accountType: 'IBAN_ACCOUNT', iban: 'DE89370400440532013000' },
      'EUR',
      'fields',
      { accountType: 'EUR_ACCOUNT' },
    ],
    [
      'LIGHTNING address',
      { accountType: 'LIGHTNING', address: 'ada@getalby.com' },
      'BTC',
      'whole',
      { accountType: 'LIGHTNING', lightningAddress: 'ada@getalby.com' },
    ],
  ])('reads a retired %s', (_name, stored, currency, compare, expected) => {
    if (compare === 'whole') expect(view(stored, currency)).toEqual(expected);
    else expect(view(stored, currency)).toMatchObject(expected);
  });

  it('leaves today’s accounts as they are, adding only the default rails', () => {
    const info = { accountType: 'USD_ACCOUNT', accountNumber: '1', routingNumber: '021000021', beneficiary: ada };
    expect(view(info, 'USD')).toEqual({ ...info, paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] });
    expect(view({ ...info, paymentRails: ['WIRE'] }, 'USD')).toEqual({ ...info, paymentRails: ['WIRE'] });
  });
});

describe('sandbox beneficiary check', () => {
  it('maps each suffix to its outcome', () => {
    const name = 'Ada King Lovelace';
    expect(sandboxBeneficiaryCheck('000102', name)).toEqual({
      status: 'NOT_MATCHED',
      verifiedData: { fullName: 'Sandbox Account Holder' },
    });
    expect(sandboxBeneficiaryCheck('000103', name)).toEqual({
      status: 'PARTIAL_MATCH',
      verifiedData: { fullName: 'A. Lovelace' },
    });
    expect(sandboxBeneficiaryCheck('000104', name)).toEqual({ status: 'PENDING' });
    expect(sandboxBeneficiaryCheck('000106', name)).toEqual({ status: 'UNSUPPORTED' });
    expect(sandboxBeneficiaryCheck('000107', name)).toEqual({ status: 'CHECKED_BY_RECEIVING_FI' });
    expect(sandboxBeneficiaryCheck('000108', name)).toEqual({ status: 'MATCHED', verifiedData: { fullName: name } });
    expect(sandboxBeneficiaryCheck('000108', undefined)).toEqual({ status: 'MATCHED' });
  });

  it('refuses 105 as an account the receiving institution does not know', () => {
    expect(() => sandboxBeneficiaryCheck('DE00105', 'X')).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'INVALID_EXTERNAL_ACCOUNT' }),
    );
  });

  it('reads the suffix from the name part of identifiers with a domain', () => {
    expect(outcomeSuffix('ada102@okbank')).toBe('102');
    expect(outcomeSuffix('user@mail105.com')).toBe('ser');
    expect(outcomeSuffix('0x00000000000000000000000000000000000103')).toBe('103');
  });
});
