import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { startTestService, type Client, type TestService } from '../support/service.js';
import { agents, policy, type ConnectedAgent } from './agents-support.js';

const START = Date.UTC(2026, 3, 12, 9);

/** The agent routes take the bodies of the public API's platform routes (optional amount, real-time funding). */
describe('agents: the public API’s transfer and quote bodies', () => {
  let t: TestService;
  let api: Client;
  let a: ReturnType<typeof agents>;

  beforeAll(async () => {
    t = await startTestService({ clock: new ManualClock(START) });
    api = t.api;
    a = agents(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const agentTransactions = async (agent: ConnectedAgent) =>
    (await api.get(`/transactions?customerId=${agent.customer.id}`)).body.data.filter(
      (x: any) => x.agentId === agent.id,
    );
  const out = (agent: ConnectedAgent) =>
    agent.me.post('/agents/me/transfer-out', {
      source: { accountId: agent.customer.accounts.USD },
      destination: { accountId: agent.external },
    });

  it('a transfer-out without amount sends the whole available balance, counted as that amount', async () => {
    const agent = await a.connected(policy({}, { dailyLimit: 50_000 }), 7_300);
    const res = await out(agent);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'APPROVED',
      type: 'TRANSFER_OUT',
      transferDetails: { amount: 7_300, currency: 'USD' },
      transaction: { status: 'COMPLETED', sentAmount: { amount: 7_300 }, agentId: agent.id },
    });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(0);
    expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 7_300 });
    const empty = await out(agent);
    expect({ status: empty.status, code: empty.body.code }).toEqual({ status: 400, code: 'INVALID_AMOUNT' });
    expect(await agentTransactions(agent)).toHaveLength(1);
  });

  it('a whole-balance transfer-out is judged by the policy on the actual amount', async () => {
    const limited = await a.connected(policy({}, { perTransactionLimit: 5_000 }), 9_000);
    const refused = await out(limited);
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 403,
      code: 'VELOCITY_LIMIT_EXCEEDED',
    });
    expect(await a.m.balance(limited.customer.accounts.USD)).toBe(9_000);
    expect(await agentTransactions(limited)).toEqual([]);

    const gated = await a.connected(policy({ approvalThresholds: { amount: 1_000, currency: 'USD' } }), 4_000);
    const pending = await out(gated);
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ status: 'PENDING_APPROVAL', transferDetails: { amount: 4_000 } });
    expect(pending.body.transaction).toBeUndefined();
    const approved = await api.post(`/agents/${gated.id}/actions/${pending.body.id}/approve`);
    expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { sentAmount: { amount: 4_000 } } });
    expect(await a.m.balance(gated.customer.accounts.USD)).toBe(0);
  });

  it('a transfer-in without amount is 400 INVALID_AMOUNT and records no action', async () => {
    const agent = await a.connected(policy(), 0);
    const res = await agent.me.post('/agents/me/transfer-in', {
      source: { accountId: agent.external },
      destination: { accountId: agent.customer.accounts.USD },
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INVALID_AMOUNT' });
    expect((await agent.me.get('/agents/me/actions')).body.data).toEqual([]);
    expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 0 });
  });

  it('a REALTIME_FUNDING quote is the agent customer’s: paid by instructions, starts when funds arrive', async () => {
    const agent = await a.connected(policy(), 0);
    const body = (source: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', ...source },
      destination: { destinationType: 'ACCOUNT', accountId: agent.customer.accounts.USD },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 2_500,
      ...extra,
    });
    const other = await a.m.customer(['USD']);
    const foreign = await agent.me.post('/agents/me/quotes', body({ customerId: other.id }));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'CUSTOMER_NOT_FOUND' });

    const res = await agent.me.post('/agents/me/quotes', body({}, { immediatelyExecute: true }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      source: { sourceType: 'REALTIME_FUNDING', customerId: agent.customer.id, currency: 'USD' },
      paymentInstructions: [expect.objectContaining({ isPlatformAccount: true })],
    });
    expect((await agent.me.get(`/agents/me/quotes/${res.body.id}`)).body.id).toBe(res.body.id);
    const execute = await agent.me.post(`/agents/me/quotes/${res.body.id}/execute`);
    expect({ status: execute.status, code: execute.body.code }).toEqual({
      status: 409,
      code: 'QUOTE_FUNDED_EXTERNALLY',
    });
    const sent = await api.post('/sandbox/send', { quoteId: res.body.id, currencyCode: 'USD' });
    expect(sent.status).toBe(200);
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(2_500);
    const tx = (await api.get(`/transactions/${res.body.transactionId}`)).body;
    expect(tx).toMatchObject({ status: 'COMPLETED', agentId: agent.id, customerId: agent.customer.id });
  });

  it('a REALTIME_FUNDING quote still needs CREATE_QUOTES, and an external destination of the customer', async () => {
    const noQuotes = await a.connected(policy({ permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'] }), 0);
    const quote = (agent: ConnectedAgent, accountId: string) =>
      agent.me.post('/agents/me/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      });
    const refused = await quote(noQuotes, noQuotes.customer.accounts.USD);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const agent = await a.connected(policy(), 0);
    const stranger = await a.m.external((await a.m.customer(['USD'])).id, 'USD', '888');
    expect((await quote(agent, stranger)).status).toBe(404);
    expect((await quote(agent, agent.external)).status).toBe(201);
  });
});
