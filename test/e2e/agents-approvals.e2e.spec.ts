import { describe, expect, it } from '@jest/globals';
import { useAgents, policy, type ConnectedAgent } from './agents-support.js';

describe('agents: approvals', () => {
  const { t, api, a } = useAgents({ webhooks: 'ok' });

  const approvalRequired = () => policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
  const approve = (agent: ConnectedAgent, actionId: string) =>
    api.post(`/agents/${agent.id}/actions/${actionId}/approve`);
  const quoteFor = async (agent: ConnectedAgent, amount: number) => {
    const res = await agent.me.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: agent.customer.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: agent.external },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
    expect(res.status).toBe(201);
    return res.body;
  };

  it(
    'above the approval threshold: PENDING_APPROVAL without a transaction, the webhook arrives ' +
      'signed, approve executes it',
    async () => {
      const agent = await a.connected(policy({ approvalThresholds: { currency: 'USD', amount: 500 } }), 10_000);
      const pending = await a.transferOut(agent, 800);
      expect(pending.status).toBe(201);
      expect(pending.body).toMatchObject({
        status: 'PENDING_APPROVAL',
        type: 'TRANSFER_OUT',
        transferDetails: { amount: 800 },
        approvalReasons: [{ rule: 'approvalThresholds.amount', threshold: { amount: 500, currency: 'USD' } }],
      });
      expect(pending.body).not.toHaveProperty('transaction');
      expect(await a.m.balance(agent.customer.accounts.USD)).toBe(10_000);
      expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0 });

      await t.receiver.waitFor(
        (rs) => rs.some((r) => r.json?.type === 'AGENT_ACTION.PENDING_APPROVAL' && r.json.data.id === pending.body.id),
        15_000,
        'the pending-approval webhook',
      );
      const hook = t.receiver.requests.find((r) => r.json?.data.id === pending.body.id)!;
      expect({ ecdsa: hook.ecdsaValid, standard: hook.standardValid }).toEqual({ ecdsa: true, standard: true });
      expect(hook.json).toEqual({
        id: expect.stringMatching(/^Webhook:/),
        type: 'AGENT_ACTION.PENDING_APPROVAL',
        timestamp: pending.body.createdAt,
        data: pending.body,
      });

      const approvals = await api.get(`/agents/approvals?agentId=${agent.id}`);
      expect(approvals.body.data.map((x: any) => x.id)).toEqual([pending.body.id]);
      const approved = await approve(agent, pending.body.id);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({
        id: pending.body.id,
        status: 'APPROVED',
        transaction: { agentId: agent.id, status: 'COMPLETED' },
      });
      expect(await a.m.balance(agent.customer.accounts.USD)).toBe(9_200);
      expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 800 });
      expect((await agent.me.get(`/agents/me/actions/${pending.body.id}`)).body.status).toBe('APPROVED');
      expect((await approve(agent, pending.body.id)).status).toBe(409);
      expect((await api.post(`/agents/${agent.id}/actions/${pending.body.id}/reject`, {})).status).toBe(409);
      expect((await api.get(`/agents/approvals?agentId=${agent.id}`)).body.data).toEqual([]);
      // Under the threshold it executes at once.
      expect((await a.transferOut(agent, 500)).body.status).toBe('APPROVED');
    },
  );

  it('reject stores the reason and executes nothing; a second decision is 409', async () => {
    const agent = await a.connected(approvalRequired(), 10_000);
    const pending = (await a.transferOut(agent, 100)).body;
    const rejected = await api.post(`/agents/${agent.id}/actions/${pending.id}/reject`, { reason: 'not this one' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'not this one' });
    expect(rejected.body).not.toHaveProperty('transaction');
    expect((await approve(agent, pending.id)).status).toBe(409);
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(10_000);
    expect((await agent.me.get('/agents/me/actions?status=REJECTED')).body.data.map((x: any) => x.id)).toEqual([
      pending.id,
    ]);
    const foreign = await t.otherPlatform();
    expect((await foreign.api.post(`/agents/${agent.id}/actions/${pending.id}/approve`)).status).toBe(404);
  });

  it('FAILED when the quote expired while waiting: nothing moves, the quote is EXPIRED', async () => {
    const agent = await a.connected(approvalRequired(), 10_000);
    const quote = await quoteFor(agent, 1_000);
    const pending = await agent.me.post(`/agents/me/quotes/${quote.id}/execute`);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      status: 'PENDING_APPROVAL',
      type: 'EXECUTE_QUOTE',
      quote: { id: quote.id, status: 'PENDING' },
    });
    await a.m.advance(16 * 60);
    const failed = await approve(agent, pending.body.id);
    expect(failed.body).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXPIRED' });
    expect(failed.body).not.toHaveProperty('transaction');
    expect((await agent.me.get(`/agents/me/quotes/${quote.id}`)).body.status).toBe('EXPIRED');
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(10_000);
    expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0 });
  });

  it('FAILED when the funds are gone while waiting: the reservation is released', async () => {
    const agent = await a.connected(approvalRequired(), 1_000);
    const pending = (await a.transferOut(agent, 800)).body;
    const drained = await api.post('/transfer-out', {
      source: { accountId: agent.customer.accounts.USD },
      destination: { accountId: agent.external },
      amount: 500,
    });
    expect(drained.status).toBe(201);
    const failed = await approve(agent, pending.id);
    expect(failed.body).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(500);
    expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0 });
  });

  it('FAILED when the limits were lowered or the agent paused while waiting', async () => {
    const agent = await a.connected(approvalRequired(), 10_000);
    const first = (await a.transferOut(agent, 800)).body;
    const second = (await a.transferOut(agent, 100)).body;
    await api.patch(`/agents/${agent.id}/policy`, { spendingLimits: { perTransactionLimit: 500 } });
    expect((await approve(agent, first.id)).body).toMatchObject({
      status: 'FAILED',
      failureReason: expect.stringMatching(/^VELOCITY_LIMIT_EXCEEDED/),
    });
    await api.patch(`/agents/${agent.id}`, { isPaused: true });
    expect((await approve(agent, second.id)).body).toMatchObject({
      status: 'FAILED',
      failureReason: expect.stringMatching(/^FORBIDDEN/),
    });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(10_000);
  });

  it('an approved quote executes with the latest state: APPROVED with its transaction', async () => {
    const agent = await a.connected(approvalRequired(), 10_000);
    const quote = await quoteFor(agent, 1_000);
    const pending = (await agent.me.post(`/agents/me/quotes/${quote.id}/execute`)).body;
    const approved = await approve(agent, pending.id);
    expect(approved.body).toMatchObject({
      status: 'APPROVED',
      transaction: { id: quote.transactionId, agentId: agent.id },
    });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(10_000 - quote.totalSendingAmount);
    expect((await agent.me.post(`/agents/me/quotes/${quote.id}/execute`)).status).toBe(409);
  });

  it('GET /agents/approvals filters by agent, customer and dates, in either order', async () => {
    const one = await a.connected(approvalRequired(), 10_000);
    const two = await a.connected(approvalRequired(), 10_000);
    const p1 = (await a.transferOut(one, 10)).body;
    await a.m.advance(60);
    const p2 = (await a.transferOut(two, 10)).body;
    await a.m.advance(60);
    const p3 = (await a.transferOut(one, 20)).body;
    const ids = async (query: string) => (await api.get(`/agents/approvals?${query}`)).body.data.map((x: any) => x.id);
    expect(await ids(`agentId=${one.id}`)).toEqual([p3.id, p1.id]);
    expect(await ids(`agentId=${one.id}&sortOrder=asc`)).toEqual([p1.id, p3.id]);
    expect(await ids(`customerId=${two.customer.id}`)).toEqual([p2.id]);
    expect(await ids(`agentId=${one.id}&startDate=${p3.createdAt}`)).toEqual([p3.id]);
    expect(await ids(`agentId=${one.id}&endDate=${p1.createdAt}`)).toEqual([p1.id]);
    expect((await api.get('/agents/approvals?sortOrder=sideways')).status).toBe(400);
  });

  it('the dashboard overview counts agents and pending approvals', async () => {
    const before = (await api.get('/audit/overview')).body.counts;
    const agent = await a.connected(approvalRequired(), 10_000);
    await a.transferOut(agent, 10);
    await a.transferOut(agent, 20);
    const after = (await api.get('/audit/overview')).body.counts;
    expect({
      agents: after.agents - before.agents,
      pendingApprovals: after.pendingApprovals - before.pendingApprovals,
    }).toEqual({ agents: 1, pendingApprovals: 2 });
    expect(after.pendingApprovals).toBe((await api.get('/agents/approvals')).body.totalCount);
    expect(after.agents).toBe((await api.get('/agents')).body.totalCount);
  });
});
