import { describe, expect, it } from '@jest/globals';
import { isPublicId } from '../primitives.js';
import { REQUIRED_COLUMNS, bulkImportCustomerId, columnOf, customerRow, headerProblems } from './bulk-import-csv.js';

const HEADER = [...REQUIRED_COLUMNS, 'fullName', 'birthDate', 'businessLegalName', 'addressLine2', 'email'];
const row = (cells: Record<string, string>) => HEADER.map((c) => cells[c] ?? '');
const address = { addressLine1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };

describe('bulk import CSV format', () => {
  it('accepts the documented columns in any order', () => {
    expect(headerProblems([...HEADER].reverse())).toEqual([]);
    expect(headerProblems([...HEADER, 'platformAccountId', 'description', 'businessTaxId'])).toEqual([]);
  });

  it('names every missing, unknown, duplicate and unnamed column', () => {
    const problems = headerProblems(['platformCustomerId', 'customerType', 'nickname', 'city', 'city', '']);
    expect(problems.map((p) => [p.constraint, p.message])).toEqual([
      ['unknown_column', 'the header names an unknown column nickname'],
      ['duplicate_column', 'the header names the column city twice'],
      ['empty_column', 'header column 6 has no name'],
      ['missing_required_column', 'the header lacks the required column umaAddress'],
      ['missing_required_column', 'the header lacks the required column addressLine1'],
      ['missing_required_column', 'the header lacks the required column state'],
      ['missing_required_column', 'the header lacks the required column postalCode'],
      ['missing_required_column', 'the header lacks the required column country'],
    ]);
    expect(problems.every((p) => p.field === 'file')).toBe(true);
  });

  it('maps a row to a POST /customers body: trimmed cells, empty ones left out, `$` added to the UMA address', () => {
    const r = customerRow(
      HEADER,
      row({
        umaAddress: ' john.doe@uma.example.com ',
        platformCustomerId: 'c-1',
        customerType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        ...address,
      }),
      2,
    );
    expect(r).toEqual({
      correlationId: 'c-1',
      errors: [],
      body: {
        umaAddress: '$john.doe@uma.example.com',
        platformCustomerId: 'c-1',
        customerType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      },
    });
    const business = customerRow(
      [...HEADER, 'businessRegistrationNumber', 'platformAccountId'],
      [
        ...row({
          umaAddress: '$acme@uma.example.com',
          platformCustomerId: 'b-1',
          customerType: 'BUSINESS',
          businessLegalName: 'Acme',
          ...address,
        }),
        'R-9',
        'acct-7',
      ],
      3,
    );
    expect(business.errors).toEqual([]);
    expect(business.body.businessInfo).toEqual({ legalName: 'Acme', registrationNumber: 'R-9' });
  });

  it('requires the columns of the row’s customer type and flags rows longer than the header', () => {
    const r = customerRow(HEADER, [...row({ customerType: 'INDIVIDUAL', ...address }), 'extra'], 7);
    expect(r.correlationId).toBe('row_7');
    expect(r.errors.map((e) => `${e.field}:${e.constraint}`)).toEqual([
      'row:invalid_csv_format',
      'umaAddress:required',
      'platformCustomerId:required',
      'fullName:required',
      'birthDate:required',
    ]);
    const business = customerRow(HEADER, row({ customerType: 'BUSINESS', platformCustomerId: 'b', ...address }), 8);
    expect(business.errors.map((e) => e.field)).toEqual(['umaAddress', 'businessLegalName']);
    // A short row (fewer cells than the header, as in the public API's example) is fine.
    expect(customerRow(HEADER, ['$a@b.co', 'p', 'BUSINESS'], 9).errors.map((e) => e.field)).toContain('city');
  });

  it('names body fields by their CSV column', () => {
    expect(columnOf('address.line1')).toBe('addressLine1');
    expect(columnOf('businessInfo.legalName')).toBe('businessLegalName');
    expect(columnOf('email')).toBe('email');
  });

  it('derives one customer id per job and line', () => {
    const job = 'Job:00000000-0000-4000-8000-000000000001';
    const id = bulkImportCustomerId(job, 2);
    expect(isPublicId('Customer', id)).toBe(true);
    expect(bulkImportCustomerId(job, 2)).toBe(id);
    expect(bulkImportCustomerId(job, 3)).not.toBe(id);
    expect(bulkImportCustomerId('Job:00000000-0000-4000-8000-000000000002', 2)).not.toBe(id);
  });
});
