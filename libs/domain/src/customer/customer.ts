import type { ResourceAbandoned } from '../claims/claim.js';
import type { Decider } from '../decider.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { requestAlreadyUsed } from '../wallet/signed-retry.js';
import { mergeBusinessInfo, type BusinessInfo } from './business-info.js';
import { kybStatusWith, newOutcomes, notABusiness, type KycStatus, type OwnerOutcome } from './kyb.js';

export type { KycStatus, OwnerOutcome } from './kyb.js';

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

export type { BusinessInfo } from './business-info.js';

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

export interface CustomerState {
  exists: boolean;
  id?: string;
  platformId?: string;
  customerType?: CustomerType;
  platformCustomerId?: string;
  isDeleted: boolean;
  /** A claim this id made was taken over before the customer was created: it never will be. */
  abandoned?: boolean;
  /** Individuals: their KYC status. Businesses: their KYB status, own check and owners together (kyb.ts). */
  kycStatus?: KycStatus;
  /** A business's own check, before its owners are taken into account. */
  ownKycStatus?: KycStatus;
  /** The KYC outcomes of a business's beneficial owners, by owner id. */
  owners: Map<string, { kycStatus: KycStatus; version: number }>;
  profile: CustomerProfile;
  accounts: Map<string, InternalAccountRecord>;
  /** requestIds of the signed updates applied (an email change with wallet credentials): each at most once. */
  signedRequests: Set<string>;
}

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
  | ResourceAbandoned;

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
  | { type: 'ChangeKycStatus'; kycStatus: KycStatus; owners?: OwnerOutcome[]; now: string }
  /** A beneficial owner of this business was created or changed: its KYC outcome counts towards the KYB. */
  | { type: 'RecordBeneficialOwnerKyc'; owner: OwnerOutcome; now: string };

const initialState = (): CustomerState => ({
  exists: false,
  isDeleted: false,
  profile: {},
  owners: new Map(),
  accounts: new Map(),
  signedRequests: new Set(),
});

/** Accounts open ACTIVE once the holder is approved; until then they can neither send nor receive. */
export const accountStatusFor = (kyc: KycStatus): InternalAccountStatus => (kyc === 'APPROVED' ? 'ACTIVE' : 'PENDING');

function requireLive(
  state: CustomerState,
): asserts state is CustomerState & { id: string; platformId: string; kycStatus: KycStatus } {
  if (!state.exists || state.isDeleted) throw notFound('CUSTOMER', state.id ?? 'unknown');
}

/** Deleting a deleted customer: the public API's 410 CUSTOMER_DELETED. */
const customerDeleted = (id: string) => new DomainError('gone', 'CUSTOMER_DELETED', `customer ${id} has been deleted`);

function openAccounts(
  state: CustomerState,
  accounts: NewAccount[],
  kyc: KycStatus,
  now: string,
  platformId: string,
  customerId: string,
): CustomerEvent[] {
  return accounts.map((a) => ({
    type: 'InternalAccountOpened',
    data: {
      accountId: a.accountId,
      customerId,
      platformId,
      type: a.type,
      currency: a.currency,
      status: accountStatusFor(kyc),
      createdAt: now,
    },
  }));
}

// eslint-disable-next-line max-lines-per-function -- 92 lines, to be split
function decide(cmd: CustomerCommand, state: CustomerState): CustomerEvent[] {
  if (cmd.type === 'CreateCustomer') {
    if (state.exists || state.abandoned) throw conflict('CUSTOMER_EXISTS', `customer ${cmd.customerId} already exists`);
    return [
      {
        type: 'CustomerCreated',
        data: {
          customerId: cmd.customerId,
          platformId: cmd.platformId,
          platformCustomerId: cmd.platformCustomerId,
          customerType: cmd.customerType,
          kycStatus: cmd.kycStatus,
          profile: cmd.profile,
          createdAt: cmd.now,
        },
      },
      ...openAccounts(state, cmd.accounts, cmd.kycStatus, cmd.now, cmd.platformId, cmd.customerId),
    ];
  }
  if (cmd.type === 'DeleteCustomer' && state.exists && state.isDeleted) throw customerDeleted(state.id!);
  requireLive(state);
  const ids = { customerId: state.id, platformId: state.platformId };
  switch (cmd.type) {
    case 'UpdateCustomer': {
      if (cmd.requestId !== undefined && state.signedRequests.has(cmd.requestId)) throw requestAlreadyUsed();
      const applied: CustomerEvent[] = [];
      if (cmd.requestId !== undefined) {
        applied.push({ type: 'SignedRequestApplied', data: { ...ids, requestId: cmd.requestId } });
      }
      const removed = (state.profile.currencies ?? []).filter(
        (c) => cmd.changes.currencies && !cmd.changes.currencies.includes(c),
      );
      if (removed.length > 0) {
        throw invalid(
          'CURRENCY_REMOVAL_NOT_SUPPORTED',
          `currencies cannot be removed (${removed.join(', ')}); close the account instead`,
          'currencies',
        );
      }
      // Business information given in part keeps the fields not given; the event carries the whole of it.
      const changes = cmd.changes.businessInfo
        ? { ...cmd.changes, businessInfo: mergeBusinessInfo(state.profile.businessInfo, cmd.changes.businessInfo) }
        : cmd.changes;
      return [
        ...applied,
        { type: 'CustomerUpdated', data: { ...ids, changes, updatedAt: cmd.now } },
        ...openAccounts(state, cmd.newAccounts, state.kycStatus, cmd.now, state.platformId, state.id),
      ];
    }
    case 'DeleteCustomer': {
      if (cmd.hasFunds)
        throw conflict('CUSTOMER_HAS_FUNDS', 'the customer still holds funds; move them out before deleting');
      const closes: CustomerEvent[] = [...state.accounts.values()]
        .filter((a) => a.status !== 'CLOSED')
        .map((a) => ({
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: a.id, status: 'CLOSED', updatedAt: cmd.now },
        }));
      return [...closes, { type: 'CustomerDeleted', data: { ...ids, deletedAt: cmd.now } }];
    }
    case 'OpenInternalAccount': {
      const duplicate = [...state.accounts.values()].find(
        (a) => a.type === cmd.account.type && a.currency === cmd.account.currency && a.status !== 'CLOSED',
      );
      if (duplicate) {
        throw new DomainError(
          'conflict',
          'INTERNAL_ACCOUNT_EXISTS',
          `the customer already has an open ${cmd.account.type} account in ${cmd.account.currency} (${duplicate.id})`,
        );
      }
      return openAccounts(state, [cmd.account], state.kycStatus, cmd.now, state.platformId, state.id);
    }
    case 'ChangeKycStatus': {
      if (state.customerType !== 'BUSINESS') return statusChange(state, cmd.kycStatus, cmd.now);
      const recorded = newOutcomes(state.owners, cmd.owners ?? []);
      const own: CustomerEvent[] =
        cmd.kycStatus === state.ownKycStatus
          ? []
          : [{ type: 'BusinessCheckRecorded', data: { ...ids, kycStatus: cmd.kycStatus, updatedAt: cmd.now } }];
      const target = kybStatusWith(cmd.kycStatus, state.owners, recorded);
      return [...ownerEvents(state, recorded, cmd.now), ...own, ...statusChange(state, target, cmd.now)];
    }
    case 'RecordBeneficialOwnerKyc': {
      if (state.customerType !== 'BUSINESS') throw notABusiness(state.id, state.customerType);
      const recorded = newOutcomes(state.owners, [cmd.owner]);
      if (recorded.length === 0) return [];
      const target = kybStatusWith(state.ownKycStatus ?? state.kycStatus, state.owners, recorded);
      return [...ownerEvents(state, recorded, cmd.now), ...statusChange(state, target, cmd.now)];
    }
  }
}

type LiveState = CustomerState & { id: string; platformId: string; kycStatus: KycStatus };

/** The status change to `target` (nothing if already so); approval activates the PENDING accounts. */
function statusChange(state: LiveState, target: KycStatus, now: string): CustomerEvent[] {
  const ids = { customerId: state.id, platformId: state.platformId };
  const events: CustomerEvent[] = [];
  // Back to UNVERIFIED (a platform's PATCH) is recorded apart: it is no verification outcome (no webhook).
  if (target !== state.kycStatus && target === 'UNVERIFIED')
    events.push({ type: 'CustomerKycStatusCleared', data: { ...ids, kycStatus: target, updatedAt: now } });
  else if (target !== state.kycStatus)
    events.push({ type: 'CustomerKycStatusChanged', data: { ...ids, kycStatus: target, updatedAt: now } });
  if (target === 'APPROVED') {
    for (const a of state.accounts.values()) {
      if (a.status === 'PENDING')
        events.push({
          type: 'InternalAccountStatusChanged',
          data: { ...ids, accountId: a.id, status: 'ACTIVE', updatedAt: now },
        });
    }
  }
  return events;
}

const ownerEvents = (state: LiveState, outcomes: OwnerOutcome[], now: string): CustomerEvent[] =>
  outcomes.map((o) => ({
    type: 'BeneficialOwnerKycRecorded',
    data: { customerId: state.id, platformId: state.platformId, ...o, updatedAt: now },
  }));

function evolve(state: CustomerState, event: CustomerEvent): CustomerState {
  switch (event.type) {
    case 'CustomerCreated': {
      const d = event.data;
      return {
        ...state,
        exists: true,
        id: d.customerId,
        platformId: d.platformId,
        platformCustomerId: d.platformCustomerId,
        customerType: d.customerType,
        kycStatus: d.kycStatus,
        ownKycStatus: d.kycStatus,
        profile: { ...d.profile },
      };
    }
    case 'CustomerUpdated': {
      const { platformCustomerId, ...profile } = event.data.changes;
      state.profile = { ...state.profile, ...profile };
      if (platformCustomerId !== undefined) state.platformCustomerId = platformCustomerId;
      return state;
    }
    case 'ResourceAbandoned':
      state.abandoned = true;
      return state;
    case 'CustomerDeleted':
      state.isDeleted = true;
      return state;
    case 'CustomerKycStatusChanged':
    case 'CustomerKycStatusCleared':
      state.kycStatus = event.data.kycStatus;
      // Without owners the KYB status is the business's own check (logs from before owners record no check).
      if (state.owners.size === 0) state.ownKycStatus = event.data.kycStatus;
      return state;
    case 'BusinessCheckRecorded':
      state.ownKycStatus = event.data.kycStatus;
      return state;
    case 'BeneficialOwnerKycRecorded': {
      const { beneficialOwnerId, kycStatus, version } = event.data;
      state.owners.set(beneficialOwnerId, { kycStatus, version });
      return state;
    }
    case 'InternalAccountOpened': {
      const d = event.data;
      state.accounts.set(d.accountId, { id: d.accountId, type: d.type, currency: d.currency, status: d.status });
      return state;
    }
    case 'InternalAccountStatusChanged': {
      const a = state.accounts.get(event.data.accountId);
      if (a) a.status = event.data.status;
      return state;
    }
    case 'SignedRequestApplied':
      state.signedRequests.add(event.data.requestId);
      return state;
  }
}

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = { initialState, evolve, decide };
