import type { Decider } from '../decider.js';
import { conflict } from '../errors.js';
import type { CustomerProfile, CustomerType, KycStatus } from '../customer/customer.js';
import type { OwnerRecords } from '../customer/kyb.js';
import { sandboxKycStatus } from '../customer/sandbox-kyc.js';

/**
 * A verification is one KYC (individuals) or KYB (businesses) check of a customer. Its outcome is
 * decided when it is submitted: RESOLVE_ERRORS when the customer lacks fields the check needs
 * (listed in `errors`, the customer's status is left alone), otherwise the provider's answer,
 * which the customer aggregate then takes over as its kycStatus.
 */
export type VerificationStatus = KycStatus | 'RESOLVE_ERRORS';

export interface VerificationError {
  /** A field of the customer, or of the resource `resourceId` names. */
  field: string;
  /** MISSING_FIELD: the customer lacks it; APPLICANT_*: a beneficial owner's KYC keeps a business from approval. */
  code: 'MISSING_FIELD' | 'APPLICANT_REJECTED' | 'APPLICANT_PENDING';
  message: string;
  /** The resource with the issue when it is not the customer: a beneficial owner. */
  resourceId?: string;
}

export interface VerificationSnapshot {
  id: string;
  platformId: string;
  customerId: string;
  customerType: CustomerType;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

export interface VerificationState {
  exists: boolean;
  verification?: VerificationSnapshot;
}

export type VerificationEvent = {
  type: 'VerificationCreated';
  data: { verificationId: string; platformId: string; customerId: string; verification: VerificationSnapshot };
};

export type VerificationCommand = {
  type: 'CreateVerification';
  id: string;
  platformId: string;
  customerId: string;
  customerType: CustomerType;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  now: string;
};

/** Verifications have their own streams; the kind is not one the customer stream could hold. */
export const verificationStream = (verificationId: string) => `verification-${verificationId.split(':')[1]}`;

const missing = (field: string, what: string): VerificationError => ({
  field,
  code: 'MISSING_FIELD',
  message: `${field} is required for ${what}`,
});

const ADDRESS_PARTS = ['line1', 'city', 'postalCode', 'country'] as const;

/** Fields a KYC (individual) or KYB (business) check needs that the customer does not have yet. */
export function missingVerificationFields(customerType: CustomerType, profile: CustomerProfile): VerificationError[] {
  const what = customerType === 'BUSINESS' ? 'KYB' : 'KYC';
  const errors: VerificationError[] = [];
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';
  if (customerType === 'BUSINESS') {
    if (blank(profile.businessInfo?.legalName)) errors.push(missing('businessInfo.legalName', what));
    if (blank(profile.businessInfo?.registrationNumber)) errors.push(missing('businessInfo.registrationNumber', what));
  } else {
    if (blank(profile.fullName)) errors.push(missing('fullName', what));
    if (blank(profile.birthDate)) errors.push(missing('birthDate', what));
  }
  if (!profile.address) errors.push(missing('address', what));
  else
    for (const part of ADDRESS_PARTS) if (blank(profile.address[part])) errors.push(missing(`address.${part}`, what));
  return errors;
}

/**
 * The outcome of a check. Without a provider (production platforms here) a complete submission
 * waits in PENDING; the sandbox answers at once from the registration number or last name suffix.
 */
export function verificationOutcome(
  customerType: CustomerType,
  profile: CustomerProfile,
  sandbox: boolean,
): { verificationStatus: VerificationStatus; errors: VerificationError[] } {
  const errors = missingVerificationFields(customerType, profile);
  if (errors.length > 0) return { verificationStatus: 'RESOLVE_ERRORS', errors };
  const verificationStatus = sandbox
    ? sandboxKycStatus({
        customerType,
        fullName: profile.fullName,
        registrationNumber: profile.businessInfo?.registrationNumber,
      })
    : 'PENDING';
  return { verificationStatus, errors };
}

/** The beneficial owners whose KYC keeps a business from approval (REJECTED or PENDING), as errors. */
export function blockingOwners(owners: OwnerRecords): VerificationError[] {
  return [...owners]
    .filter(([, o]) => o.kycStatus !== 'APPROVED')
    .map(([resourceId, o]) =>
      o.kycStatus === 'REJECTED'
        ? {
            resourceId,
            field: 'kycStatus',
            code: 'APPLICANT_REJECTED' as const,
            message:
              `beneficial owner ${resourceId} was rejected by KYC; ` +
              'correct its personalInfo to have it checked again',
          }
        : {
            resourceId,
            field: 'kycStatus',
            code: 'APPLICANT_PENDING' as const,
            message: `beneficial owner ${resourceId} is still pending KYC`,
          },
    );
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
  if (outcome.verificationStatus === 'RESOLVE_ERRORS' || !business.kycStatus)
    return { verificationStatus: outcome.verificationStatus, errors };
  return { verificationStatus: business.kycStatus, errors };
}

/** The status the customer takes over from a verification, if any. */
export const kycStatusFrom = (status: VerificationStatus): KycStatus | undefined =>
  status === 'RESOLVE_ERRORS' ? undefined : status;

function decide(cmd: VerificationCommand, state: VerificationState): VerificationEvent[] {
  if (state.exists) throw conflict('VERIFICATION_EXISTS', `verification ${cmd.id} already exists`);
  const verification: VerificationSnapshot = {
    id: cmd.id,
    platformId: cmd.platformId,
    customerId: cmd.customerId,
    customerType: cmd.customerType,
    verificationStatus: cmd.verificationStatus,
    errors: cmd.errors,
    createdAt: cmd.now,
    updatedAt: cmd.now,
  };
  return [
    {
      type: 'VerificationCreated',
      data: { verificationId: cmd.id, platformId: cmd.platformId, customerId: cmd.customerId, verification },
    },
  ];
}

function evolve(_state: VerificationState, event: VerificationEvent): VerificationState {
  return { exists: true, verification: event.data.verification };
}

export const verificationDecider: Decider<VerificationState, VerificationCommand, VerificationEvent> = {
  initialState: () => ({ exists: false }),
  evolve,
  decide,
};
