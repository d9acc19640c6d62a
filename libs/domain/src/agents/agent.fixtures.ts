import { deciderSpec } from '../testing/decider-spec.js';
import { agentDecider } from './agent.js';
import type { ActionRequest, AgentCommand, AgentEvent, AgentPolicy, AgentSnapshot, Spend } from './agent-types.js';

export const spec = deciderSpec(agentDecider);
export const P = 'Platform:p';
export const A = 'Agent:00000000-0000-4000-8000-000000000001';
export const ACC = 'InternalAccount:a';
export const OTHER = 'InternalAccount:b';
export const T0 = '2026-04-10T12:00:00.000Z';
export const base = { platformId: P, agentId: A };

export const policy = (extra: Partial<AgentPolicy> = {}): AgentPolicy => ({
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: {
    currency: 'USD',
    perTransactionLimit: 1_000,
    dailyLimit: 5_000,
    dailyTransactionLimit: 10,
    monthlyLimit: 20_000,
  },
  ...extra,
});

export const agentOf = (p: AgentPolicy, extra: Partial<AgentSnapshot> = {}): AgentSnapshot => ({
  id: A,
  name: 'bot',
  customerId: 'Customer:c',
  platformCustomerId: 'c-1',
  isPaused: false,
  isConnected: false,
  policy: p,
  usage: { day: '2026-04-10', month: '2026-04', dailyTransactionCount: 0, dailySpend: '0', monthlySpend: '0' },
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

export const created = (p = policy(), extra: Partial<AgentSnapshot> = {}): AgentEvent[] => [
  { type: 'AgentCreated', data: { ...base, agent: agentOf(p, extra) } },
  {
    type: 'AgentDeviceCodeIssued',
    data: {
      ...base,
      deviceCode: { code: 'PAY-AGENT-AAAA-BBBB', expiresAt: '2026-04-11T12:00:00.000Z', redeemed: false },
      issuedAt: T0,
    },
  },
];

export const spend = (amount: number, extra: Partial<Spend> = {}): Spend => ({
  permission: 'CREATE_TRANSFERS',
  accountId: ACC,
  amount: String(amount),
  currency: 'USD',
  ...extra,
});
export const request = (id: string, amount: number, extra: Partial<Spend> = {}): ActionRequest => ({
  actionId: `AgentAction:${id}`,
  type: 'TRANSFER_OUT',
  spend: spend(amount, extra),
  transferDetails: {
    amount,
    currency: extra.currency ?? 'USD',
    sourceAccountId: ACC,
    destinationAccountId: 'ExternalAccount:e',
  },
});
export const requestAction = (id: string, amount: number, now = T0, extra: Partial<Spend> = {}): AgentCommand => ({
  type: 'RequestAction',
  request: request(id, amount, extra),
  now,
});

/** Folds the given history plus the decisions of `commands`, in order. */
export function run(history: AgentEvent[], commands: AgentCommand[]): AgentEvent[] {
  const events = [...history];
  for (const c of commands) events.push(...agentDecider.decide(c, spec.fold(events)));
  return events;
}

/** History after `count` executed spends of `amount` each, at `now`. */
export function executed(history: AgentEvent[], count: number, amount: number, now = T0): AgentEvent[] {
  let events = history;
  for (let i = 0; i < count; i++) {
    events = run(events, [
      requestAction(`x${now}${i}`, amount, now),
      { type: 'CompleteAction', actionId: `AgentAction:x${now}${i}`, transaction: { id: `Transaction:${i}` }, now },
    ]);
  }
  return events;
}

export const lastAction = (events: AgentEvent[]) => (events.at(-1)!.data as { action: { status: string } }).action;
