import type { ResourceAbandoned } from '../claims/claim.js';
import type { Decider, Unset } from '../decider.js';
import { conflict, notFound } from '../errors.js';

/**
 * An external account is a bank account or wallet outside the service that a customer (or the
 * platform itself, when `customerId` is absent) pays out to or funds from. The beneficiary name
 * check runs once, when the account is added, so its outcome is part of the creation event.
 */
export type ExternalAccountStatus = 'ACTIVE' | 'DELETED';
export type BeneficiaryVerificationStatus =
  'MATCHED' | 'NOT_MATCHED' | 'PARTIAL_MATCH' | 'PENDING' | 'UNSUPPORTED' | 'CHECKED_BY_RECEIVING_FI';

export interface AccountInfo {
  accountType: string;
  [field: string]: unknown;
}

/**
 * Before the holder moved into `accountInfo.beneficiary`, accounts stored it beside accountInfo; such
 * events keep it (see account-info-view.ts).
 */
export interface Beneficiary {
  fullName: string;
}

export interface ExternalAccountSnapshot {
  id: string;
  platformId: string;
  customerId?: string;
  currency: string;
  status: ExternalAccountStatus;
  accountInfo: AccountInfo;
  primaryIdentifier: string;
  platformAccountId?: string;
  defaultUmaDepositAccount: boolean;
  beneficiary?: Beneficiary;
  beneficiaryVerificationStatus: BeneficiaryVerificationStatus;
  beneficiaryVerifiedData?: { fullName: string };
  /** The account holder's authorization to pull money by direct debit (production bank rails). */
  directDebitMandate?: DirectDebitMandate;
  createdAt: string;
  updatedAt: string;
}

export interface DirectDebitMandate {
  mandateId: string;
  /** YYYY-MM-DD. */
  signedOn: string;
}

/**
 * An account added (deleted or not): its snapshot's fields. `primaryIdentifier` selects sandbox outcomes by its last
 * three digits (account number, IBAN, CLABE, phone, address...); empty when the account type's identifying fields are
 * optional and none was given. `defaultUmaDepositAccount` is absent in events from before it existed.
 */
export type ExistingExternalAccount = { exists: true; abandoned?: boolean } & Omit<
  ExternalAccountSnapshot,
  'defaultUmaDepositAccount'
> & { defaultUmaDepositAccount?: boolean };

export type ExternalAccountState =
  | ({ exists: false; abandoned?: boolean } & Unset<Omit<ExistingExternalAccount, 'exists' | 'abandoned'>>)
  | ExistingExternalAccount;

export type ExternalAccountEvent =
  | {
      type: 'ExternalAccountCreated';
      data: { externalAccountId: string; platformId: string; account: ExternalAccountSnapshot };
    }
  | {
      type: 'ExternalAccountUpdated';
      data: {
        externalAccountId: string;
        platformId: string;
        customerId?: string;
        changes: { defaultUmaDepositAccount: boolean };
        account: ExternalAccountSnapshot;
        updatedAt: string;
      };
    }
  | {
      type: 'ExternalAccountDeleted';
      data: {
        externalAccountId: string;
        platformId: string;
        customerId?: string;
        account: ExternalAccountSnapshot;
        deletedAt: string;
      };
    }
  | ResourceAbandoned;

export type ExternalAccountCommand =
  | {
      type: 'CreateExternalAccount';
      id: string;
      platformId: string;
      customerId?: string;
      currency: string;
      accountInfo: AccountInfo;
      primaryIdentifier: string;
      platformAccountId?: string;
      defaultUmaDepositAccount: boolean;
      directDebitMandate?: DirectDebitMandate;
      beneficiaryVerificationStatus: BeneficiaryVerificationStatus;
      beneficiaryVerifiedData?: { fullName: string };
      now: string;
    }
  /** Only one account per owner and currency is the default for UMA deposits. */
  | { type: 'SetDefaultUmaDepositAccount'; value: boolean; now: string }
  | { type: 'DeleteExternalAccount'; now: string };

const initialState = (): ExternalAccountState => ({ exists: false });

/** The full resource as of the state, for event snapshots. */
export function externalAccountSnapshot(state: ExistingExternalAccount): ExternalAccountSnapshot {
  return {
    id: state.id,
    platformId: state.platformId,
    ...(state.customerId ? { customerId: state.customerId } : {}),
    currency: state.currency,
    status: state.status,
    accountInfo: state.accountInfo,
    primaryIdentifier: state.primaryIdentifier,
    ...(state.platformAccountId !== undefined ? { platformAccountId: state.platformAccountId } : {}),
    defaultUmaDepositAccount: state.defaultUmaDepositAccount ?? false,
    ...(state.beneficiary ? { beneficiary: state.beneficiary } : {}),
    beneficiaryVerificationStatus: state.beneficiaryVerificationStatus,
    ...(state.beneficiaryVerifiedData ? { beneficiaryVerifiedData: state.beneficiaryVerifiedData } : {}),
    ...(state.directDebitMandate ? { directDebitMandate: state.directDebitMandate } : {}),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}

/** The account, added and not deleted, or not found. */
function requireLive(state: ExternalAccountState): ExistingExternalAccount {
  if (!state.exists || state.status === 'DELETED') throw notFound('EXTERNAL_ACCOUNT', state.id ?? 'unknown');
  return state;
}

/** The ids the events of a live account carry (its owner's, for a customer's account). */
function accountIds(state: ExistingExternalAccount) {
  return {
    externalAccountId: state.id,
    platformId: state.platformId,
    ...(state.customerId ? { customerId: state.customerId } : {}),
  };
}

function decide(cmd: ExternalAccountCommand, state: ExternalAccountState): ExternalAccountEvent[] {
  switch (cmd.type) {
    case 'CreateExternalAccount': {
      if (state.exists || state.abandoned)
        throw conflict('EXTERNAL_ACCOUNT_EXISTS', `external account ${cmd.id} already exists`);
      const account: ExternalAccountSnapshot = {
        id: cmd.id,
        platformId: cmd.platformId,
        ...(cmd.customerId ? { customerId: cmd.customerId } : {}),
        currency: cmd.currency,
        status: 'ACTIVE',
        accountInfo: cmd.accountInfo,
        primaryIdentifier: cmd.primaryIdentifier,
        ...(cmd.platformAccountId !== undefined ? { platformAccountId: cmd.platformAccountId } : {}),
        defaultUmaDepositAccount: cmd.defaultUmaDepositAccount,
        beneficiaryVerificationStatus: cmd.beneficiaryVerificationStatus,
        ...(cmd.beneficiaryVerifiedData ? { beneficiaryVerifiedData: cmd.beneficiaryVerifiedData } : {}),
        ...(cmd.directDebitMandate ? { directDebitMandate: cmd.directDebitMandate } : {}),
        createdAt: cmd.now,
        updatedAt: cmd.now,
      };
      return [
        { type: 'ExternalAccountCreated', data: { externalAccountId: cmd.id, platformId: cmd.platformId, account } },
      ];
    }
    case 'SetDefaultUmaDepositAccount': {
      const live = requireLive(state);
      const ids = accountIds(live);
      if ((state.defaultUmaDepositAccount ?? false) === cmd.value) return [];
      const changes = { defaultUmaDepositAccount: cmd.value };
      const account = { ...externalAccountSnapshot(live), ...changes, updatedAt: cmd.now };
      return [
        {
          type: 'ExternalAccountUpdated',
          data: { ...ids, changes, account, updatedAt: cmd.now },
        },
      ];
    }
    case 'DeleteExternalAccount': {
      const live = requireLive(state);
      const ids = accountIds(live);
      const account = { ...externalAccountSnapshot(live), status: 'DELETED' as const, updatedAt: cmd.now };
      return [
        {
          type: 'ExternalAccountDeleted',
          data: { ...ids, account, deletedAt: cmd.now },
        },
      ];
    }
  }
}

function evolve(state: ExternalAccountState, event: ExternalAccountEvent): ExternalAccountState {
  switch (event.type) {
    case 'ExternalAccountCreated':
      return { exists: true, ...event.data.account };
    case 'ExternalAccountUpdated':
      return state.exists ? { ...state, ...event.data.changes, updatedAt: event.data.updatedAt } : state;
    case 'ExternalAccountDeleted':
      return state.exists ? { ...state, status: 'DELETED', updatedAt: event.data.deletedAt } : state;
    case 'ResourceAbandoned':
      return { ...state, abandoned: true };
  }
}

export const externalAccountDecider: Decider<ExternalAccountState, ExternalAccountCommand, ExternalAccountEvent> = {
  initialState,
  evolve,
  decide,
};
