import { DeleteAgentCommand, DeleteAgentHandler } from '#application/agents/agent-commands.js';
import { IdentityClaims } from '#application/claims/identity-claims.js';
import { DeleteCustomerCommand, DeleteCustomerHandler } from '#application/customers/customer-commands.js';
import {
  DeleteExternalAccountCommand,
  DeleteExternalAccountHandler,
} from '#application/external-accounts/external-account-commands.js';
import type { SimProcess } from './process.js';
import type { Operation } from './workload.js';
import { actorOf } from './actors.js';

/** The deleting handlers of a process, made once per process (they keep nothing between calls). */
const handlers = new WeakMap<
  SimProcess,
  { customer: DeleteCustomerHandler; external: DeleteExternalAccountHandler; agent: DeleteAgentHandler }
>();

function deleting(process: SimProcess) {
  let made = handlers.get(process);
  if (!made) {
    const claims = new IdentityClaims(process.runner, process.store, process.clocks);
    made = {
      customer: new DeleteCustomerHandler(process.ctx, claims),
      external: new DeleteExternalAccountHandler(process.ctx, claims),
      agent: new DeleteAgentHandler(process.runner, process.clocks),
    };
    handlers.set(process, made);
  }
  return made;
}

/**
 * A deletion through the application's handlers, while the rest of the workload goes on using what it deletes: mostly
 * a bank account, sometimes an agent, now and then a customer (refused while its accounts hold or await funds). What
 * is deleted stays in the world, so later requests meet it deleted (a domain error) and race its deletion.
 */
export const deleteSomething: Operation = async (process, world, random) => {
  const roll = random.int(10);
  const { customer, external, agent } = deleting(process);
  if (roll < 7) {
    if (world.externalAccounts.length === 0) return 'no bank account';
    const account = random.pick(world.externalAccounts);
    const actor = actorOf(account.platformId, `delete-${account.id}`);
    await external.execute(new DeleteExternalAccountCommand('customer', account.id, actor));
    return `bank account ${account.suffix} deleted`;
  }
  if (roll < 9) {
    if (world.agents.length === 0) return 'no agent';
    const { id, platformId } = random.pick(world.agents);
    await agent.execute(new DeleteAgentCommand(id, actorOf(platformId, `delete-${id}`)));
    return 'agent deleted';
  }
  if (world.customers.length === 0) return 'no customer';
  const { id, platformId } = random.pick(world.customers);
  await customer.execute(new DeleteCustomerCommand(id, actorOf(platformId, `delete-${id}`)));
  return 'customer deleted';
};
