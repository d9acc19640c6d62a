import { unreachable, type Decider } from '../decider.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { requestAlreadyUsed } from '../wallet/signed-retry.js';
import { evolve } from './customer-evolve.js';
import { mergeBusinessInfo } from './business-info.js';
import { kybStatusWith, newOutcomes, notABusiness, type KycStatus, type OwnerOutcome } from './kyb.js';
import type {
  CustomerCommand,
  CustomerEvent,
  CustomerState,
  ExistingCustomer,
  InternalAccountStatus,
  NewAccount,
} from './customer-types.js';

export type { KycStatus, OwnerOutcome } from './kyb.js';
export type { BusinessInfo } from './business-info.js';
export type {
  CustomerType,
  InternalAccountType,
  InternalAccountStatus,
  Address,
  CustomerProfile,
  CustomerChanges,
  InternalAccountRecord,
  ExistingCustomer,
  CustomerState,
  NewCustomer,
  NewAccount,
  CustomerEvent,
  CustomerCommand,
} from './customer-types.js';

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

/** The customer, created and not deleted, or not found. */
function requireLive(state: CustomerState): ExistingCustomer {
  if (!state.exists || state.isDeleted) throw notFound('CUSTOMER', state.id ?? 'unknown');
  return state;
}

/** Deleting a deleted customer: the public API's 410 CUSTOMER_DELETED. */
const customerDeleted = (id: string) => new DomainError('gone', 'CUSTOMER_DELETED', `customer ${id} has been deleted`);

function openAccounts(
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

function decide(cmd: CustomerCommand, state: CustomerState): CustomerEvent[] {
  switch (cmd.type) {
    case 'CreateCustomer':
      return decideCreate(cmd, state);
    case 'DeleteCustomer':
      if (state.exists && state.isDeleted) throw customerDeleted(state.id);
      return decideDelete(cmd, requireLive(state));
    case 'UpdateCustomer':
      return decideUpdate(cmd, requireLive(state));
    case 'OpenInternalAccount':
      return decideOpenAccount(cmd, requireLive(state));
    case 'ChangeKycStatus':
    case 'RecordBeneficialOwnerKyc':
      return decideKyc(cmd, requireLive(state));
    default:
      return unreachable(cmd);
  }
}

type CommandOf<T extends CustomerCommand['type']> = Extract<CustomerCommand, { type: T }>;

const idsOf = (state: ExistingCustomer) => ({ customerId: state.id, platformId: state.platformId });

function decideCreate(cmd: CommandOf<'CreateCustomer'>, state: CustomerState): CustomerEvent[] {
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
    ...openAccounts(cmd.accounts, cmd.kycStatus, cmd.now, cmd.platformId, cmd.customerId),
  ];
}

function decideUpdate(cmd: CommandOf<'UpdateCustomer'>, state: ExistingCustomer): CustomerEvent[] {
  if (cmd.requestId !== undefined && state.signedRequests.has(cmd.requestId)) throw requestAlreadyUsed();
  const ids = idsOf(state);
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
    ...openAccounts(cmd.newAccounts, state.kycStatus, cmd.now, state.platformId, state.id),
  ];
}

function decideDelete(cmd: CommandOf<'DeleteCustomer'>, state: ExistingCustomer): CustomerEvent[] {
  if (cmd.hasFunds)
    throw conflict('CUSTOMER_HAS_FUNDS', 'the customer still holds funds; move them out before deleting');
  const ids = idsOf(state);
  const closes: CustomerEvent[] = [...state.accounts.values()]
    .filter((a) => a.status !== 'CLOSED')
    .map((a) => ({
      type: 'InternalAccountStatusChanged',
      data: { ...ids, accountId: a.id, status: 'CLOSED', updatedAt: cmd.now },
    }));
  return [...closes, { type: 'CustomerDeleted', data: { ...ids, deletedAt: cmd.now } }];
}

function decideOpenAccount(cmd: CommandOf<'OpenInternalAccount'>, state: ExistingCustomer): CustomerEvent[] {
  const duplicate = [...state.accounts.values()].find(
    (a) => a.type === cmd.account.type && a.currency === cmd.account.currency && a.status !== 'CLOSED',
  );
  if (duplicate) {
    throw conflict(
      'INTERNAL_ACCOUNT_EXISTS',
      `the customer already has an open ${cmd.account.type} account in ${cmd.account.currency} (${duplicate.id})`,
    );
  }
  return openAccounts([cmd.account], state.kycStatus, cmd.now, state.platformId, state.id);
}

function decideKyc(
  cmd: CommandOf<'ChangeKycStatus' | 'RecordBeneficialOwnerKyc'>,
  state: ExistingCustomer,
): CustomerEvent[] {
  if (cmd.type === 'RecordBeneficialOwnerKyc') {
    if (state.customerType !== 'BUSINESS') throw notABusiness(state.id, state.customerType);
    const recorded = newOutcomes(state.owners, [cmd.owner]);
    if (recorded.length === 0) return [];
    const target = kybStatusWith(state.ownKycStatus ?? state.kycStatus, state.owners, recorded);
    return [...ownerEvents(state, recorded, cmd.now), ...statusChange(state, target, cmd.now)];
  }
  const review = reviewEvent(state, cmd);
  if (state.customerType !== 'BUSINESS') return [...review, ...statusChange(state, cmd.kycStatus, cmd.now)];
  const recorded = newOutcomes(state.owners, cmd.owners ?? []);
  const own: CustomerEvent[] =
    cmd.kycStatus === state.ownKycStatus
      ? []
      : [{ type: 'BusinessCheckRecorded', data: { ...idsOf(state), kycStatus: cmd.kycStatus, updatedAt: cmd.now } }];
  const target = kybStatusWith(cmd.kycStatus, state.owners, recorded);
  return [...review, ...ownerEvents(state, recorded, cmd.now), ...own, ...statusChange(state, target, cmd.now)];
}

/** The review decision a status change carries, recorded first so that the customer's history names its reviewer. */
function reviewEvent(state: ExistingCustomer, cmd: CommandOf<'ChangeKycStatus'>): CustomerEvent[] {
  if (!cmd.review) return [];
  const { verificationId, decision, reason, decidedBy } = cmd.review;
  const data = { ...idsOf(state), verificationId, decision, ...(reason !== undefined ? { reason } : {}), decidedBy };
  return [{ type: 'KycReviewDecided', data: { ...data, updatedAt: cmd.now } }];
}

/** The status change to `target` (nothing if already so); approval activates the PENDING accounts. */
function statusChange(state: ExistingCustomer, target: KycStatus, now: string): CustomerEvent[] {
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

const ownerEvents = (state: ExistingCustomer, outcomes: OwnerOutcome[], now: string): CustomerEvent[] =>
  outcomes.map((o) => ({
    type: 'BeneficialOwnerKycRecorded',
    data: { customerId: state.id, platformId: state.platformId, ...o, updatedAt: now },
  }));

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = { initialState, evolve, decide };
