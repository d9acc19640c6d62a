import { expect } from '@jest/globals';
import { useTestService, type FixtureOptions } from '../support/fixture.js';
import { client, type Client, type TestService } from '../support/service.js';
import { money, type Customer } from './money-support.js';

/** Helpers shared by the agents end-to-end tests. */
export const ALL_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
];

export const policy = (extra: Record<string, unknown> = {}, limits: Record<string, unknown> = {}) => ({
  permissions: ALL_PERMISSIONS,
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 100_000, ...limits },
  ...extra,
});

export interface ConnectedAgent {
  id: string;
  token: string;
  me: Client;
  customer: Customer;
  /** The customer's USD external account (completes at once in the sandbox). */
  external: string;
}

/** Where the agents files' platform clock starts: 2026-04-10T09:00:00Z. */
export const AGENTS_START = Date.UTC(2026, 3, 10, 9);

/** The file's service (its clock at AGENTS_START), its client and the agents helpers. */
export function useAgents(options: FixtureOptions = {}) {
  const t = useTestService({ start: AGENTS_START, ...options });
  return { t, api: t.api, a: agents(t) };
}

export function agents(t: TestService, api: Client = t.api) {
  const m = money(t, api);
  const create = async (customerId: string, p: Record<string, unknown> = policy(), name = 'assistant') => {
    const res = await api.post('/agents', { name, customerId, policy: p });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: expect.objectContaining({ agent: expect.any(Object), deviceCode: expect.any(Object) }),
    });
    return res.body as { agent: any; deviceCode: any };
  };
  const redeem = (code: string) => t.anonymous.post(`/agents/device-codes/${code}/redeem`);
  const bearer = (token: string) => client(t.url, `Bearer ${token}`);
  /** A funded customer with an external account and a connected agent acting for it. */
  const connected = async (p: Record<string, unknown> = policy(), funds = 1_000_000): Promise<ConnectedAgent> => {
    const customer = await m.customer(['USD']);
    if (funds > 0) await m.fund(customer.accounts.USD, funds);
    const external = await m.external(customer.id, 'USD', '888');
    const { agent, deviceCode } = await create(customer.id, p);
    const res = await redeem(deviceCode.code);
    expect(res.status).toBe(200);
    return { id: agent.id, token: res.body.accessToken, me: bearer(res.body.accessToken), customer, external };
  };
  const transferOut = (a: ConnectedAgent, amount: number, headers?: Record<string, string>) =>
    a.me.post(
      '/agents/me/transfer-out',
      { source: { accountId: a.customer.accounts.USD }, destination: { accountId: a.external }, amount },
      headers,
    );
  const usage = async (a: ConnectedAgent) => (await a.me.get('/agents/me')).body.usage;
  return { m, create, redeem, bearer, connected, transferOut, usage };
}
