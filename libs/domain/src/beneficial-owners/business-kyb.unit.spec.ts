import { describe, expect, it } from '@jest/globals';
import { customerDecider, type CustomerEvent, type KycStatus } from '../customers/customer.js';
import { kybStatus } from '../customers/kyb.js';
import { deciderSpec } from '../testing/decider-spec.js';
import { CUSTOMER, PLATFORM, T0, T1 } from '../testing/fixtures.js';

const ACCOUNT = 'InternalAccount:00000000-0000-4000-8000-00000000000a';
const OWNER_A = 'BeneficialOwner:00000000-0000-4000-8000-0000000000a1';
const OWNER_B = 'BeneficialOwner:00000000-0000-4000-8000-0000000000b2';
const ids = { customerId: CUSTOMER, platformId: PLATFORM };

const opened = (customerType: 'BUSINESS' | 'INDIVIDUAL', kycStatus: KycStatus): CustomerEvent[] => [
  {
    type: 'CustomerCreated',
    data: { ...ids, platformCustomerId: 'p', customerType, kycStatus, profile: {}, createdAt: T0 },
  },
  {
    type: 'InternalAccountOpened',
    data: {
      ...ids,
      accountId: ACCOUNT,
      type: 'INTERNAL_FIAT',
      currency: 'USD',
      status: kycStatus === 'APPROVED' ? 'ACTIVE' : 'PENDING',
      createdAt: T0,
    },
  },
];
const recorded = (beneficialOwnerId: string, kycStatus: KycStatus, version = 1): CustomerEvent => ({
  type: 'BeneficialOwnerKycRecorded',
  data: { ...ids, beneficialOwnerId, kycStatus, version, updatedAt: T1 },
});
const changed = (kycStatus: KycStatus): CustomerEvent => ({
  type: 'CustomerKycStatusChanged',
  data: { ...ids, kycStatus, updatedAt: T1 },
});
const record = (beneficialOwnerId: string, kycStatus: KycStatus, version = 1) => ({
  type: 'RecordBeneficialOwnerKyc' as const,
  owner: { beneficialOwnerId, kycStatus, version },
  now: T1,
});

describe('KYB status of a business with beneficial owners', () => {
  const spec = deciderSpec(customerDecider);

  it('is the worst of the business’s own check and its owners’ KYC', () => {
    expect(kybStatus('APPROVED', [])).toBe('APPROVED');
    expect(kybStatus('APPROVED', ['APPROVED', 'PENDING'])).toBe('PENDING');
    expect(kybStatus('APPROVED', ['PENDING', 'REJECTED', 'APPROVED'])).toBe('REJECTED');
    expect(kybStatus('PENDING', ['APPROVED'])).toBe('PENDING');
    expect(kybStatus('REJECTED', ['PENDING'])).toBe('REJECTED');
  });

  it('an approved owner keeps an approved business approved; a rejected one rejects it', () => {
    spec
      .given(opened('BUSINESS', 'APPROVED'))
      .when(record(OWNER_A, 'APPROVED'))
      .then([recorded(OWNER_A, 'APPROVED')]);
    spec
      .given([...opened('BUSINESS', 'APPROVED'), recorded(OWNER_A, 'APPROVED')])
      .when(record(OWNER_B, 'REJECTED'))
      .then([recorded(OWNER_B, 'REJECTED'), changed('REJECTED')]);
    spec
      .given(opened('BUSINESS', 'APPROVED'))
      .when(record(OWNER_A, 'PENDING'))
      .then([recorded(OWNER_A, 'PENDING'), changed('PENDING')]);
  });

  it('approves the business once the last blocking owner is fixed, activating its pending accounts', () => {
    const blocked = [
      ...opened('BUSINESS', 'PENDING'),
      { type: 'BusinessCheckRecorded', data: { ...ids, kycStatus: 'APPROVED', updatedAt: T1 } } as CustomerEvent,
      recorded(OWNER_A, 'APPROVED'),
      recorded(OWNER_B, 'REJECTED'),
      changed('REJECTED'),
    ];
    spec
      .given(blocked)
      .when(record(OWNER_B, 'APPROVED', 2))
      .then([
        recorded(OWNER_B, 'APPROVED', 2),
        changed('APPROVED'),
        {
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: ACCOUNT, status: 'ACTIVE', updatedAt: T1 },
        },
      ]);
    // Fixing one owner while another still blocks changes only the record.
    spec
      .given([...blocked, recorded(OWNER_A, 'PENDING', 2), changed('PENDING')])
      .when(record(OWNER_B, 'APPROVED', 2))
      .then([recorded(OWNER_B, 'APPROVED', 2)]);
  });

  it('ignores an owner outcome it already has or that is older than the one it has', () => {
    const history = [...opened('BUSINESS', 'APPROVED'), recorded(OWNER_A, 'APPROVED', 3)];
    spec
      .given(history)
      .when(record(OWNER_A, 'APPROVED', 3))
      .then([]);
    spec
      .given(history)
      .when(record(OWNER_A, 'REJECTED', 2))
      .then([]);
    spec
      .given(history)
      .when(record(OWNER_A, 'APPROVED', 4))
      .then([recorded(OWNER_A, 'APPROVED', 4)]);
  });

  it('takes a verification as the business’s own check and combines it with the owners it reads again', () => {
    const withOwner = [...opened('BUSINESS', 'PENDING'), recorded(OWNER_A, 'REJECTED')];
    spec
      .given(withOwner)
      .when({ type: 'ChangeKycStatus', kycStatus: 'APPROVED', now: T1 })
      .then([
        { type: 'BusinessCheckRecorded', data: { ...ids, kycStatus: 'APPROVED', updatedAt: T1 } },
        changed('REJECTED'),
      ]);
    spec
      .given(withOwner)
      .when({
        type: 'ChangeKycStatus',
        kycStatus: 'APPROVED',
        owners: [{ beneficialOwnerId: OWNER_A, kycStatus: 'APPROVED', version: 2 }],
        now: T1,
      })
      .then([
        recorded(OWNER_A, 'APPROVED', 2),
        { type: 'BusinessCheckRecorded', data: { ...ids, kycStatus: 'APPROVED', updatedAt: T1 } },
        changed('APPROVED'),
        {
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: ACCOUNT, status: 'ACTIVE', updatedAt: T1 },
        },
      ]);
  });

  it('keeps the own check of businesses whose status changed before they had owners', () => {
    // A log written before owners existed: the verification changed the status without a check record.
    const legacy = [...opened('BUSINESS', 'APPROVED'), changed('REJECTED')];
    expect(spec.fold(legacy).ownKycStatus).toBe('REJECTED');
    // An approved owner does not approve a business whose own check was rejected.
    spec
      .given(legacy)
      .when(record(OWNER_A, 'APPROVED'))
      .then([recorded(OWNER_A, 'APPROVED')]);
  });

  it('refuses owners for individuals and for deleted businesses', () => {
    spec
      .given(opened('INDIVIDUAL', 'APPROVED'))
      .when(record(OWNER_A, 'APPROVED'))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT', details: { errors: [{ field: 'customerId' }] } });
    spec
      .given([...opened('BUSINESS', 'APPROVED'), { type: 'CustomerDeleted', data: { ...ids, deletedAt: T1 } }])
      .when(record(OWNER_A, 'APPROVED'))
      .thenFails({ kind: 'not_found', code: 'CUSTOMER_NOT_FOUND' });
  });
});
