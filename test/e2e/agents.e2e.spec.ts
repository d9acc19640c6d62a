import { describe, expect, it } from '@jest/globals';
import { AGENTS_START, agents, policy, useAgents } from './agents-support.js';

describe('agents: platform side, device codes and bearer authentication', () => {
  const { t, api, a } = useAgents();

  it(
    'creates an agent with its first device code; redeeming it returns a gat_ token once and ' + 'connects the agent',
    async () => {
      const customer = await a.m.customer();
      const created = await a.create(
        customer.id,
        policy({}, { dailyLimit: 5_000, dailyTransactionLimit: 3, monthlyLimit: null }),
      );
      expect(created.agent).toMatchObject({
        id: expect.stringMatching(/^Agent:/),
        name: 'assistant',
        customerId: customer.id,
        isPaused: false,
        isConnected: false,
        policy: {
          spendingLimits: {
            currency: 'USD',
            perTransactionLimit: 100_000,
            dailyLimit: 5_000,
            dailyTransactionLimit: 3,
            monthlyLimit: null,
          },
        },
        usage: {
          dailyTransactionCount: 0,
          dailySpend: 0,
          monthlySpend: 0,
          dailyResetDate: '2026-04-11',
          monthlyResetMonth: '2026-05',
        },
      });
      const code = created.deviceCode;
      expect(code).toEqual({
        code: expect.stringMatching(/^PAY-AGENT-[A-Z2-9]{4}-[A-Z2-9]{4}$/),
        agentId: created.agent.id,
        expiresAt: new Date(AGENTS_START + 86_400_000).toISOString(),
        redeemed: false,
      });
      expect((await api.get(`/agents/device-codes/${code.code}/status`)).body).toEqual({
        code: code.code,
        redeemed: false,
      });

      const redeemed = await a.redeem(code.code);
      expect(redeemed.status).toBe(200);
      expect(redeemed.body).toEqual({
        agentId: created.agent.id,
        agentName: 'assistant',
        accessToken: expect.stringMatching(/^gat_[0-9a-f]{40}$/),
        policy: created.agent.policy,
      });
      expect((await api.get(`/agents/device-codes/${code.code}/status`)).body).toEqual({
        code: code.code,
        redeemed: true,
      });
      expect((await a.redeem(code.code)).status).toBe(400);
      expect((await a.redeem('PAY-AGENT-2222-2222')).status).toBe(404);
      expect((await api.get(`/agents/${created.agent.id}`)).body.isConnected).toBe(true);
      // Connected: no new code (409).
      expect((await api.post(`/agents/${created.agent.id}/device-codes`)).status).toBe(409);

      const me = a.bearer(redeemed.body.accessToken);
      expect((await me.get('/agents/me')).body).toMatchObject({ id: created.agent.id, isConnected: true });
      // The token is not a platform credential, and platform credentials are not an agent token.
      expect((await me.get('/customers')).status).toBe(401);
      expect((await api.get('/agents/me')).status).toBe(401);
    },
  );

  it('a new device code replaces the unredeemed one; codes expire after 24 hours of the platform clock', async () => {
    // A platform of its own: it moves its sandbox clock a day on.
    const own = await t.otherPlatform();
    const api = own.api;
    const a = agents(t, api);
    const customer = await a.m.customer();
    const { agent, deviceCode } = await a.create(customer.id);
    const second = await api.post(`/agents/${agent.id}/device-codes`);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ agentId: agent.id, redeemed: false });
    expect((await a.redeem(deviceCode.code)).status).toBe(400);
    await a.m.advance(24 * 3600);
    expect((await a.redeem(second.body.code)).status).toBe(400);
    const third = await api.post(`/agents/${agent.id}/device-codes`);
    expect((await a.redeem(third.body.code)).status).toBe(200);
  });

  it('lists agents with every filter; pause, rename and delete; another platform sees none of it', async () => {
    // A platform of its own: it moves its sandbox clock on.
    const own = await t.otherPlatform();
    const api = own.api;
    const a = agents(t, api);
    const customer = await a.m.customer();
    const other = await a.m.customer();
    const first = (await a.create(customer.id, policy(), 'first')).agent;
    await a.m.advance(60);
    const second = (await a.create(customer.id, policy(), 'second')).agent;
    const third = await a.create(other.id, policy(), 'third');
    await a.redeem(third.deviceCode.code);
    const ids = async (query: string) => {
      const res = await api.get(`/agents?${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((x: any) => x.id);
    };
    expect(await ids(`customerId=${customer.id}`)).toEqual([second.id, first.id]);
    expect(await ids(`customerId=${other.id}&isConnected=true`)).toEqual([third.agent.id]);
    expect(await ids(`customerId=${customer.id}&isConnected=true`)).toEqual([]);
    expect(await ids(`customerId=${customer.id}&createdAfter=${second.createdAt}`)).toEqual([second.id]);
    expect(await ids(`customerId=${customer.id}&createdBefore=${first.createdAt}`)).toEqual([first.id]);

    await a.m.advance(60);
    const paused = await api.patch(`/agents/${first.id}`, { isPaused: true, name: 'renamed' });
    expect(paused.body).toMatchObject({ isPaused: true, name: 'renamed' });
    expect(await ids(`customerId=${customer.id}&isPaused=true`)).toEqual([first.id]);
    expect(await ids(`customerId=${customer.id}&updatedAfter=${paused.body.updatedAt}`)).toEqual([first.id]);
    expect(await ids(`customerId=${customer.id}&updatedBefore=${second.updatedAt}`)).toEqual([second.id]);
    expect((await api.patch(`/agents/${first.id}`, {})).status).toBe(400);
    expect((await api.get('/agents?limit=1&customerId=' + customer.id)).body).toMatchObject({
      hasMore: true,
      nextCursor: expect.any(String),
    });

    const foreign = await t.otherPlatform();
    expect((await foreign.api.get(`/agents/${first.id}`)).status).toBe(404);
    expect((await foreign.api.get(`/agents?customerId=${customer.id}`)).body.data).toEqual([]);
    expect((await foreign.api.delete(`/agents/${first.id}`)).status).toBe(404);

    expect((await api.delete(`/agents/${first.id}`)).status).toBe(204);
    expect((await api.get(`/agents/${first.id}`)).status).toBe(404);
    expect(await ids(`customerId=${customer.id}`)).toEqual([second.id]);
    expect(
      (
        await api.post('/agents', {
          name: 'x',
          customerId: customer.id,
          policy: {
            permissions: ['NOPE'],
            defaultExecutionMode: 'AUTO',
            spendingLimits: { currency: 'USD', perTransactionLimit: 1 },
          },
        })
      ).status,
    ).toBe(400);
  });

  it('PATCH /agents/{id}/policy is partial and immediate', async () => {
    const customer = await a.m.customer();
    const { agent } = await a.create(
      customer.id,
      policy({ approvalThresholds: { currency: 'USD', amount: 500 } }, { dailyLimit: 5_000, monthlyLimit: 9_000 }),
    );
    const res = await api.patch(`/agents/${agent.id}/policy`, {
      permissions: ['VIEW_TRANSACTIONS'],
      spendingLimits: { dailyLimit: null, perTransactionLimit: 250 },
    });
    expect(res.status).toBe(200);
    expect(res.body.policy).toEqual({
      permissions: ['VIEW_TRANSACTIONS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 250, dailyLimit: null, monthlyLimit: 9_000 },
      approvalThresholds: { currency: 'USD', amount: 500 },
    });
    expect((await api.get(`/agents/${agent.id}`)).body.policy.spendingLimits.perTransactionLimit).toBe(250);
    expect((await api.patch(`/agents/${agent.id}/policy`, { defaultExecutionMode: 'SOMETIMES' })).status).toBe(400);
  });

  it('bearer tokens: made-up, another agent’s after delete, and a deleted agent’s token answer 401', async () => {
    const one = await a.connected();
    const two = await a.connected();
    expect((await a.bearer('gat_' + '0'.repeat(40)).get('/agents/me')).status).toBe(401);
    expect((await a.bearer('not-a-token').get('/agents/me')).status).toBe(401);
    expect((await t.anonymous.get('/agents/me')).status).toBe(401);
    // Each token is its own agent.
    expect((await one.me.get('/agents/me')).body.id).toBe(one.id);
    expect((await two.me.get('/agents/me')).body.id).toBe(two.id);
    expect((await api.delete(`/agents/${two.id}`)).status).toBe(204);
    const gone = await two.me.get('/agents/me');
    expect(gone.status).toBe(401);
    expect(gone.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: expect.any(String) });
    expect(
      (
        await two.me.post('/agents/me/transfer-out', {
          source: { accountId: two.customer.accounts.USD },
          destination: { accountId: two.external },
          amount: 1,
        })
      ).status,
    ).toBe(401);
    expect((await one.me.get('/agents/me')).status).toBe(200);
  });
});
