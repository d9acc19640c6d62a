import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../errors.js';
import { ACCOUNT_TYPES, validateAccountInfo } from './account-types.js';
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

describe('account type rules', () => {
  it('gives each type’s primary identifier', () => {
    expect(
      validateAccountInfo({ accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' }, 'MXN').primaryIdentifier,
    ).toBe('002010077777777771');
    expect(validateAccountInfo({ accountType: 'UPI', vpa: 'ada@okhdfc' }, 'INR').primaryIdentifier).toBe('ada@okhdfc');
    expect(
      validateAccountInfo({ accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', swiftCode: 'EBILAEAD' }, 'AED')
        .primaryIdentifier,
    ).toBe('AE070331234567890123456');
    for (const spec of Object.values(ACCOUNT_TYPES)) expect(spec.fields[spec.primaryIdentifier]?.required).toBe(true);
  });

  it('reports every problem at once, with accountInfo-prefixed fields', () => {
    expect(
      fieldsOf(() => validateAccountInfo({ accountType: 'USD_ACCOUNT', accountNumber: 'abc', extra: 'x' }, 'EUR')),
    ).toEqual(['currency', 'accountInfo.extra', 'accountInfo.accountNumber', 'accountInfo.routingNumber']);
    expect(fieldsOf(() => validateAccountInfo({ accountType: 'NOPE' }, 'USD'))).toEqual(['accountInfo.accountType']);
    expect(
      fieldsOf(() =>
        validateAccountInfo({ accountType: 'GBP_ACCOUNT', accountNumber: 12345678, sortCode: '601613' }, 'GBP'),
      ),
    ).toEqual(['accountInfo.accountNumber']);
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
