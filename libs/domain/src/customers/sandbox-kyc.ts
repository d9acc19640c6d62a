import type { KycStatus } from './customer.js';

/**
 * Sandbox outcome rule: the last three characters of an identifier select the outcome;
 * 001 -> PENDING, 002 -> REJECTED, anything else -> APPROVED. For identifiers with a domain part
 * the digits go in the username part.
 */
export function sandboxOutcome(identifier: string | undefined): KycStatus {
  if (!identifier) return 'APPROVED';
  const local = identifier.includes('@') ? identifier.slice(0, identifier.lastIndexOf('@')) : identifier;
  const suffix = local.trim().slice(-3);
  if (suffix === '001') return 'PENDING';
  if (suffix === '002') return 'REJECTED';
  return 'APPROVED';
}

/** Individuals: the last name (last word of fullName); businesses: the registration number. */
export function sandboxKycStatus(input: {
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  registrationNumber?: string;
}): KycStatus {
  if (input.customerType === 'BUSINESS') return sandboxOutcome(input.registrationNumber);
  const lastName = input.fullName?.trim().split(/\s+/).pop();
  return sandboxOutcome(lastName);
}
