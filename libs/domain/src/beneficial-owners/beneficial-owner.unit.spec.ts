import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  beneficialOwnerDecider,
  ownerOutcome,
  toBeneficialOwnerResource,
  type BeneficialOwnerCommand,
  type BeneficialOwnerEvent,
} from './beneficial-owner.js';
import { CUSTOMER, PLATFORM, T0, T1, testId, testPerson } from '../testing/fixtures.js';

const OWNER = testId('BeneficialOwner', '3');

const create = (lastName: string, sandbox = true): BeneficialOwnerCommand => ({
  type: 'CreateBeneficialOwner',
  id: OWNER,
  platformId: PLATFORM,
  customerId: CUSTOMER,
  roles: ['UBO', 'DIRECTOR'],
  ownershipPercentage: 51,
  personalInfo: testPerson(lastName),
  sandbox,
  now: T0,
});

const ids = { beneficialOwnerId: OWNER, platformId: PLATFORM, customerId: CUSTOMER };
const snapshot = (lastName: string, kycStatus: 'APPROVED' | 'PENDING' | 'REJECTED') => ({
  id: OWNER,
  platformId: PLATFORM,
  customerId: CUSTOMER,
  roles: ['UBO' as const, 'DIRECTOR' as const],
  ownershipPercentage: 51,
  personalInfo: testPerson(lastName),
  kycStatus,
  createdAt: T0,
  updatedAt: T0,
});
const created = (lastName: string, kycStatus: 'APPROVED' | 'PENDING' | 'REJECTED'): BeneficialOwnerEvent => ({
  type: 'BeneficialOwnerCreated',
  data: { ...ids, owner: snapshot(lastName, kycStatus) },
});

describe('beneficial owner decider', () => {
  const spec = deciderSpec(beneficialOwnerDecider);
  const update = (changes: Record<string, unknown>, sandbox = true): BeneficialOwnerCommand => ({
    type: 'UpdateBeneficialOwner',
    changes,
    sandbox,
    now: T1,
  });

  // The sandbox KYC follows the last name: 001 PENDING, 002 REJECTED, else APPROVED.
  it.each([
    ['Smith', 'APPROVED'],
    ['Smith001', 'PENDING'],
    ['Smith002', 'REJECTED'],
    ['Smith003', 'APPROVED'],
  ] as const)('creates an owner named %s whose sandbox KYC is %s', (lastName, kycStatus) => {
    spec
      .given([])
      .when(create(lastName))
      .then([created(lastName, kycStatus)]);
  });

  it('leaves KYC PENDING without a provider (production platforms)', () => {
    spec
      .given([])
      .when(create('Smith', false))
      .then([created('Smith', 'PENDING')]);
  });

  it('creates an owner once and keeps ownership a whole percentage', () => {
    spec
      .given([created('Smith', 'APPROVED')])
      .when(create('Smith'))
      .thenFails({ kind: 'conflict', code: 'BENEFICIAL_OWNER_EXISTS' });
    for (const ownershipPercentage of [-1, 101, 12.5])
      spec
        .given([])
        .when({ ...create('Smith'), ownershipPercentage } as BeneficialOwnerCommand)
        .thenFails({ kind: 'invalid', code: 'INVALID_INPUT', details: { errors: [{ field: 'ownershipPercentage' }] } });
  });

  it('checks changed personal information again: a fixed last name approves the owner', () => {
    const [event] = spec
      .given([created('Smith002', 'REJECTED')])
      .when(update({ personalInfo: { lastName: 'Smith' } }))
      .thenEmits();
    expect(event).toEqual({
      type: 'BeneficialOwnerUpdated',
      data: {
        ...ids,
        changes: { personalInfo: { lastName: 'Smith' } },
        owner: { ...snapshot('Smith', 'APPROVED'), updatedAt: T1 },
      },
    });
    const [pending] = spec
      .given([created('Smith', 'APPROVED')])
      .when(update({ personalInfo: { lastName: 'Smith001', middleName: 'Ann' } }))
      .thenEmits();
    expect(pending.data.owner).toMatchObject({
      kycStatus: 'PENDING',
      personalInfo: { firstName: 'Jane', middleName: 'Ann', lastName: 'Smith001' },
    });
  });

  it('keeps the outcome when only roles or shares change, and changes nothing for a same-valued update', () => {
    const [event] = spec
      .given([created('Smith002', 'REJECTED')])
      .when(update({ roles: ['CONTROL_PERSON'], ownershipPercentage: 10 }))
      .thenEmits();
    expect(event.data.owner).toMatchObject({
      roles: ['CONTROL_PERSON'],
      ownershipPercentage: 10,
      kycStatus: 'REJECTED',
    });
    spec
      .given([created('Smith', 'APPROVED')])
      .when(update({ roles: ['UBO', 'DIRECTOR'], personalInfo: { lastName: 'Smith', email: undefined } }))
      .then([]);
    spec
      .given([created('Smith', 'APPROVED')])
      .when(update({}))
      .then([]);
  });

  it('sends production owners whose personal information changed back to PENDING', () => {
    const [event] = spec
      .given([created('Smith', 'PENDING')])
      .when(update({ personalInfo: { address: { line1: '2 Side St', postalCode: '10001', country: 'US' } } }, false))
      .thenEmits();
    expect(event.data.owner.kycStatus).toBe('PENDING');
    expect(event.data.owner.personalInfo.address).toEqual({ line1: '2 Side St', postalCode: '10001', country: 'US' });
  });

  it('refuses updates of an owner that does not exist and bad shares', () => {
    spec
      .given([])
      .when(update({ ownershipPercentage: 5 }))
      .thenFails({ kind: 'not_found' });
    spec
      .given([created('Smith', 'APPROVED')])
      .when(update({ ownershipPercentage: 200 }))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('counts its events as the version its business records, and shows no platform', () => {
    const history = spec.history(create('Smith002'), update({ personalInfo: { lastName: 'Smith' } }));
    const state = spec.fold(history);
    expect(ownerOutcome(state)).toEqual({ beneficialOwnerId: OWNER, kycStatus: 'APPROVED', version: 2 });
    expect(toBeneficialOwnerResource(state.owner!)).not.toHaveProperty('platformId');
    expect(toBeneficialOwnerResource(state.owner!)).toMatchObject({ id: OWNER, customerId: CUSTOMER });
  });
});
