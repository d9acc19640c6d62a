import type { CommandBus } from '@nestjs/cqrs';
import { AgentActions } from '#application/agents/agent-actions.js';
import { TransferOutCommand } from '#application/payments/transfers/transfer-commands.js';
import type { SimProcess } from './process.js';
import { AGENT_POLICY, agentCreation } from './workload-agents.js';
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
export const createApprovalAgent = agentCreation(
  'sim approval agent',
  { ...AGENT_POLICY, approvalThresholds: { currency: 'USD', amount: APPROVAL_THRESHOLD } },
  'approval agent created',
);

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
