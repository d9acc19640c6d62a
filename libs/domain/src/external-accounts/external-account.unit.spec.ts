import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  externalAccountDecider,
  type ExternalAccountCommand,
  type ExternalAccountEvent,
  type ExternalAccountSnapshot,
} from './external-account.js';
import { CUSTOMER, PLATFORM, T0, T1, testId } from '../testing/fixtures.js';

const spec = deciderSpec(externalAccountDecider);
const ID = testId('ExternalAccount', '1');
/** The ids a customer's account's events carry. */
const customerAccount = { externalAccountId: ID, platformId: PLATFORM, customerId: CUSTOMER };
const accountInfo = {
  accountType: 'USD_ACCOUNT',
  accountNumber: '12345678',
  routingNumber: '021000021',
  beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
};

/** What the create command gives and the snapshot records. */
const fields = {
  id: ID,
  platformId: PLATFORM,
  customerId: CUSTOMER,
  currency: 'USD',
  accountInfo,
  primaryIdentifier: '12345678',
  platformAccountId: 'bank-1',
  defaultUmaDepositAccount: false,
  beneficiaryVerificationStatus: 'MATCHED' as const,
  beneficiaryVerifiedData: { fullName: 'Ada Lovelace' },
};

const create = (
  extra: Partial<Extract<ExternalAccountCommand, { type: 'CreateExternalAccount' }>> = {},
): ExternalAccountCommand => ({ type: 'CreateExternalAccount', ...fields, now: T0, ...extra });

const snapshot: ExternalAccountSnapshot = { ...fields, status: 'ACTIVE', createdAt: T0, updatedAt: T0 };
const created: ExternalAccountEvent = {
  type: 'ExternalAccountCreated',
  data: { externalAccountId: ID, platformId: PLATFORM, account: snapshot },
};

describe('external account decider', () => {
  it('creates an ACTIVE account whose event carries the whole snapshot', () => {
    spec.given([]).when(create()).then([created]);
  });

  it('creates the platform’s own account without customerId, platformAccountId or verified data when absent', () => {
    const { customerId: _c, platformAccountId: _p, beneficiaryVerifiedData: _v, ...rest } = snapshot;
    spec
      .given([])
      .when(
        create({
          customerId: undefined,
          platformAccountId: undefined,
          beneficiaryVerifiedData: undefined,
          beneficiaryVerificationStatus: 'PENDING',
        }),
      )
      .then([
        {
          type: 'ExternalAccountCreated',
          data: {
            externalAccountId: ID,
            platformId: PLATFORM,
            account: { ...rest, beneficiaryVerificationStatus: 'PENDING' },
          },
        },
      ]);
  });

  it('folds into the state other features read', () => {
    expect(spec.fold([created])).toEqual({ exists: true, ...snapshot });
  });

  it('keeps an account stored with the retired shape (beneficiary beside accountInfo) as it was', () => {
    const old: ExternalAccountSnapshot = {
      ...snapshot,
      accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' },
      primaryIdentifier: '002010077777777771',
      currency: 'MXN',
      beneficiary: { fullName: 'Ada Lovelace' },
    };
    const oldCreated: ExternalAccountEvent = { ...created, data: { ...created.data, account: old } };
    expect(spec.fold([oldCreated])).toEqual({ exists: true, ...old });
    spec
      .given([oldCreated])
      .when({ type: 'DeleteExternalAccount', now: T1 })
      .then([
        {
          type: 'ExternalAccountDeleted',
          data: {
            ...customerAccount,
            account: { ...old, status: 'DELETED', updatedAt: T1 },
            deletedAt: T1,
          },
        },
      ]);
  });

  it('refuses to create the same account twice', () => {
    spec.given([created]).when(create()).thenFails({ kind: 'conflict', code: 'EXTERNAL_ACCOUNT_EXISTS' });
  });

  it('deletes an active account once', () => {
    const deleted: ExternalAccountEvent = {
      type: 'ExternalAccountDeleted',
      data: {
        ...customerAccount,
        account: { ...snapshot, status: 'DELETED', updatedAt: T1 },
        deletedAt: T1,
      },
    };
    spec.given([created]).when({ type: 'DeleteExternalAccount', now: T1 }).then([deleted]);
    expect(spec.fold([created, deleted])).toMatchObject({ status: 'DELETED', updatedAt: T1 });
    spec
      .given([created, deleted])
      .when({ type: 'DeleteExternalAccount', now: T1 })
      .thenFails({ kind: 'not_found', code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
    spec
      .given([])
      .when({ type: 'DeleteExternalAccount', now: T1 })
      .thenFails({ kind: 'not_found', code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
  });

  it('sets and clears the default UMA deposit flag only when it changes', () => {
    const set: ExternalAccountEvent = {
      type: 'ExternalAccountUpdated',
      data: {
        ...customerAccount,
        changes: { defaultUmaDepositAccount: true },
        account: { ...snapshot, defaultUmaDepositAccount: true, updatedAt: T1 },
        updatedAt: T1,
      },
    };
    spec.given([created]).when({ type: 'SetDefaultUmaDepositAccount', value: true, now: T1 }).then([set]);
    spec.given([created]).when({ type: 'SetDefaultUmaDepositAccount', value: false, now: T1 }).then([]);
    expect(spec.fold([created, set]).defaultUmaDepositAccount).toBe(true);
    const deleted: ExternalAccountEvent = {
      type: 'ExternalAccountDeleted',
      data: { externalAccountId: ID, platformId: PLATFORM, account: snapshot, deletedAt: T1 },
    };
    spec
      .given([created, deleted])
      .when({ type: 'SetDefaultUmaDepositAccount', value: true, now: T1 })
      .thenFails({ kind: 'not_found', code: 'EXTERNAL_ACCOUNT_NOT_FOUND' });
  });
});
