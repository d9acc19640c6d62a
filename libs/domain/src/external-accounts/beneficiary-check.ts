import { DomainError } from '../errors.js';
import type { BeneficiaryVerificationStatus } from './external-account.js';

/** The last three characters of an identifier; for `name@domain` identifiers, of the name part. */
export function outcomeSuffix(identifier: string): string {
  const local = identifier.includes('@') ? identifier.slice(0, identifier.lastIndexOf('@')) : identifier;
  return local.trim().slice(-3);
}

const BY_SUFFIX: Record<string, BeneficiaryVerificationStatus | 'INVALID_ACCOUNT'> = {
  '102': 'NOT_MATCHED',
  '103': 'PARTIAL_MATCH',
  '104': 'PENDING',
  '105': 'INVALID_ACCOUNT',
  '106': 'UNSUPPORTED',
  '107': 'CHECKED_BY_RECEIVING_FI',
};

export interface BeneficiaryCheck {
  status: BeneficiaryVerificationStatus;
  /** The name as the receiving institution holds it, when it answered. */
  verifiedData?: { fullName: string };
}

/**
 * Sandbox beneficiary name verification: the primary identifier's last three characters select
 * the outcome (102-107, see the spec's outcome table; anything else matches). 105 means the
 * receiving institution does not know the account, so it cannot be added at all.
 */
export function sandboxBeneficiaryCheck(
  primaryIdentifier: string,
  submittedName: string | undefined,
): BeneficiaryCheck {
  const outcome = BY_SUFFIX[outcomeSuffix(primaryIdentifier)] ?? 'MATCHED';
  if (outcome === 'INVALID_ACCOUNT') {
    throw new DomainError(
      'invalid',
      'INVALID_EXTERNAL_ACCOUNT',
      'the receiving institution reports that this account does not exist or cannot receive payments',
      {
        errors: [
          {
            field: 'accountInfo',
            constraint: 'accountExists',
            message: 'the account identifier is not valid at the receiving institution',
          },
        ],
      },
    );
  }
  const name = submittedName?.trim();
  if (!name) return { status: outcome };
  switch (outcome) {
    case 'MATCHED':
      return { status: outcome, verifiedData: { fullName: name } };
    case 'PARTIAL_MATCH':
      return { status: outcome, verifiedData: { fullName: partialName(name) } };
    case 'NOT_MATCHED':
      return { status: outcome, verifiedData: { fullName: 'Sandbox Account Holder' } };
    default:
      // PENDING, UNSUPPORTED and CHECKED_BY_RECEIVING_FI: no name came back (yet).
      return { status: outcome };
  }
}

/** A name as banks often hold it: initial of the first name plus the last name. */
function partialName(name: string): string {
  const words = name.split(/\s+/);
  if (words.length < 2) return name.toUpperCase();
  return `${words[0][0]}. ${words[words.length - 1]}`;
}
