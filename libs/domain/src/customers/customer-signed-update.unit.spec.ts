import { describe, expect, it } from '@jest/globals';
import { customerDecider, type CustomerCommand, type CustomerEvent } from './customer.js';

const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000001';
const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';
const REQUEST = 'Request:00000000-0000-4000-8000-000000000777';
const at = (s: number) => new Date(Date.UTC(2026, 0, 5) + s * 1000).toISOString();

const fold = (events: CustomerEvent[]) => events.reduce(customerDecider.evolve, customerDecider.initialState());
const decide = (events: CustomerEvent[], cmd: CustomerCommand) => customerDecider.decide(cmd, fold(events));
const created = decide([], {
  type: 'CreateCustomer',
  customerId: CUSTOMER,
  platformId: PLATFORM,
  platformCustomerId: 'c-1',
  customerType: 'INDIVIDUAL',
  kycStatus: 'APPROVED',
  profile: { email: 'old@example.com' },
  accounts: [],
  now: at(0),
});
const emailChange = (requestId?: string): CustomerCommand => ({
  type: 'UpdateCustomer',
  changes: { email: 'new@example.com' },
  newAccounts: [],
  ...(requestId ? { requestId } : {}),
  now: at(10),
});

describe('a signed customer update applies at most once (decider)', () => {
  it('records the requestId in the append that makes the change', () => {
    expect(decide(created, emailChange(REQUEST))).toEqual([
      { type: 'SignedRequestApplied', data: { customerId: CUSTOMER, platformId: PLATFORM, requestId: REQUEST } },
      {
        type: 'CustomerUpdated',
        data: { customerId: CUSTOMER, platformId: PLATFORM, changes: { email: 'new@example.com' }, updatedAt: at(10) },
      },
    ]);
    expect(decide(created, emailChange()).map((e) => e.type)).toEqual(['CustomerUpdated']);
  });

  it('refuses a requestId it already applied with 401 and changes nothing', () => {
    const applied = [...created, ...decide(created, emailChange(REQUEST))];
    expect(fold(applied).profile.email).toBe('new@example.com');
    const spent = { kind: 'unauthorized', code: 'UNAUTHORIZED', details: { reason: 'requestId was already used' } };
    expect(() => decide(applied, emailChange(REQUEST))).toThrow(expect.objectContaining(spent) as never);
  });
});
