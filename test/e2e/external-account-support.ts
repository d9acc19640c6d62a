import { beforeAll, expect } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { useTestService } from '../support/fixture.js';
import type { Client } from '../support/service.js';

/** An individual beneficiary (accountInfo.beneficiary), Ada by default. */
export const person = (fullName = 'Ada Lovelace', extra: Record<string, unknown> = {}) => ({
  beneficiaryType: 'INDIVIDUAL',
  fullName,
  ...extra,
});
export const ADDRESS = { line1: 'Unter den Linden 1', postalCode: '10117', country: 'DE' };

export const usd = (accountNumber: string, extra: Record<string, unknown> = {}) => ({
  accountType: 'USD_ACCOUNT',
  accountNumber,
  routingNumber: '021000021',
  beneficiary: person(),
  ...extra,
});
export const eur = (iban: string, extra: Record<string, unknown> = {}) => ({
  accountType: 'EUR_ACCOUNT',
  iban,
  beneficiary: person('Ada Lovelace', { address: ADDRESS }),
  ...extra,
});
export const USD_RAILS = ['ACH', 'WIRE', 'RTP', 'FEDNOW'];

/**
 * A service of its own for an external-accounts e2e file, with two customers (Ada: USD, EUR and MXN; Bob: USD)
 * and the helpers its tests share.
 */
export function externalAccountsHarness(start: number) {
  const clock = new ManualClock(start);
  let ada: { id: string };
  let bob: { id: string };
  const customer = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/customers', { customerType: 'INDIVIDUAL', ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const t = useTestService({ clock });
  beforeAll(async () => {
    ada = await customer({ platformCustomerId: 'ada', fullName: 'Ada Lovelace', currencies: ['USD', 'EUR', 'MXN'] });
    bob = await customer({ platformCustomerId: 'bob', fullName: 'Bob Marley', currencies: ['USD'] });
  });

  return {
    clock,
    t,
    api: t.api,
    get ada() {
      return ada;
    },
    get bob() {
      return bob;
    },
    customer,
    async add(body: Record<string, unknown>, expected = 201) {
      clock.advance(1000);
      const res = await t.api.post('/customers/external-accounts', { customerId: ada.id, currency: 'USD', ...body });
      expect({ status: res.status, body: res.body }).toEqual({ status: expected, body: expect.anything() });
      return res.body;
    },
    /** POSTs a USD account with `accountNumber` for `customerId` (through `api`, the file's by default): the reply. */
    registerUsd: (customerId: string, accountNumber: string, api: Client = t.api) =>
      api.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usd(accountNumber) }),
    count: async (path = '/customers/external-accounts') => (await t.api.get(path)).body.totalCount as number,
  };
}
