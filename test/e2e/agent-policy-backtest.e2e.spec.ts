import { beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentStream } from '#domain/agents/agent.js';
import { cli, cliJson } from '../support/cli.js';
import { useAgents, policy, type ConnectedAgent } from './agents-support.js';

describe('agents: backtesting a draft policy on the agent’s past actions', () => {
  const { t, api, a } = useAgents();
  let agent: ConnectedAgent;
  const period = { from: '2026-04-01T00:00:00.000Z', to: '2026-05-01T00:00:00.000Z' };
  const stricter = { spendingLimits: { perTransactionLimit: 800, dailyLimit: 1_000 } };
  const backtest = (body: unknown, id = agent.id, client = api) => client.post(`/agents/${id}/policy/backtest`, body);

  /** The log's head and the agent stream's length: any write at all moves one of them. */
  const written = async () => ({
    head: String(await t.service.infra.eventStore.headPosition()),
    revisions: (await t.service.infra.eventStore.readStream(agentStream(agent.id))).length,
    agent: (await api.get(`/agents/${agent.id}`)).body,
  });

  // Three transfers-out within the live policy (per transaction 1,000, daily 5,000): 400, 700 and 900.
  beforeAll(async () => {
    agent = await a.connected(policy({}, { perTransactionLimit: 1_000, dailyLimit: 5_000 }), 10_000);
    for (const amount of [400, 700, 900]) expect((await a.transferOut(agent, amount)).status).toBe(201);
  }, 60_000);

  it('refuses a wrong period or draft with 400 field errors, and another platform’s agent with 404', async () => {
    const errorOn = async (body: unknown, field: string, code = 'INVALID_INPUT') => {
      const res = await backtest(body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code });
      expect(res.body.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    };
    await errorOn({ policy: {}, from: period.to, to: period.from }, 'to');
    await errorOn({ policy: {}, from: period.from, to: period.from }, 'to');
    await errorOn({ policy: {}, from: '2025-01-01T00:00:00Z', to: '2026-04-30T00:00:00Z' }, 'to');
    await errorOn({ policy: {}, from: 'yesterday', to: period.to }, 'from');
    await errorOn({ from: period.from, to: period.to }, 'policy');
    const badCurrency = { policy: { spendingLimits: { currency: 'XXX' } }, ...period };
    // Any ISO 4217 code is taken; limits in one the service does not convert into are refused.
    await errorOn(badCurrency, 'policy.spendingLimits.currency', 'INVALID_CURRENCY');
    await errorOn({ policy: { defaultExecutionMode: 'SOMETIMES' }, ...period }, 'policy.defaultExecutionMode');
    const foreign = await t.otherPlatform();
    const res = await backtest({ policy: {}, ...period }, agent.id, foreign.api);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'AGENT_NOT_FOUND' });
  });

  it('with the current policy every decision stays as it was; nothing is written', async () => {
    const before = await written();
    const res = await backtest({ policy: before.agent.policy, ...period });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agentId: agent.id,
      ...period,
      policy: before.agent.policy,
      currency: 'USD',
      considered: { count: 3, amount: 2_000 },
      changed: { count: 0, amount: 0, actions: [] },
      outcomes: [{ actualOutcome: 'APPROVED', draftOutcome: 'APPROVED', count: 3, amount: 2_000 }],
    });
    expect(await written()).toEqual(before);
  });

  it('a stricter draft lists the decisions it changes, with the limit refusing each; nothing is written', async () => {
    const before = await written();
    const res = await backtest({ policy: stricter, ...period });
    expect(res.status).toBe(200);
    // 400 fits; 700 would take the day to 1,100 of 1,000; 900 is above 800 a transaction.
    expect(res.body.changed).toEqual({
      count: 2,
      amount: 1_600,
      actions: [
        expect.objectContaining({ amount: 700, currency: 'USD', draftOutcome: 'DECLINED', limit: 'dailyLimit' }),
        expect.objectContaining({ amount: 900, draftOutcome: 'DECLINED', limit: 'perTransactionLimit' }),
      ],
    });
    expect(res.body.changed.actions[0]).toMatchObject({
      actionId: expect.stringMatching(/^AgentAction:/),
      type: 'TRANSFER_OUT',
      at: expect.stringMatching(/^2026-04-10T/),
      actualOutcome: 'APPROVED',
      reason: expect.any(String),
    });
    expect(res.body.outcomes).toEqual([
      { actualOutcome: 'APPROVED', draftOutcome: 'APPROVED', count: 1, amount: 400 },
      { actualOutcome: 'APPROVED', draftOutcome: 'DECLINED', count: 2, amount: 1_600 },
    ]);
    const held = await backtest({ policy: { approvalThresholds: { currency: 'USD', amount: 500 } }, ...period });
    expect(held.body.outcomes).toEqual([
      { actualOutcome: 'APPROVED', draftOutcome: 'APPROVED', count: 1, amount: 400 },
      { actualOutcome: 'APPROVED', draftOutcome: 'APPROVAL_REQUIRED', count: 2, amount: 1_600 },
    ]);
    const empty = await backtest({ policy: stricter, from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' });
    expect(empty.body).toMatchObject({ considered: { count: 0, amount: 0 }, outcomes: [] });
    expect(await written()).toEqual(before);
  });

  it('the operators’ CLI answers the same for a draft in a file', async () => {
    const file = join(t.dataDir, 'draft-policy.json');
    writeFileSync(file, JSON.stringify(stricter));
    const platform = t.service.sandbox!.platformId;
    const args = ['--platform', platform, '--agent', agent.id, '--policy', file, '--from', period.from];
    const answer = await cliJson(t.dataDir, 'agents:backtest', ...args, '--to', period.to);
    expect(answer).toEqual((await backtest({ policy: stricter, ...period })).body);
    const text = await cli(t.dataDir, 'agents:backtest', ...args, '--to', period.to);
    expect(text.stdout).toMatch(/changed\s+2 actions, 1600 USD/);
    expect(text.stdout).toMatch(/APPROVED\s+DECLINED\s+2\s+1600/);
  });
});
