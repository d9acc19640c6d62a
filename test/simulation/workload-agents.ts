import { agentDecider, agentStream, requireAction } from '#domain/agents/agent.js';
import type { AgentPolicy } from '#domain/agents/agent-types.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import { ledgerDecider } from '#domain/ledger/ledger.js';
import type { Operation } from './workload.js';

/** The policy every simulated agent spends under: limits small next to what it is asked, so they are reached. */
export const AGENT_POLICY: AgentPolicy = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: {
    currency: 'USD',
    perTransactionLimit: 1_500,
    dailyLimit: 4_000,
    dailyTransactionLimit: 6,
    monthlyLimit: 30_000,
  },
};

const metadataOf = (platformId: string, correlationId: string) => ({
  platformId,
  actor: 'system:simulation',
  correlationId,
});

/**
 * The operation that creates an agent named `name` under `policy` for a customer's USD account (at most 8 agents in
 * all, a few per platform, so that their streams are contended), answering `created`.
 */
export const agentCreation =
  (name: string, policy: AgentPolicy, created: string): Operation =>
  async (process, world, random) => {
    const customer = random.pick(world.customers.length > 0 ? world.customers : [undefined]);
    const account = customer?.accounts.find((a) => a.currency === 'USD');
    if (!customer || !account || world.agents.length >= 8) return 'no agent';
    const agentId = publicId('Agent', random.uuid());
    const now = (await process.clocks.now(customer.platformId)).toISOString();
    await process.runner.run(
      agentStream(agentId),
      agentDecider,
      {
        type: 'CreateAgent',
        platformId: customer.platformId,
        agentId,
        name,
        customerId: customer.id,
        platformCustomerId: customer.id,
        policy,
        deviceCode: { codeHash: '0'.repeat(64), expiresAt: now, redeemed: false },
        now,
      },
      { metadata: metadataOf(customer.platformId, `agent-${agentId}`), answersAfter: 'append' },
    );
    world.agents.push({ id: agentId, platformId: customer.platformId, accountId: account.id });
    return created;
  };

/** An agent for a customer's USD account under the common policy. */
export const createAgent = agentCreation('sim agent', AGENT_POLICY, 'agent created');

/**
 * An agent's spend as the application makes it: reserved on the agent's stream by its policy, the money moved by a
 * ledger transfer (to the platform's settlement account, as a transfer out is), then committed, or failed and
 * released when the money could not move. Spends of one agent run concurrently.
 */
export const agentSpend: Operation = async (process, world, random) => {
  if (world.agents.length === 0) return 'no agent';
  const agent = random.pick(world.agents);
  const platform = world.platforms.find((p) => p.id === agent.platformId)!;
  const actionId = publicId('AgentAction', random.uuid());
  const amount = 200 + random.int(1_600);
  const metadata = metadataOf(agent.platformId, `agent-${agent.id}`);
  const stream = agentStream(agent.id);
  const now = async () => (await process.clocks.now(agent.platformId)).toISOString();
  const request = {
    actionId,
    type: 'TRANSFER_OUT' as const,
    spend: {
      permission: 'CREATE_TRANSFERS' as const,
      accountId: agent.accountId,
      amount: String(amount),
      currency: 'USD',
    },
  };
  const requested = await process.runner.run(
    stream,
    agentDecider,
    { type: 'RequestAction', request, now: await now() },
    {
      metadata,
      answersAfter: 'append',
    },
  );
  const action = requireAction(requested.state, actionId);
  if (action.status !== 'APPROVED') return `action ${action.status}`;
  try {
    await process.runner.run(
      streams.ledger(agent.platformId),
      ledgerDecider,
      {
        type: 'CreateTransfer',
        // Fixed by the action, as the application's transfer of an action is, so that a retry cannot move it twice.
        id: publicId('Transfer', uuidOf('AgentAction', actionId)!),
        debit: { id: agent.accountId, currency: 'USD', allowNegative: false },
        credit: { id: platform.settlement.get('USD')!, currency: 'USD', allowNegative: true },
        amount: BigInt(amount),
        code: 'AGENT_TRANSFER',
        reference: actionId,
        now: await now(),
      },
      { metadata, answersAfter: 'append' },
    );
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'EXECUTION_FAILED';
    await process.runner.run(
      stream,
      agentDecider,
      { type: 'FailAction', actionId, reason, now: await now() },
      {
        metadata,
        answersAfter: 'append',
      },
    );
    throw error;
  }
  await process.runner.run(
    stream,
    agentDecider,
    { type: 'CompleteAction', actionId, transaction: { id: actionId }, now: await now() },
    { metadata, answersAfter: 'append' },
  );
  return `spent ${amount}`;
};
