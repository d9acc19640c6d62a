import type { ResourceAbandoned } from '../claims/claim.js';
import type { Decider } from '../decider.js';
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
  createdAt: string;
  updatedAt: string;
}

export interface ExternalAccountState {
  exists: boolean;
  /** A claim this id made was taken over before the account was created: it never will be. */
  abandoned?: boolean;
  id?: string;
  platformId?: string;
  /** Absent: the account is the platform's own. */
  customerId?: string;
  currency?: string;
  status?: ExternalAccountStatus;
  accountInfo?: AccountInfo;
  /**
   * The identifier whose last three digits select sandbox outcomes (account number, IBAN, CLABE, phone,
   * address...); empty when the account type's identifying fields are optional and none was given.
   */
  primaryIdentifier?: string;
  beneficiaryVerificationStatus?: string;
  platformAccountId?: string;
  defaultUmaDepositAccount?: boolean;
  beneficiary?: Beneficiary;
  beneficiaryVerifiedData?: { fullName: string };
  createdAt?: string;
  updatedAt?: string;
}

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
      beneficiaryVerificationStatus: BeneficiaryVerificationStatus;
      beneficiaryVerifiedData?: { fullName: string };
      now: string;
    }
  /** Only one account per owner and currency is the default for UMA deposits. */
  | { type: 'SetDefaultUmaDepositAccount'; value: boolean; now: string }
  | { type: 'DeleteExternalAccount'; now: string };

const initialState = (): ExternalAccountState => ({ exists: false });

/** The full resource as of the state, for event snapshots. */
export function externalAccountSnapshot(state: ExternalAccountState): ExternalAccountSnapshot {
  return {
    id: state.id!,
    platformId: state.platformId!,
    ...(state.customerId ? { customerId: state.customerId } : {}),
    currency: state.currency!,
    status: state.status!,
    accountInfo: state.accountInfo!,
    primaryIdentifier: state.primaryIdentifier!,
    ...(state.platformAccountId !== undefined ? { platformAccountId: state.platformAccountId } : {}),
    defaultUmaDepositAccount: state.defaultUmaDepositAccount ?? false,
    ...(state.beneficiary ? { beneficiary: state.beneficiary } : {}),
    beneficiaryVerificationStatus: state.beneficiaryVerificationStatus as BeneficiaryVerificationStatus,
    ...(state.beneficiaryVerifiedData ? { beneficiaryVerifiedData: state.beneficiaryVerifiedData } : {}),
    createdAt: state.createdAt!,
    updatedAt: state.updatedAt!,
  };
}

/** The ids the events of a live account carry (its owner's, for a customer's account); a 404 for a deleted one. */
function liveAccountIds(state: ExternalAccountState) {
  if (!state.exists || state.status === 'DELETED') throw notFound('EXTERNAL_ACCOUNT', state.id ?? 'unknown');
  return {
    externalAccountId: state.id!,
    platformId: state.platformId!,
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
        createdAt: cmd.now,
        updatedAt: cmd.now,
      };
      return [
        { type: 'ExternalAccountCreated', data: { externalAccountId: cmd.id, platformId: cmd.platformId, account } },
      ];
    }
    case 'SetDefaultUmaDepositAccount': {
      const ids = liveAccountIds(state);
      if ((state.defaultUmaDepositAccount ?? false) === cmd.value) return [];
      const changes = { defaultUmaDepositAccount: cmd.value };
      const account = { ...externalAccountSnapshot(state), ...changes, updatedAt: cmd.now };
      return [
        {
          type: 'ExternalAccountUpdated',
          data: { ...ids, changes, account, updatedAt: cmd.now },
        },
      ];
    }
    case 'DeleteExternalAccount': {
      const ids = liveAccountIds(state);
      const account = { ...externalAccountSnapshot(state), status: 'DELETED' as const, updatedAt: cmd.now };
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
      return { ...state, ...event.data.changes, updatedAt: event.data.updatedAt };
    case 'ExternalAccountDeleted':
      return { ...state, status: 'DELETED', updatedAt: event.data.deletedAt };
    case 'ResourceAbandoned':
      return { ...state, abandoned: true };
  }
}

export const externalAccountDecider: Decider<ExternalAccountState, ExternalAccountCommand, ExternalAccountEvent> = {
  initialState,
  evolve,
  decide,
};
