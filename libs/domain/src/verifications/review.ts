import { kybStatus, type KycStatus, type OwnerOutcome } from '../customers/kyb.js';
import {
  blockingOwners,
  verificationStatusOf,
  type ReviewDecision,
  type VerificationError,
  type VerificationStatus,
} from './verification.js';

/**
 * KYC review of production customers: a complete submission (no fields, documents or owners missing) waits in
 * the review queue until an operator or the platform's KYC provider decides it. The decision takes the same path
 * a sandbox outcome takes: the owners still PENDING take an approval, the customer takes the decision as its own
 * check (a business together with its owners), and the verification records it once.
 */

/** The longest reason a decision keeps. */
export const REVIEW_REASON_MAX = 1000;

/** The owners' statuses once the decision is applied: an approval approves the owners still waiting. */
export function ownersAfter(decision: ReviewDecision, owners: readonly OwnerOutcome[]): Map<string, KycStatus> {
  return new Map(
    owners.map((o) => [
      o.beneficialOwnerId,
      decision === 'APPROVED' && o.kycStatus === 'PENDING' ? 'APPROVED' : o.kycStatus,
    ]),
  );
}

/**
 * What the verification records of a decision: an approval is the customer's status once its owners count (a
 * rejected owner still blocks it); a rejection is APPLICANT_REJECTED with the reviewer's reason.
 */
export function reviewOutcome(
  decision: ReviewDecision,
  input: { customerId: string; reason?: string; owners: readonly OwnerOutcome[] },
): { verificationStatus: VerificationStatus; errors: VerificationError[] } {
  if (decision === 'REJECTED') {
    const reason = input.reason ?? 'rejected by KYC review';
    return {
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: input.customerId, type: 'APPLICANT_REJECTED', reason }],
    };
  }
  const owners = ownersAfter(decision, input.owners);
  const records = new Map([...owners].map(([id, kycStatus]) => [id, { kycStatus, version: 0 }]));
  return {
    verificationStatus: verificationStatusOf(kybStatus('APPROVED', owners.values())),
    errors: blockingOwners(records),
  };
}
