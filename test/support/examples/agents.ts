import { agents, policy, type ConnectedAgent } from '../../e2e/agents-support.js';
import { usd } from '../../e2e/external-account-support.js';
import { ok, type Tour } from './tour.js';

/**
 * Agents: created, connected by their device code, acting through `/agents/me` (quotes, transfers, external
 * accounts) under a policy that asks the platform's approval, approved and rejected, paused, and deleted.
 */
export async function agentsTour({ t, api, anonymous, recorder }: Tour): Promise<void> {
  const a = agents({ ...t, anonymous }, api);
  const approval = policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
  const agent: ConnectedAgent = await a.connected(approval, 100_000);
  const me = recorder.wrap(agent.me);
  ok(await api.get('/agents?limit=2'));
  const createdAt = Date.parse(ok(await api.get(`/agents/${agent.id}`)).body.createdAt);
  // a new device code for an agent not connected yet
  const unconnected = (await a.create(agent.customer.id, policy(), 'second assistant')).agent;
  const code = ok(await api.post(`/agents/${unconnected.id}/device-codes`), 201).body;
  ok(await api.get(`/agents/device-codes/${code.code}/status`));

  ok(await me.get('/agents/me'));
  ok(await me.get('/agents/me/internal-accounts'));
  ok(await me.get('/agents/me/external-accounts'));
  ok(await me.get(`/agents/me/external-accounts/${agent.external}`));
  const account = agent.customer.accounts.USD;
  const quote = ok(
    await me.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: account },
      destination: { destinationType: 'ACCOUNT', accountId: agent.external },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
      description: 'Agent payout',
    }),
    201,
  ).body;
  ok(await me.get(`/agents/me/quotes/${quote.id}`));
  const pending = ok(await me.post(`/agents/me/quotes/${quote.id}/execute`)).body;
  ok(await api.get(`/agents/approvals?agentId=${agent.id}`));
  ok(await me.get(`/agents/me/actions/${pending.id}`));
  const approved = ok(await api.post(`/agents/${agent.id}/actions/${pending.id}/approve`)).body;
  ok(await me.get('/agents/me/actions?limit=2'));
  const out = { source: { accountId: account }, destination: { accountId: agent.external }, amount: 700 };
  const refused = ok(await me.post('/agents/me/transfer-out', out), 201).body;
  ok(await api.post(`/agents/${agent.id}/actions/${refused.id}/reject`, { reason: 'not this one' }));
  ok(await api.patch(`/agents/${agent.id}/policy`, { defaultExecutionMode: 'AUTO' }));
  const back = { source: { accountId: agent.external }, destination: { accountId: account }, amount: 300 };
  ok(await me.post('/agents/me/transfer-in', back), 201);
  const draft = { spendingLimits: { perTransactionLimit: 500 }, approvalThresholds: { currency: 'USD', amount: 200 } };
  const period = { from: new Date(createdAt).toISOString(), to: new Date(createdAt + 30 * 86_400_000).toISOString() };
  ok(await api.post(`/agents/${agent.id}/policy/backtest`, { policy: draft, ...period }));
  ok(await me.get('/agents/me/transactions?limit=2'));
  if (approved.transaction?.id) ok(await me.get(`/agents/me/transactions/${approved.transaction.id}`));
  const body = { currency: 'USD', accountInfo: usd('123456789') };
  const external = ok(await me.post('/agents/me/external-accounts', body), 201).body;
  ok(await me.delete(`/agents/me/external-accounts/${external.id}`), 204);
  ok(await api.patch(`/agents/${agent.id}`, { isPaused: true }));
  ok(await api.delete(`/agents/${agent.id}`), 204);
}
