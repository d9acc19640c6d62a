/**
 * Let an agent (say, an AI assistant) pay for a customer, within a policy the platform sets:
 *
 *   1. the platform: a customer with a funded USD account and a bank account to pay;
 *   2. the platform: an agent for that customer with a spending policy (permissions, a per-transaction
 *      and a daily limit), which comes with a one-time device code;
 *   3. the agent: redeems the device code (no credentials needed) for its own `gat_…` access token;
 *   4. the agent: pays 20.00 USD to the bank account (within the policy: approved and executed at once),
 *      then tries 80.00 USD, above its per-transaction limit, and is refused with nothing moved.
 *
 * The agent calls only `/agents/me/*` with `Authorization: Bearer <accessToken>`; the service checks the
 * policy at every spend, so the agent can never do more than the platform allowed.
 *
 * Run: node dist/examples/agent-payment.js   (sandbox platform; environment: see setup.ts)
 */
import {
  check,
  PaymentsApiError,
  PaymentsClient,
  platformClient,
  run,
  settings,
  show,
  step,
  uniqueRef,
} from './setup.js';
import { addUsdBankAccount, fundedUsdCustomer, usd } from './customers.js';

interface Agent {
  id: string;
  name: string;
  isConnected: boolean;
  policy: Record<string, unknown>;
  usage: { dailyTransactionCount: number; dailySpend: number; monthlySpend: number };
}

interface AgentAction {
  id: string;
  status: 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'FAILED';
  type: string;
  transaction?: { id: string; status: string; agentId: string };
  failureReason?: string;
}

run('agent-payment', async () => {
  const platform = platformClient();

  step('Platform: a customer with a funded USD account and a bank account');
  const { customer, account } = await fundedUsdCustomer(
    platform,
    { ref: 'agent-owner', fullName: 'Alan Turing' },
    100_000,
  );
  const bank = await addUsdBankAccount(platform, customer.id, {
    fullName: 'Ada Lovelace',
    accountNumber: '000987654321',
  });
  show('customer', customer.id);
  show('account', `${account.id} (${usd(100_000)})`);
  show('bank account', bank.id);

  step('Platform: create an agent with a spending policy');
  const policy = {
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO', // spends within the limits execute without asking the platform
    spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, dailyLimit: 10_000 },
    // Only this account may be spent from.
    accountRestrictions: { allowedAccountIds: [account.id] },
  };
  const { agent, deviceCode } = await platform.post<{ agent: Agent; deviceCode: { code: string; expiresAt: string } }>(
    '/agents',
    { name: 'shopping assistant', customerId: customer.id, policy },
  );
  show('agent', agent.id);
  show('limits', policy.spendingLimits);
  show('device code', `${deviceCode.code} (until ${deviceCode.expiresAt})`);

  step('Agent: redeem the device code for an access token');
  // The agent software only knows the code: the redeem call needs no credentials.
  const baseUrl = settings().baseUrl.replace(/\/+$/, '');
  const redeemed = await fetch(`${baseUrl}/agents/device-codes/${deviceCode.code}/redeem`, { method: 'POST' });
  if (!redeemed.ok) throw new Error(`redeem answered ${redeemed.status}: ${await redeemed.text()}`);
  const { accessToken } = (await redeemed.json()) as { accessToken: string };
  const me = new PaymentsClient({ baseUrl, accessToken });
  const profile = await me.get<Agent>('/agents/me');
  show('connected as', `${profile.name} (${profile.id})`);

  step('Agent: pay 20.00 USD to the bank account, within the policy');
  const transfer = (amount: number) =>
    me.post<AgentAction>(
      '/agents/me/transfer-out',
      { source: { accountId: account.id }, destination: { accountId: bank.id }, amount },
      { idempotencyKey: uniqueRef('agent-pay') },
    );
  const action = await transfer(2_000);
  show('action', `${action.id} ${action.status}`);
  check(action.status === 'APPROVED' && action.transaction, `the payment was ${action.status}`);
  show('transaction', `${action.transaction.id} ${action.transaction.status}`);

  step('Agent: try 80.00 USD, above the per-transaction limit');
  const refusal = await transfer(8_000).then(
    () => undefined,
    (error: unknown) => error,
  );
  check(
    refusal instanceof PaymentsApiError && refusal.code === 'VELOCITY_LIMIT_EXCEEDED',
    `expected 403 VELOCITY_LIMIT_EXCEEDED, got ${refusal instanceof Error ? refusal.message : 'success'}`,
  );
  show('refused', `${refusal.status} ${refusal.code}: ${refusal.message}`);

  const { usage } = await me.get<Agent>('/agents/me');
  show('usage today', `${usage.dailyTransactionCount} payment(s), ${usd(usage.dailySpend)}`);

  return { customerId: customer.id, agentId: agent.id, actionId: action.id, transactionId: action.transaction.id };
});
