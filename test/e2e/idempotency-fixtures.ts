import { expect } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import type { ManualClock } from '#domain/clock.js';
import { available } from '#domain/ledger/ledger.js';
import { loadLedger } from '../support/ledger-check.js';
import type { Client, TestService } from '../support/service.js';
import { openWalletAccount } from '../support/wallet-session.js';
import { money } from './money-support.js';
import { googleClaims, sandboxToken } from './wallet-support.js';
import { uniqueValue } from '../support/sequence.js';
import { pendingIncoming as incomingPending } from '../support/sandbox-payments.js';
import type { Case } from './idempotency-cases.js';

/** Fixtures of the Idempotency-Key end-to-end tests (idempotency-creates.e2e.spec.ts). */

export const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };

export const unique = (name: string) => uniqueValue(name);

/** A row of the Idempotency-Key table: the operation as the OpenAPI document names its path, its status, its setup. */
export const caseOf = (op: string, status: number, setup: Case['setup']): Case => ({ op, status, setup });

/** A beneficial owner of `customerId` whose sandbox KYC is APPROVED. */
export const ownerBody = (customerId: string) => ({
  customerId,
  roles: ['UBO'],
  ownershipPercentage: 60,
  personalInfo: {
    firstName: 'Jane',
    lastName: 'Smith',
    birthDate: '1978-06-15',
    nationality: 'US',
    address: { line1: '1 Main St', postalCode: '94105', country: 'US' },
    idType: 'SSN',
    identifier: '123-45-6789',
  },
});

/** The platform's client with `headers` added to every request (for the signed-retry helper). */
export const keyed = (api: Client, headers: Record<string, string>): Client => ({
  ...api,
  request: (method, path, body, extra = {}) => api.request(method, path, body, { ...headers, ...extra }),
});

/** Fixtures the cases build on. */
export function fixtures(t: TestService, clock: ManualClock) {
  const api = t.api;
  const m = money(t);
  const total = async (path: string) => {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    return (res.body.totalCount ?? res.body.data.length) as number;
  };
  /** A customer with an email, a USD account and an EMBEDDED_WALLET in USD (card owner). */
  const holder = async () => {
    const c = await m.customer(['USD'], { email: `${unique('holder')}@example.com` });
    return { ...c, wallet: await openWalletAccount(api, c.id, 'USD') };
  };
  const activeCard = async (amount: number) => {
    const h = await holder();
    await m.fund(h.accounts.USD, amount);
    const body = { customerId: h.id, form: 'VIRTUAL', fundingSources: [h.accounts.USD] };
    const created = await api.post('/cards', body);
    expect(created.status).toBe(201);
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    const state = async () => (await api.get(`/cards/${created.body.id}`)).body.state;
    for (let i = 0; i < 500 && (await state()) !== 'ACTIVE'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await state()).toBe('ACTIVE');
    return { card: created.body.id as string, usd: h.accounts.USD };
  };
  const authorize = async (card: string, amount: number) => {
    const body = { amount, currency: { code: 'USD' }, merchant };
    const res = await api.post(`/sandbox/cards/${card}/simulate/authorization`, body);
    expect(res.body.status).toBe('AUTHORIZED');
    return res.body.id as string;
  };
  /** Two incoming payments PENDING the platform's approval. */
  const pendingIncoming = async () => {
    const c = await m.customer(['USD']);
    const [one, two] = [await incomingPending(api, c.id, 7_000), await incomingPending(api, c.id, 7_000)];
    return { c, one: one.id, two: two.id };
  };
  /** A business customer of the platform (KYB APPROVED in the sandbox). */
  const business = async () => {
    const legal = { businessInfo: { legalName: 'Acme Ltd', registrationNumber: 'REG-123' } };
    return (await m.customer(['USD'], { customerType: 'BUSINESS', ...legal })).id;
  };
  const inviter = async () => {
    const uma = `$${unique('inviter').replace(/-/g, '')}@sandbox.uma.local`;
    await m.customer(['USD'], { umaAddress: uma });
    const invite = async () => {
      const res = await api.post('/invitations', { inviterUma: uma });
      expect(res.status).toBe(201);
      return res.body.code as string;
    };
    return { uma, invite };
  };
  const oauthBody = (accountId: string, sub: string) => ({
    type: 'OAUTH',
    accountId,
    oidcToken: sandboxToken(googleClaims(clock.now().getTime(), { sub })),
  });
  const freeBalance = async (accountId: string) => {
    const ledger = await loadLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
    return Number(available(ledger.accounts.get(accountId)!));
  };
  return { api, m, total, holder, activeCard, authorize, pendingIncoming, business, inviter, oauthBody, freeBalance };
}

export type Fixtures = ReturnType<typeof fixtures>;
