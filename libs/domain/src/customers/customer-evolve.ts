import { unreachable } from '../decider.js';
import type { CustomerEvent, CustomerState, ExistingCustomer } from './customer-types.js';

/** A customer stream folded: each event gives a new state (the one given is left as it was). */
export function evolve(state: CustomerState, event: CustomerEvent): CustomerState {
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
    case 'ResourceAbandoned':
      return { ...state, abandoned: true };
    case 'InternalAccountOpened':
    case 'InternalAccountStatusChanged':
      return evolveAccounts(state, event);
    default:
      // The other events are only ever appended to a created customer's stream.
      return state.exists ? evolveExisting(state, event) : state;
  }
}

/** The customer's accounts after an account event (a new map: the state given is left as it was). */
function evolveAccounts(
  state: CustomerState,
  event: Extract<CustomerEvent, { type: 'InternalAccountOpened' | 'InternalAccountStatusChanged' }>,
): CustomerState {
  const d = event.data;
  const accounts = new Map(state.accounts);
  if (event.type === 'InternalAccountOpened') {
    accounts.set(d.accountId, {
      id: d.accountId,
      type: event.data.type,
      currency: event.data.currency,
      status: d.status,
    });
  } else {
    const a = accounts.get(d.accountId);
    if (a) accounts.set(d.accountId, { ...a, status: d.status });
  }
  return { ...state, accounts };
}

type ExistingCustomerEvent = Exclude<
  CustomerEvent,
  { type: 'CustomerCreated' | 'ResourceAbandoned' | 'InternalAccountOpened' | 'InternalAccountStatusChanged' }
>;

function evolveExisting(state: ExistingCustomer, event: ExistingCustomerEvent): ExistingCustomer {
  switch (event.type) {
    case 'CustomerUpdated': {
      const { platformCustomerId, ...profile } = event.data.changes;
      return {
        ...state,
        profile: { ...state.profile, ...profile },
        ...(platformCustomerId !== undefined ? { platformCustomerId } : {}),
      };
    }
    case 'CustomerDeleted':
      return { ...state, isDeleted: true };
    case 'CustomerKycStatusChanged':
    case 'CustomerKycStatusCleared': {
      const kycStatus = event.data.kycStatus;
      // Without owners the KYB status is the business's own check (logs from before owners record no check).
      return { ...state, kycStatus, ...(state.owners.size === 0 ? { ownKycStatus: kycStatus } : {}) };
    }
    case 'BusinessCheckRecorded':
      return { ...state, ownKycStatus: event.data.kycStatus };
    case 'BeneficialOwnerKycRecorded': {
      const { beneficialOwnerId, kycStatus, version } = event.data;
      return { ...state, owners: new Map(state.owners).set(beneficialOwnerId, { kycStatus, version }) };
    }
    case 'KycReviewDecided':
      return state;
    case 'SignedRequestApplied':
      return { ...state, signedRequests: new Set(state.signedRequests).add(event.data.requestId) };
    default:
      return unreachable(event);
  }
}
