import { latestSnapshotDecider, type Decider } from '../decider.js';
import { conflict, notFound } from '../errors.js';
import type { CustomerProfile, CustomerType, KycStatus } from '../customers/customer.js';
import type { OwnerRecords } from '../customers/kyb.js';
import { sandboxKycStatus } from '../customers/sandbox-kyc.js';
import type { DocumentType } from '../documents/document-types.js';

/**
 * A verification is one KYC (individuals) or KYB (businesses) check of a customer. Its outcome is
 * decided when it is submitted: RESOLVE_ERRORS when the customer lacks fields, documents or
 * beneficial owners the check needs (listed in `errors`, the customer's status is left alone),
 * otherwise the provider's answer (IN_PROGRESS while it has not decided, APPROVED, REJECTED), which
 * the customer aggregate then takes over as its kycStatus. The statuses and error types are the
 * public API's.
 */
export const VERIFICATION_STATUSES = [
  'RESOLVE_ERRORS',
  'PENDING_MANUAL_REVIEW',
  'IN_PROGRESS',
  'APPROVED',
  'REJECTED',
  'READY_FOR_VERIFICATION',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_ERROR_TYPES = [
  'MISSING_FIELD',
  'INVALID_FIELD',
  'MISSING_LEGAL_PRESENCE_DOCUMENT',
  'MISSING_CONTROL_STRUCTURE_DOCUMENT',
  'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
  'MISSING_IDENTITY_DOCUMENT',
  'INVALID_DOCUMENT',
  'EXPIRED_DOCUMENT',
  'POOR_QUALITY_DOCUMENT',
  'SUSPECTED_FRAUD_DOCUMENT',
  'WRONG_DOCUMENT_TYPE',
  'INCOMPLETE_DOCUMENT',
  'UNREADABLE_DOCUMENT',
  'DOCUMENT_VERIFICATION_FAILED',
  'APPLICANT_SANCTIONED',
  'APPLICANT_FRAUD',
  'APPLICANT_CRIMINAL_RECORD',
  'APPLICANT_REJECTED',
  'MISSING_BENEFICIAL_OWNER',
] as const;
export type VerificationErrorType = (typeof VERIFICATION_ERROR_TYPES)[number];

export interface VerificationError {
  /** The resource with the issue: the customer, or one of its beneficial owners. */
  resourceId: string;
  type: VerificationErrorType;
  reason: string;
  /** MISSING_FIELD / INVALID_FIELD: the field of the resource, dotted. */
  field?: string;
  /** MISSING_*_DOCUMENT: any one of these document types satisfies the requirement. */
  acceptedDocumentTypes?: DocumentType[];
}

/** How verifications recorded before the public API's shapes were adopted stored an error. */
export interface LegacyVerificationError {
  field: string;
  code: string;
  message: string;
  resourceId?: string;
}

export interface VerificationSnapshot {
  id: string;
  platformId: string;
  customerId: string;
  customerType: CustomerType;
  /** `PENDING` in verifications recorded before IN_PROGRESS replaced it. */
  verificationStatus: VerificationStatus | 'PENDING';
  errors: (VerificationError | LegacyVerificationError)[];
  createdAt: string;
  updatedAt: string;
  /** A production check waiting for a decision (an operator's or the KYC provider's), and that decision. */
  review?: VerificationReview;
}

export const REVIEW_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export type ReviewDecision = Exclude<ReviewStatus, 'PENDING'>;

/** Who decided (the actor: an API token, a console session, the KYC provider), when, and why. */
export interface VerificationReview {
  status: ReviewStatus;
  reason?: string;
  decidedBy?: string;
  decidedAt?: string;
}

export interface VerificationState {
  exists: boolean;
  verification?: VerificationSnapshot;
}

type VerificationData = {
  verificationId: string;
  platformId: string;
  customerId: string;
  verification: VerificationSnapshot;
};

export type VerificationEvent =
  { type: 'VerificationCreated'; data: VerificationData } | { type: 'VerificationReviewed'; data: VerificationData };

/**
 * `review`: the check waits for a reviewer (production platforms, a complete submission). `DecideReview` records
 * the reviewer's decision once, with the verification's status as the customer then took it.
 */
export type VerificationCommand =
  | {
      type: 'CreateVerification';
      id: string;
      platformId: string;
      customerId: string;
      customerType: CustomerType;
      verificationStatus: VerificationStatus;
      errors: VerificationError[];
      review?: boolean;
      now: string;
    }
  | {
      type: 'DecideReview';
      decision: ReviewDecision;
      reason?: string;
      decidedBy: string;
      verificationStatus: VerificationStatus;
      errors: VerificationError[];
      now: string;
    };

/** Verifications have their own streams; the kind is not one the customer stream could hold. */
export const verificationStream = (verificationId: string) => `verification-${verificationId.split(':')[1]}`;

/** A MISSING_FIELD error: it always names its field. */
export type FieldError = VerificationError & { field: string };

const missing = (resourceId: string, field: string, what: string): FieldError => ({
  resourceId,
  type: 'MISSING_FIELD',
  field,
  reason: `${field} is required for ${what}`,
});

const ADDRESS_PARTS = ['line1', 'city', 'postalCode', 'country'] as const;

/** Fields a KYC (individual) or KYB (business) check needs that the customer does not have yet. */
export function missingVerificationFields(
  customerType: CustomerType,
  profile: CustomerProfile,
  customerId = '',
): FieldError[] {
  const what = customerType === 'BUSINESS' ? 'KYB' : 'KYC';
  const errors: FieldError[] = [];
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';
  const need = (field: string) => errors.push(missing(customerId, field, what));
  if (customerType === 'BUSINESS') {
    if (blank(profile.businessInfo?.legalName)) need('businessInfo.legalName');
    if (blank(profile.businessInfo?.registrationNumber)) need('businessInfo.registrationNumber');
  } else {
    if (blank(profile.fullName)) need('fullName');
    if (blank(profile.birthDate)) need('birthDate');
  }
  if (!profile.address) need('address');
  else for (const part of ADDRESS_PARTS) if (blank(profile.address[part])) need(`address.${part}`);
  return errors;
}

/** The customer's status as a verification status (PENDING or UNVERIFIED: nobody has decided yet). */
export const verificationStatusOf = (status: KycStatus): VerificationStatus =>
  status === 'PENDING' || status === 'UNVERIFIED' ? 'IN_PROGRESS' : status;

/**
 * The outcome of a check. Without a provider (production platforms here) a complete submission
 * stays IN_PROGRESS; the sandbox answers at once from the registration number or last name suffix.
 * `requirements` are the documents and owners still missing (verificationRequirements), which
 * keep the check from starting like missing fields do.
 */
export function verificationOutcome(
  customerType: CustomerType,
  profile: CustomerProfile,
  sandbox: boolean,
  customerId = '',
  requirements: VerificationError[] = [],
): { verificationStatus: VerificationStatus; errors: VerificationError[] } {
  const errors = [...missingVerificationFields(customerType, profile, customerId), ...requirements];
  if (errors.length > 0) return { verificationStatus: 'RESOLVE_ERRORS', errors };
  const verificationStatus = sandbox
    ? verificationStatusOf(
        sandboxKycStatus({
          customerType,
          fullName: profile.fullName,
          registrationNumber: profile.businessInfo?.registrationNumber,
        }),
      )
    : 'IN_PROGRESS';
  return { verificationStatus, errors };
}

/**
 * The beneficial owners whose KYC keeps a business from approval: a REJECTED owner is an
 * APPLICANT_REJECTED error. An owner still PENDING keeps the business IN_PROGRESS, which lists no
 * errors.
 */
export function blockingOwners(owners: OwnerRecords): VerificationError[] {
  return [...owners]
    .filter(([, o]) => o.kycStatus === 'REJECTED')
    .map(([resourceId]) => ({
      resourceId,
      type: 'APPLICANT_REJECTED' as const,
      reason:
        `beneficial owner ${resourceId} was rejected by KYC; ` + 'correct its personalInfo to have it checked again',
    }));
}

/**
 * A business's verification once its owners are counted: the KYB status the business took (its
 * own check together with its owners), and the owners that block it listed with the missing fields.
 */
export function withOwners(
  outcome: { verificationStatus: VerificationStatus; errors: VerificationError[] },
  business: { kycStatus?: KycStatus; owners: OwnerRecords },
): { verificationStatus: VerificationStatus; errors: VerificationError[] } {
  const errors = [...outcome.errors, ...blockingOwners(business.owners)];
  if (outcome.verificationStatus === 'RESOLVE_ERRORS' || !business.kycStatus || business.kycStatus === 'UNVERIFIED')
    return { verificationStatus: outcome.verificationStatus, errors };
  return { verificationStatus: verificationStatusOf(business.kycStatus), errors };
}

/** The status the customer takes over from a verification, if any. */
export function kycStatusFrom(status: VerificationStatus): KycStatus | undefined {
  switch (status) {
    case 'APPROVED':
    case 'REJECTED':
      return status;
    case 'IN_PROGRESS':
    case 'PENDING_MANUAL_REVIEW':
      return 'PENDING';
    default:
      return undefined;
  }
}

/** The review of a verification that has one, else a 404: sandbox checks and incomplete submissions have none. */
export function requireReview(
  state: VerificationState,
  id: string,
): VerificationSnapshot & { review: VerificationReview } {
  const v = state.verification;
  if (!state.exists || !v?.review) throw notFound('KYC_REVIEW', id);
  return v as VerificationSnapshot & { review: VerificationReview };
}

/** A decided review stays decided: a second decision (the same or another) is a 409. */
export function reviewAlreadyDecided(id: string, review: VerificationReview) {
  return conflict(
    'KYC_REVIEW_ALREADY_DECIDED',
    `review ${id} was already decided: ${review.status} by ${review.decidedBy ?? 'unknown'} at ${review.decidedAt}`,
  );
}

function decideReview(cmd: Extract<VerificationCommand, { type: 'DecideReview' }>, state: VerificationState) {
  const before = requireReview(state, state.verification?.id ?? 'unknown');
  if (before.review.status !== 'PENDING') throw reviewAlreadyDecided(before.id, before.review);
  const review: VerificationReview = {
    status: cmd.decision,
    ...(cmd.reason !== undefined ? { reason: cmd.reason } : {}),
    decidedBy: cmd.decidedBy,
    decidedAt: cmd.now,
  };
  const verification: VerificationSnapshot = {
    ...before,
    verificationStatus: cmd.verificationStatus,
    errors: cmd.errors,
    updatedAt: cmd.now,
    review,
  };
  const { id: verificationId, platformId, customerId } = before;
  return [{ type: 'VerificationReviewed' as const, data: { verificationId, platformId, customerId, verification } }];
}

function decide(cmd: VerificationCommand, state: VerificationState): VerificationEvent[] {
  if (cmd.type === 'DecideReview') return decideReview(cmd, state);
  const { id, platformId, customerId, customerType, verificationStatus, errors, now } = cmd;
  if (state.exists) throw conflict('VERIFICATION_EXISTS', `verification ${id} already exists`);
  const verification: VerificationSnapshot = {
    id,
    platformId,
    customerId,
    customerType,
    verificationStatus,
    errors,
    createdAt: now,
    updatedAt: now,
    ...(cmd.review && verificationStatus === 'IN_PROGRESS' ? { review: { status: 'PENDING' as const } } : {}),
  };
  return [{ type: 'VerificationCreated', data: { verificationId: id, platformId, customerId, verification } }];
}

export const verificationDecider: Decider<VerificationState, VerificationCommand, VerificationEvent> =
  latestSnapshotDecider((event) => ({ verification: event.data.verification }), decide);
