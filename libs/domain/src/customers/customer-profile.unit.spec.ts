import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import { mergeBusinessInfo, type BusinessInfo } from './business-info.js';
import { kybStatus } from './kyb.js';
import { customerDecider, type CustomerCommand, type CustomerEvent } from './customer.js';

const spec = deciderSpec(customerDecider);
const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000001';
const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';
const ids = { customerId: CUSTOMER, platformId: PLATFORM };
const at = (s: number) => new Date(Date.UTC(2026, 0, 5) + s * 1000).toISOString();
const business: BusinessInfo = {
  legalName: 'Acme Corp',
  incorporatedOn: '2015-03-01',
  entityType: 'LLC',
  countriesOfOperation: ['US', 'MX'],
  expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
};
const create = (kycStatus: 'UNVERIFIED' | 'APPROVED' = 'UNVERIFIED'): CustomerCommand => ({
  type: 'CreateCustomer',
  ...ids,
  platformCustomerId: 'b-1',
  customerType: 'BUSINESS',
  kycStatus,
  profile: { businessInfo: business },
  accounts: [
    { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000002', type: 'INTERNAL_FIAT', currency: 'USD' },
  ],
  now: at(0),
});
const update = (changes: Extract<CustomerCommand, { type: 'UpdateCustomer' }>['changes']): CustomerCommand => ({
  type: 'UpdateCustomer',
  changes,
  newAccounts: [],
  now: at(10),
});

describe('customer profile and status rules', () => {
  it('keeps business information fields an update does not give, and records the whole of it', () => {
    const created = spec.history(create());
    const events = spec
      .given(created)
      .when(update({ businessInfo: { doingBusinessAs: 'Acme', legalName: 'Acme Inc' } }))
      .thenEmits();
    const merged = { ...business, legalName: 'Acme Inc', doingBusinessAs: 'Acme' };
    expect(events).toEqual([
      { type: 'CustomerUpdated', data: { ...ids, changes: { businessInfo: merged }, updatedAt: at(10) } },
    ]);
    expect(spec.fold([...created, ...events]).profile.businessInfo).toEqual(merged);
    expect(mergeBusinessInfo(undefined, { taxId: '1', country: undefined })).toEqual({ taxId: '1' });
  });

  it('opens the accounts of a customer created UNVERIFIED as PENDING; an APPROVED one as ACTIVE', () => {
    const status = (cmd: CustomerCommand) =>
      spec
        .given([])
        .when(cmd)
        .thenEmits()
        .find((e) => e.type === 'InternalAccountOpened')?.data;
    expect(status(create())).toMatchObject({ status: 'PENDING' });
    expect(status(create('APPROVED'))).toMatchObject({ status: 'ACTIVE' });
  });

  it('records a return to UNVERIFIED apart from verification outcomes', () => {
    const approved = spec.history(create('APPROVED'));
    spec
      .given(approved)
      .when({ type: 'ChangeKycStatus', kycStatus: 'UNVERIFIED', now: at(20) })
      .then([
        { type: 'BusinessCheckRecorded', data: { ...ids, kycStatus: 'UNVERIFIED', updatedAt: at(20) } },
        { type: 'CustomerKycStatusCleared', data: { ...ids, kycStatus: 'UNVERIFIED', updatedAt: at(20) } },
      ] as CustomerEvent[]);
    const cleared = spec.history(create('APPROVED'), { type: 'ChangeKycStatus', kycStatus: 'UNVERIFIED', now: at(20) });
    expect(spec.fold(cleared).kycStatus).toBe('UNVERIFIED');
    expect(kybStatus('APPROVED', ['UNVERIFIED'])).toBe('UNVERIFIED');
    expect(kybStatus('UNVERIFIED', ['REJECTED'])).toBe('REJECTED');
  });

  it('answers 410 CUSTOMER_DELETED to deleting a deleted customer, 404 to one that never existed', () => {
    const deleted = spec.history(create(), { type: 'DeleteCustomer', hasFunds: false, now: at(30) });
    spec
      .given(deleted)
      .when({ type: 'DeleteCustomer', hasFunds: false, now: at(40) })
      .thenFails({ kind: 'gone', code: 'CUSTOMER_DELETED' });
    spec
      .given([])
      .when({ type: 'DeleteCustomer', hasFunds: false, now: at(40) })
      .thenFails({ kind: 'not_found', code: 'CUSTOMER_NOT_FOUND' });
    spec
      .given(deleted)
      .when(update({ email: 'a@b.co' }))
      .thenFails({ kind: 'not_found', code: 'CUSTOMER_NOT_FOUND' });
  });
});
