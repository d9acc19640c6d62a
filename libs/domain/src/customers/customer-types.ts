import type { ResourceAbandoned } from '../claims/claim.js';
import type { Unset } from '../decider.js';
import type { BusinessInfo } from './business-info.js';
import type { KycStatus, OwnerOutcome } from './kyb.js';

/** The customer aggregate also owns the customer's internal accounts, so both open in one append. */
export type CustomerType = 'INDIVIDUAL' | 'BUSINESS';
export type InternalAccountType = 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';
export type InternalAccountStatus = 'PENDING' | 'ACTIVE' | 'CLOSED' | 'FROZEN';

export interface Address {
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/** Fields a platform may set on create and change on update. */
export interface CustomerProfile {
  umaAddress?: string;
  region?: string;
  currencies?: string[];
  email?: string;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
}

/** An update may also change the platform's own id of the customer. */
export type CustomerChanges = CustomerProfile & { platformCustomerId?: string };

export interface InternalAccountRecord {
  id: string;
  type: InternalAccountType;
  currency: string;
  status: InternalAccountStatus;
  privateEnabled?: boolean;
}

/** What a customer stream holds from its creation on. */
interface CustomerRecord {
  id: string;
  platformId: string;
  customerType: CustomerType;
  platformCustomerId: string;
  /** Individuals: their KYC status. Businesses: their KYB status, own check and owners together (kyb.ts). */
  kycStatus: KycStatus;
  /** A business's own check, before its owners are taken into account. */
  ownKycStatus: KycStatus;
}

/** What every customer stream holds, before its creation too (empty then). */
interface CustomerHoldings {
  isDeleted: boolean;
  /** A claim this id made was taken over before the customer was created: it never will be. */
  abandoned?: boolean;
  /** The KYC outcomes of a business's beneficial owners, by owner id. */
  owners: Map<string, { kycStatus: KycStatus; version: number }>;
  profile: CustomerProfile;
  accounts: Map<string, InternalAccountRecord>;
  /** requestIds of the signed updates applied (an email change with wallet credentials): each at most once. */
  signedRequests: Set<string>;
}

/** A customer created (deleted or not). */
export type ExistingCustomer = { exists: true } & CustomerRecord & CustomerHoldings;

export type CustomerState = ({ exists: false } & Unset<CustomerRecord> & CustomerHoldings) | ExistingCustomer;

/** What creating a customer decides, as the command gives it and the CustomerCreated event records it. */
export interface NewCustomer {
  customerId: string;
  platformId: string;
  platformCustomerId: string;
  customerType: CustomerType;
  kycStatus: KycStatus;
  profile: CustomerProfile;
}

export interface NewAccount {
  accountId: string;
  type: InternalAccountType;
  currency: string;
}

export type CustomerEvent =
  | { type: 'CustomerCreated'; data: NewCustomer & { createdAt: string } }
  | {
      type: 'CustomerUpdated';
      data: { customerId: string; platformId: string; changes: CustomerChanges; updatedAt: string };
    }
  | { type: 'CustomerDeleted'; data: { customerId: string; platformId: string; deletedAt: string } }
  | {
      type: 'CustomerKycStatusChanged' | 'CustomerKycStatusCleared';
      data: { customerId: string; platformId: string; kycStatus: KycStatus; updatedAt: string };
    }
  | {
      type: 'InternalAccountOpened';
      data: {
        accountId: string;
        customerId: string;
        platformId: string;
        type: InternalAccountType;
        currency: string;
        status: InternalAccountStatus;
        createdAt: string;
      };
    }
  | {
      type: 'InternalAccountStatusChanged';
      data: {
        accountId: string;
        customerId: string;
        platformId: string;
        status: InternalAccountStatus;
        updatedAt: string;
      };
    }
  /** Appended with the update a signed retry authorized. */
  | { type: 'SignedRequestApplied'; data: { customerId: string; platformId: string; requestId: string } }
  /** A business's own check; its KYB status changes (CustomerKycStatusChanged) only if the owners allow it. */
  | {
      type: 'BusinessCheckRecorded';
      data: { customerId: string; platformId: string; kycStatus: KycStatus; updatedAt: string };
    }
  | {
      type: 'BeneficialOwnerKycRecorded';
      data: {
        customerId: string;
        platformId: string;
        beneficialOwnerId: string;
        kycStatus: KycStatus;
        version: number;
        updatedAt: string;
      };
    }
  /** A reviewer's decision on the customer's verification (production KYC review): who, when and why. */
  | {
      type: 'KycReviewDecided';
      data: {
        customerId: string;
        platformId: string;
        verificationId: string;
        decision: 'APPROVED' | 'REJECTED';
        reason?: string;
        decidedBy: string;
        updatedAt: string;
      };
    }
  | ResourceAbandoned;

/** The review whose decision a status change carries. */
export interface KycReviewDecision {
  verificationId: string;
  decision: 'APPROVED' | 'REJECTED';
  reason?: string;
  decidedBy: string;
}

export type CustomerCommand =
  | ({ type: 'CreateCustomer'; accounts: NewAccount[]; now: string } & NewCustomer)
  /** `requestId`: the signed retry that authorized it (consumed in the wallet stream just before). */
  | { type: 'UpdateCustomer'; changes: CustomerChanges; newAccounts: NewAccount[]; requestId?: string; now: string }
  | { type: 'DeleteCustomer'; now: string; hasFunds: boolean }
  | { type: 'OpenInternalAccount'; account: NewAccount; now: string }
  /**
   * A verification's outcome; approval activates the accounts that waited for it. For a business
   * it is the business's own check, taken together with its owners (`owners`: as read again by the
   * verification, recorded first).
   */
  | { type: 'ChangeKycStatus'; kycStatus: KycStatus; owners?: OwnerOutcome[]; review?: KycReviewDecision; now: string }
  /** A beneficial owner of this business was created or changed: its KYC outcome counts towards the KYB. */
  | { type: 'RecordBeneficialOwnerKyc'; owner: OwnerOutcome; now: string };
