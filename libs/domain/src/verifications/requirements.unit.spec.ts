import { describe, expect, it } from '@jest/globals';
import { individualDocumentErrors } from '../testing/verification-errors.js';
import { documentsRequired, verificationRequirements } from './requirements.js';
import { verificationOutcome } from './verification.js';
import { toVerificationResource } from './verification-view.js';

const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000002';
const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const person = (fullName: string) => ({ fullName, birthDate: '1990-01-01', address: ADDRESS });
const company = (registrationNumber: string) => ({
  businessInfo: { legalName: 'Acme', registrationNumber },
  address: ADDRESS,
});

describe('documents and owners a verification needs', () => {
  it('asks every production customer, and sandbox customers whose last name or registration number ends in 003', () => {
    expect(documentsRequired('INDIVIDUAL', person('Pat Smith003'), true)).toBe(true);
    expect(documentsRequired('INDIVIDUAL', person('Pat Smith'), false)).toBe(true);
    expect(documentsRequired('BUSINESS', company('R-001'), false)).toBe(true);
    for (const name of ['Pat Smith', 'Pat Smith001', 'Pat Smith002', 'Pat 003 Smith'])
      expect(documentsRequired('INDIVIDUAL', person(name), true)).toBe(false);
    expect(documentsRequired('BUSINESS', company('R-003'), true)).toBe(true);
    expect(documentsRequired('BUSINESS', company('R-001'), true)).toBe(false);
  });

  it('individuals: an identity document and a proof of address', () => {
    const input = { customerId: CUSTOMER, customerType: 'INDIVIDUAL' as const, profile: person('Ann Lee003') };
    const none = verificationRequirements({ ...input, sandbox: true, documents: [], beneficialOwners: 0 });
    expect(none).toEqual(individualDocumentErrors(CUSTOMER));
    expect(
      verificationRequirements({ ...input, sandbox: true, documents: ['NATIONAL_ID'], beneficialOwners: 0 }).map(
        (e) => e.type,
      ),
    ).toEqual(['MISSING_PROOF_OF_ADDRESS_DOCUMENT']);
    const all = verificationRequirements({
      ...input,
      sandbox: true,
      documents: ['PASSPORT', 'UTILITY_BILL'],
      beneficialOwners: 0,
    });
    expect(all).toEqual([]);
    expect(verificationOutcome('INDIVIDUAL', input.profile, true, CUSTOMER, none).verificationStatus).toBe(
      'RESOLVE_ERRORS',
    );
    expect(verificationOutcome('INDIVIDUAL', input.profile, true, CUSTOMER, all).verificationStatus).toBe('APPROVED');
  });

  it('businesses: legal presence, control and ownership structure documents, and a beneficial owner', () => {
    const input = { customerId: CUSTOMER, customerType: 'BUSINESS' as const, profile: company('R-003'), sandbox: true };
    expect(verificationRequirements({ ...input, documents: [], beneficialOwners: 0 }).map((e) => e.type)).toEqual([
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_CONTROL_STRUCTURE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_BENEFICIAL_OWNER',
    ]);
    // A trust agreement shows both control and ownership.
    expect(
      verificationRequirements({
        ...input,
        documents: ['ARTICLES_OF_ASSOCIATION', 'TRUST_AGREEMENT'],
        beneficialOwners: 1,
      }),
    ).toEqual([]);
  });

  it('shows verifications recorded in the older shape in the public API shape', () => {
    const v = {
      id: 'Verification:00000000-0000-4000-8000-000000000003',
      platformId: 'Platform:00000000-0000-4000-8000-000000000001',
      customerId: CUSTOMER,
      customerType: 'BUSINESS' as const,
      verificationStatus: 'PENDING' as const,
      errors: [
        { field: 'address', code: 'MISSING_FIELD', message: 'address is required for KYB' },
        { field: 'kycStatus', code: 'APPLICANT_PENDING', message: 'owner pending', resourceId: 'BeneficialOwner:x' },
        { field: 'kycStatus', code: 'APPLICANT_REJECTED', message: 'owner rejected', resourceId: 'BeneficialOwner:y' },
      ],
      createdAt: 't0',
      updatedAt: 't0',
    };
    expect(toVerificationResource(v)).toEqual({
      id: v.id,
      customerId: CUSTOMER,
      verificationStatus: 'IN_PROGRESS',
      errors: [
        { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'address', reason: 'address is required for KYB' },
        { resourceId: 'BeneficialOwner:y', type: 'APPLICANT_REJECTED', reason: 'owner rejected' },
      ],
      createdAt: 't0',
      updatedAt: 't0',
    });
  });
});
