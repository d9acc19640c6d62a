import { DomainError } from '../errors.js';

/** UNVERIFIED: no check has started (a platform may create or set a customer so). */
export type KycStatus = 'UNVERIFIED' | 'APPROVED' | 'PENDING' | 'REJECTED';

/**
 * KYB of a business takes two kinds of outcome into account: the business's own check (its
 * registration number in the sandbox) and the KYC of each of its beneficial owners. The business
 * is APPROVED only when all of them are; otherwise it takes the worst of them, REJECTED before
 * PENDING. Individuals have no owners: their status is their own check's.
 */
const RANK: Record<KycStatus, number> = { APPROVED: 0, PENDING: 1, UNVERIFIED: 2, REJECTED: 3 };

export function kybStatus(own: KycStatus, owners: Iterable<KycStatus>): KycStatus {
  let worst = own;
  for (const status of owners) if (RANK[status] > RANK[worst]) worst = status;
  return worst;
}

/**
 * An owner's KYC outcome as the business records it. `version` counts the events of the owner's
 * stream when the outcome was read, so a late report of an older outcome never replaces a newer one.
 */
export interface OwnerOutcome {
  beneficialOwnerId: string;
  kycStatus: KycStatus;
  version: number;
}

/** Beneficial owners belong to business customers only. */
export function notABusiness(customerId: string, customerType: string | undefined): DomainError {
  const message =
    `customer ${customerId} is ${customerType === 'INDIVIDUAL' ? 'an INDIVIDUAL' : 'not a BUSINESS'} customer; ` +
    'beneficial owners belong to BUSINESS customers';
  return new DomainError('invalid', 'INVALID_INPUT', message, {
    errors: [{ field: 'customerId', constraint: 'isBusinessCustomer', message }],
  });
}

/** The owners' outcomes a business has recorded, by owner id. */
export type OwnerRecords = ReadonlyMap<string, { kycStatus: KycStatus; version: number }>;

/** The outcomes the business does not have yet: an owner's older or same version is ignored. */
export const newOutcomes = (known: OwnerRecords, outcomes: OwnerOutcome[]): OwnerOutcome[] =>
  outcomes.filter((o) => (known.get(o.beneficialOwnerId)?.version ?? -1) < o.version);

/** The KYB status once `recorded` is added to the known outcomes. */
export function kybStatusWith(own: KycStatus, known: OwnerRecords, recorded: OwnerOutcome[]): KycStatus {
  const owners = new Map([...known].map(([id, o]) => [id, o.kycStatus]));
  for (const o of recorded) owners.set(o.beneficialOwnerId, o.kycStatus);
  return kybStatus(own, owners.values());
}
