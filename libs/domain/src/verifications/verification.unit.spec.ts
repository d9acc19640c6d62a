import { describe, expect, it } from '@jest/globals';
import { customerDecider, type CustomerEvent } from '../customers/customer.js';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  blockingOwners,
  kycStatusFrom,
  missingVerificationFields,
  verificationDecider,
  verificationOutcome,
  verificationStream,
  withOwners,
  type VerificationEvent,
} from './verification.js';
import { CUSTOMER, PLATFORM, T0, T1 } from '../testing/fixtures.js';

const ACCOUNT_A = 'InternalAccount:00000000-0000-4000-8000-00000000000a';
const ACCOUNT_B = 'InternalAccount:00000000-0000-4000-8000-00000000000b';
const VERIFICATION = 'Verification:00000000-0000-4000-8000-000000000003';
const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

describe('what a verification needs', () => {
  it('asks individuals for fullName, birthDate and a full address', () => {
    expect(missingVerificationFields('INDIVIDUAL', {}).map((e) => e.field)).toEqual([
      'fullName',
      'birthDate',
      'address',
    ]);
    expect(
      missingVerificationFields('INDIVIDUAL', {
        fullName: ' ',
        birthDate: '1990-01-01',
        address: { line1: 'x', country: 'US' },
      }).map((e) => e.field),
    ).toEqual(['fullName', 'address.city', 'address.postalCode']);
    expect(
      missingVerificationFields('INDIVIDUAL', { fullName: 'A B', birthDate: '1990-01-01', address: ADDRESS }),
    ).toEqual([]);
  });

  it('asks businesses for legal name, registration number and address', () => {
    expect(missingVerificationFields('BUSINESS', { fullName: 'ignored' }, CUSTOMER)).toEqual([
      {
        resourceId: CUSTOMER,
        type: 'MISSING_FIELD',
        field: 'businessInfo.legalName',
        reason: 'businessInfo.legalName is required for KYB',
      },
      {
        resourceId: CUSTOMER,
        type: 'MISSING_FIELD',
        field: 'businessInfo.registrationNumber',
        reason: 'businessInfo.registrationNumber is required for KYB',
      },
      { resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'address', reason: 'address is required for KYB' },
    ]);
  });
});

describe('verification outcome', () => {
  const person = (fullName: string) => ({ fullName, birthDate: '1990-01-01', address: ADDRESS });
  const company = (registrationNumber: string) => ({
    businessInfo: { legalName: 'Acme', registrationNumber },
    address: ADDRESS,
  });

  it('follows the sandbox suffix rules for last names and registration numbers', () => {
    expect(verificationOutcome('INDIVIDUAL', person('Pat Smith001'), true).verificationStatus).toBe('IN_PROGRESS');
    expect(verificationOutcome('INDIVIDUAL', person('Pat Smith002'), true).verificationStatus).toBe('REJECTED');
    expect(verificationOutcome('INDIVIDUAL', person('Pat 002 Smith'), true).verificationStatus).toBe('APPROVED');
    expect(verificationOutcome('BUSINESS', company('R-001'), true).verificationStatus).toBe('IN_PROGRESS');
    expect(verificationOutcome('BUSINESS', company('R-002'), true).verificationStatus).toBe('REJECTED');
    expect(verificationOutcome('BUSINESS', company('R-003'), true).verificationStatus).toBe('APPROVED');
  });

  it('resolves to RESOLVE_ERRORS when fields are missing, and to IN_PROGRESS without a provider', () => {
    expect(verificationOutcome('INDIVIDUAL', { fullName: 'Pat Smith' }, true)).toMatchObject({
      verificationStatus: 'RESOLVE_ERRORS',
      errors: [{ field: 'birthDate' }, { field: 'address' }],
    });
    expect(verificationOutcome('INDIVIDUAL', person('Pat Smith002'), false)).toEqual({
      verificationStatus: 'IN_PROGRESS',
      errors: [],
    });
    expect(kycStatusFrom('RESOLVE_ERRORS')).toBeUndefined();
    expect(kycStatusFrom('REJECTED')).toBe('REJECTED');
    expect(kycStatusFrom('IN_PROGRESS')).toBe('PENDING');
  });
});

describe('a business verification with beneficial owners', () => {
  const OWNER_A = 'BeneficialOwner:00000000-0000-4000-8000-0000000000a1';
  const OWNER_B = 'BeneficialOwner:00000000-0000-4000-8000-0000000000b2';
  const OWNER_C = 'BeneficialOwner:00000000-0000-4000-8000-0000000000c3';
  const owners = new Map([
    [OWNER_A, { kycStatus: 'APPROVED' as const, version: 1 }],
    [OWNER_B, { kycStatus: 'REJECTED' as const, version: 2 }],
    [OWNER_C, { kycStatus: 'PENDING' as const, version: 1 }],
  ]);

  it('lists the rejected owners that block the business by id (a pending owner is no error)', () => {
    expect(blockingOwners(owners)).toEqual([
      { resourceId: OWNER_B, type: 'APPLICANT_REJECTED', reason: expect.stringContaining(OWNER_B) },
    ]);
    expect(blockingOwners(new Map([[OWNER_A, { kycStatus: 'APPROVED', version: 1 }]]))).toEqual([]);
  });

  it('reports the KYB status the business took, and keeps RESOLVE_ERRORS when fields are missing', () => {
    const approvedCheck = { verificationStatus: 'APPROVED' as const, errors: [] };
    expect(withOwners(approvedCheck, { kycStatus: 'REJECTED', owners })).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: OWNER_B }],
    });
    const missing = verificationOutcome('BUSINESS', {}, true);
    const result = withOwners(missing, { kycStatus: 'APPROVED', owners });
    expect(result.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(result.errors.map((e) => e.type)).toEqual([
      'MISSING_FIELD',
      'MISSING_FIELD',
      'MISSING_FIELD',
      'APPLICANT_REJECTED',
    ]);
    expect(withOwners(approvedCheck, { kycStatus: 'PENDING', owners }).verificationStatus).toBe('IN_PROGRESS');
  });
});

describe('verification decider', () => {
  const spec = deciderSpec(verificationDecider);
  const create = {
    type: 'CreateVerification' as const,
    id: VERIFICATION,
    platformId: PLATFORM,
    customerId: CUSTOMER,
    customerType: 'INDIVIDUAL' as const,
    verificationStatus: 'APPROVED' as const,
    errors: [],
    now: T0,
  };
  const created: VerificationEvent = {
    type: 'VerificationCreated',
    data: {
      verificationId: VERIFICATION,
      platformId: PLATFORM,
      customerId: CUSTOMER,
      verification: {
        id: VERIFICATION,
        platformId: PLATFORM,
        customerId: CUSTOMER,
        customerType: 'INDIVIDUAL',
        verificationStatus: 'APPROVED',
        errors: [],
        createdAt: T0,
        updatedAt: T0,
      },
    },
  };

  it('records a verification once, in its own stream', () => {
    spec.given([]).when(create).then([created]);
    spec.given([created]).when(create).thenFails({ kind: 'conflict', code: 'VERIFICATION_EXISTS' });
    expect(verificationStream(VERIFICATION)).toBe('verification-00000000-0000-4000-8000-000000000003');
  });
});

describe('customer takes over a verification outcome (ChangeKycStatus)', () => {
  const spec = deciderSpec(customerDecider);
  const ids = { customerId: CUSTOMER, platformId: PLATFORM };
  const history = (kycStatus: 'PENDING' | 'APPROVED'): CustomerEvent[] => [
    {
      type: 'CustomerCreated',
      data: { ...ids, platformCustomerId: 'p', customerType: 'INDIVIDUAL', kycStatus, profile: {}, createdAt: T0 },
    },
    {
      type: 'InternalAccountOpened',
      data: {
        ...ids,
        accountId: ACCOUNT_A,
        type: 'INTERNAL_FIAT',
        currency: 'USD',
        status: kycStatus === 'APPROVED' ? 'ACTIVE' : 'PENDING',
        createdAt: T0,
      },
    },
    {
      type: 'InternalAccountOpened',
      data: {
        ...ids,
        accountId: ACCOUNT_B,
        type: 'INTERNAL_FIAT',
        currency: 'EUR',
        status: kycStatus === 'APPROVED' ? 'ACTIVE' : 'PENDING',
        createdAt: T0,
      },
    },
  ];

  it('approval changes the status and activates the PENDING accounts', () => {
    spec
      .given(history('PENDING'))
      .when({ type: 'ChangeKycStatus', kycStatus: 'APPROVED', now: T1 })
      .then([
        { type: 'CustomerKycStatusChanged', data: { ...ids, kycStatus: 'APPROVED', updatedAt: T1 } },
        {
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: ACCOUNT_A, status: 'ACTIVE', updatedAt: T1 },
        },
        {
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: ACCOUNT_B, status: 'ACTIVE', updatedAt: T1 },
        },
      ]);
  });

  it('leaves closed accounts closed and changes nothing that is already so', () => {
    const closed: CustomerEvent = {
      type: 'InternalAccountStatusChanged',
      data: { ...ids, accountId: ACCOUNT_B, status: 'CLOSED', updatedAt: T0 },
    };
    spec
      .given([...history('PENDING'), closed])
      .when({ type: 'ChangeKycStatus', kycStatus: 'APPROVED', now: T1 })
      .then([
        { type: 'CustomerKycStatusChanged', data: { ...ids, kycStatus: 'APPROVED', updatedAt: T1 } },
        {
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: ACCOUNT_A, status: 'ACTIVE', updatedAt: T1 },
        },
      ]);
    spec.given(history('APPROVED')).when({ type: 'ChangeKycStatus', kycStatus: 'APPROVED', now: T1 }).then([]);
    spec.given(history('PENDING')).when({ type: 'ChangeKycStatus', kycStatus: 'PENDING', now: T1 }).then([]);
  });

  it('rejection changes only the status', () => {
    spec
      .given(history('PENDING'))
      .when({ type: 'ChangeKycStatus', kycStatus: 'REJECTED', now: T1 })
      .then([{ type: 'CustomerKycStatusChanged', data: { ...ids, kycStatus: 'REJECTED', updatedAt: T1 } }]);
  });

  it('refuses unknown and deleted customers', () => {
    spec
      .given([])
      .when({ type: 'ChangeKycStatus', kycStatus: 'APPROVED', now: T1 })
      .thenFails({ kind: 'not_found', code: 'CUSTOMER_NOT_FOUND' });
    const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { ...ids, deletedAt: T0 } };
    spec
      .given([...history('PENDING'), deleted])
      .when({ type: 'ChangeKycStatus', kycStatus: 'APPROVED', now: T1 })
      .thenFails({ kind: 'not_found', code: 'CUSTOMER_NOT_FOUND' });
  });
});
