import { describe, expect, it } from '@jest/globals';
import { beneficialOwnerDecider, type BeneficialOwnerEvent } from '../beneficial-owners/beneficial-owner.js';
import { customerDecider, type CustomerEvent } from '../customers/customer.js';
import { CUSTOMER, PLATFORM, T0, T1, testPerson } from '../testing/fixtures.js';
import { reviewOutcome } from './review.js';
import { verificationDecider, type VerificationCommand, type VerificationState } from './verification.js';

const VERIFICATION = 'Verification:00000000-0000-4000-8000-000000000003';
const OWNER = 'BeneficialOwner:00000000-0000-4000-8000-000000000004';
const TOKEN = 'ApiToken:00000000-0000-4000-8000-000000000005';

const created = (review: boolean, verificationStatus: 'IN_PROGRESS' | 'APPROVED' = 'IN_PROGRESS') => {
  const cmd: VerificationCommand = {
    type: 'CreateVerification',
    id: VERIFICATION,
    platformId: PLATFORM,
    customerId: CUSTOMER,
    customerType: 'INDIVIDUAL',
    verificationStatus,
    errors: [],
    review,
    now: T0,
  };
  const events = verificationDecider.decide(cmd, verificationDecider.initialState());
  return events.reduce(verificationDecider.evolve, verificationDecider.initialState());
};
const decide = (state: VerificationState, decision: 'APPROVED' | 'REJECTED', reason?: string) =>
  verificationDecider.decide(
    {
      type: 'DecideReview',
      decision,
      reason,
      decidedBy: TOKEN,
      ...reviewOutcome(decision, { customerId: CUSTOMER, reason, owners: [] }),
      now: T1,
    },
    state,
  );

describe('a KYC review', () => {
  it('is opened only for a production check that waits (IN_PROGRESS)', () => {
    expect(created(true).verification?.review).toEqual({ status: 'PENDING' });
    expect(created(false).verification?.review).toBeUndefined();
    expect(created(true, 'APPROVED').verification?.review).toBeUndefined();
    expect(() => decide(created(false), 'APPROVED')).toThrow(expect.objectContaining({ code: 'KYC_REVIEW_NOT_FOUND' }));
  });

  it('records the decision with who, when and why, once', () => {
    const [event] = decide(created(true), 'REJECTED', 'document mismatch');
    expect(event.type).toBe('VerificationReviewed');
    expect(event.data.verification).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: CUSTOMER, type: 'APPLICANT_REJECTED', reason: 'document mismatch' }],
      updatedAt: T1,
      review: { status: 'REJECTED', reason: 'document mismatch', decidedBy: TOKEN, decidedAt: T1 },
    });
    const decided = verificationDecider.evolve(created(true), event);
    expect(() => decide(decided, 'APPROVED')).toThrow(
      expect.objectContaining({ code: 'KYC_REVIEW_ALREADY_DECIDED', kind: 'conflict' }),
    );
  });

  it('approves a business with its pending owners; a rejected owner still blocks it', () => {
    const pending = { beneficialOwnerId: OWNER, kycStatus: 'PENDING' as const, version: 1 };
    expect(reviewOutcome('APPROVED', { customerId: CUSTOMER, owners: [pending] })).toEqual({
      verificationStatus: 'APPROVED',
      errors: [],
    });
    const rejected = { ...pending, kycStatus: 'REJECTED' as const };
    expect(reviewOutcome('APPROVED', { customerId: CUSTOMER, owners: [rejected] })).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: OWNER, type: 'APPLICANT_REJECTED' }],
    });
  });

  it('decides a pending owner once; a decided owner keeps its outcome', () => {
    const create = {
      type: 'CreateBeneficialOwner' as const,
      id: OWNER,
      platformId: PLATFORM,
      customerId: CUSTOMER,
      roles: ['UBO' as const],
      ownershipPercentage: 50,
      personalInfo: testPerson('Lovelace'),
      sandbox: false,
      now: T0,
    };
    const fold = (events: BeneficialOwnerEvent[], from = beneficialOwnerDecider.initialState()) =>
      events.reduce(beneficialOwnerDecider.evolve, from);
    const owner = fold(beneficialOwnerDecider.decide(create, beneficialOwnerDecider.initialState()));
    expect(owner.owner?.kycStatus).toBe('PENDING');
    const approve = { type: 'DecideBeneficialOwnerKyc' as const, kycStatus: 'APPROVED' as const, now: T1 };
    const approved = fold(beneficialOwnerDecider.decide(approve, owner), owner);
    expect(approved.owner).toMatchObject({ kycStatus: 'APPROVED', updatedAt: T1 });
    expect(beneficialOwnerDecider.decide({ ...approve, kycStatus: 'REJECTED' }, approved)).toEqual([]);
  });

  it('names the reviewer in the customer’s stream before the status change', () => {
    const create = {
      type: 'CreateCustomer' as const,
      customerId: CUSTOMER,
      platformId: PLATFORM,
      customerType: 'INDIVIDUAL' as const,
      kycStatus: 'PENDING' as const,
      profile: {},
      accounts: [],
      now: T0,
    };
    const customer = customerDecider
      .decide(create as never, customerDecider.initialState())
      .reduce(customerDecider.evolve, customerDecider.initialState());
    const review = {
      verificationId: VERIFICATION,
      decision: 'REJECTED' as const,
      reason: 'mismatch',
      decidedBy: TOKEN,
    };
    const events: CustomerEvent[] = customerDecider.decide(
      { type: 'ChangeKycStatus', kycStatus: 'REJECTED', review, now: T1 },
      customer,
    );
    expect(events.map((e) => e.type)).toEqual(['KycReviewDecided', 'CustomerKycStatusChanged']);
    expect(events[0].data).toEqual({
      customerId: CUSTOMER,
      platformId: PLATFORM,
      ...review,
      updatedAt: T1,
    });
  });
});
