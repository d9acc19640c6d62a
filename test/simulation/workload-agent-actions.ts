import type { CommandBus } from '@nestjs/cqrs';
import { AgentActions } from '#application/agents/agent-actions.js';
import { TransferOutCommand } from '#application/payments/transfers/transfer-commands.js';
import { agentDecider, agentStream } from '#domain/agents/agent.js';
import { publicId } from '#domain/ids.js';
import type { SimProcess } from './process.js';
import { AGENT_POLICY } from './workload-agents.js';
import type { Operation } from './workload.js';

/** The approval threshold of the agents whose larger spends wait for the platform (its decision endpoint first). */
export const APPROVAL_THRESHOLD = 700;

/** The application's agent actions on the process (its transfers go to the process's transfer handler). */
function agentActions(process: SimProcess): AgentActions {
  const commands = {
    execute: (command: unknown) => {
      if (command instanceof TransferOutCommand) return process.transferOut.execute(command);
      return Promise.reject(new Error('an agent transfer out runs only transfers out'));
    },
  } as unknown as CommandBus;
  return new AgentActions(process.ctx, commands, process.payments, process.readModels, process.decisions);
}

/**
 * An agent whose spends above the approval threshold need approval, under the same limits as the others: such a spend
 * goes to the platform's AGENT_ACTION.REQUEST endpoint, or waits for a person where it has none.
 */
export const createApprovalAgent: Operation = async (process, world, random) => {
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
      name: 'sim approval agent',
      customerId: customer.id,
      platformCustomerId: customer.id,
      policy: { ...AGENT_POLICY, approvalThresholds: { currency: 'USD', amount: APPROVAL_THRESHOLD } },
      deviceCode: { codeHash: '0'.repeat(64), expiresAt: now, redeemed: false },
      now,
    },
    {
      metadata: { platformId: customer.platformId, actor: 'system:simulation', correlationId: `agent-${agentId}` },
      answersAfter: 'append',
    },
  );
  world.agents.push({ id: agentId, platformId: customer.platformId, accountId: account.id });
  return 'approval agent created';
};

/**
 * An agent's transfer out to one of its customer's bank accounts, through the application's agent actions: decided on
 * the agent's policy, asked of the platform's decision endpoint when it needs approval, then moved by the transfer.
 */
export const agentTransferOut: Operation = async (process, world, random) => {
  if (world.agents.length === 0) return 'no agent';
  const agent = random.pick(world.agents);
  const customer = world.customers.find((c) => c.accounts.some((a) => a.id === agent.accountId));
  const externals = world.externalAccounts.filter((e) => e.customerId === customer?.id);
  if (!customer || externals.length === 0) return 'no bank account';
  const external = random.pick(externals);
  const actor = { platformId: agent.platformId, actor: `Agent:${agent.id}`, correlationId: `agent-out-${agent.id}` };
  const principal = { platformId: agent.platformId, agentId: agent.id, customerId: customer.id, actor };
  const input = {
    source: { accountId: agent.accountId },
    destination: { accountId: external.id },
    amount: 200 + random.int(1_600),
  };
  const action = await agentActions(process).transfer(principal, 'OUT', input);
  return `agent transfer ${String(action.status)}`;
};
