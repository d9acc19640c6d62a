import type { CustomerProfile, CustomerType } from '../customers/customer.js';
import { sandboxSuffix } from '../payments/transactions/payment-plan.js';
import type { DocumentType } from '../documents/document-types.js';
import type { VerificationError, VerificationErrorType } from './verification.js';

/** A document category a check needs, the public API's error type for its absence and what satisfies it. */
interface DocumentRequirement {
  type: VerificationErrorType;
  accepted: DocumentType[];
  what: string;
}

const IDENTITY: DocumentRequirement = {
  type: 'MISSING_IDENTITY_DOCUMENT',
  accepted: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
  what: 'an identity document',
};
const PROOF_OF_ADDRESS: DocumentRequirement = {
  type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
  accepted: ['UTILITY_BILL', 'RENT_OR_LEASE_AGREEMENT', 'ELECTRICITY_BILL', 'BANK_STATEMENT', 'TAX_RETURN'],
  what: 'a proof of address',
};
const LEGAL_PRESENCE: DocumentRequirement = {
  type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
  accepted: [
    'CERTIFICATE_OF_INCORPORATION',
    'ARTICLES_OF_INCORPORATION',
    'ARTICLES_OF_ASSOCIATION',
    'STATE_REGISTRY_EXCERPT',
  ],
  what: 'a proof of legal presence',
};
const CONTROL_STRUCTURE: DocumentRequirement = {
  type: 'MISSING_CONTROL_STRUCTURE_DOCUMENT',
  accepted: ['DIRECTOR_REGISTRY', 'TRUST_AGREEMENT', 'STATE_COMPANY_REGISTRY', 'PARTNERSHIP_CONTROL_AGREEMENT'],
  what: 'a control structure document',
};
const OWNERSHIP_STRUCTURE: DocumentRequirement = {
  type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  accepted: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
  what: 'an ownership structure document',
};

/** The documents a check of this kind of customer needs. */
export const REQUIRED_DOCUMENTS: Record<CustomerType, readonly DocumentRequirement[]> = {
  INDIVIDUAL: [IDENTITY, PROOF_OF_ADDRESS],
  BUSINESS: [LEGAL_PRESENCE, CONTROL_STRUCTURE, OWNERSHIP_STRUCTURE],
};

/** The sandbox suffix (last name or registration number) that makes a check ask for documents and owners. */
export const DOCUMENTS_REQUIRED_SUFFIX = '003';

/**
 * Whether a check asks for documents (and, for a business, a beneficial owner). A production check always does
 * (a complete file then stays IN_PROGRESS: there is no KYC provider here to decide it). In the sandbox only customers
 * whose last name (individuals) or registration number (businesses) ends in `003` are asked, so that the other
 * sandbox outcomes (001, 002, anything else) keep working on fields alone.
 */
export function documentsRequired(customerType: CustomerType, profile: CustomerProfile, sandbox: boolean): boolean {
  if (!sandbox) return true;
  const identifier =
    customerType === 'BUSINESS'
      ? profile.businessInfo?.registrationNumber
      : profile.fullName?.trim().split(/\s+/).pop();
  return identifier !== undefined && sandboxSuffix(identifier) === DOCUMENTS_REQUIRED_SUFFIX;
}

/**
 * What a check still needs besides fields: one error per document category none of whose accepted
 * types the customer holds (with `acceptedDocumentTypes`), and MISSING_BENEFICIAL_OWNER for a
 * business without any beneficial owner. Empty when `documentsRequired` says nothing is asked.
 */
export function verificationRequirements(input: {
  customerId: string;
  customerType: CustomerType;
  profile: CustomerProfile;
  sandbox: boolean;
  /** Types of the documents the customer holds. */
  documents: readonly string[];
  beneficialOwners: number;
}): VerificationError[] {
  const { customerId, customerType } = input;
  if (!documentsRequired(customerType, input.profile, input.sandbox)) return [];
  const held = new Set(input.documents);
  const errors: VerificationError[] = REQUIRED_DOCUMENTS[customerType]
    .filter((r) => !r.accepted.some((type) => held.has(type)))
    .map((r) => ({
      resourceId: customerId,
      type: r.type,
      reason: `${r.what} is required: upload one of ${r.accepted.join(', ')}`,
      acceptedDocumentTypes: [...r.accepted],
    }));
  if (customerType === 'BUSINESS' && input.beneficialOwners === 0) {
    errors.push({
      resourceId: customerId,
      type: 'MISSING_BENEFICIAL_OWNER',
      reason: 'at least one beneficial owner is required (POST /beneficial-owners)',
    });
  }
  return errors;
}
