import type { JsonSchema } from './tool-schemas.js';
import type { AgentTool } from './tools.js';

/** The parts of the Agent resource (GET /agents/me) the caps are read from; amounts in the smallest unit. */
export interface AgentView {
  isPaused?: boolean;
  policy: {
    permissions: string[];
    defaultExecutionMode: string;
    spendingLimits: {
      currency: string;
      perTransactionLimit: number;
      dailyLimit?: number | null;
      dailyTransactionLimit?: number;
      monthlyLimit?: number | null;
    };
    accountRestrictions?: {
      allowedAccountIds?: string[] | null;
      accountRules?: { accountId: string; executionMode?: string; perTransactionLimit?: number | null }[];
    } | null;
    approvalThresholds?: { currency?: string; amount?: number | null } | null;
  };
  usage: {
    dailyTransactionCount: number;
    dailySpend: number;
    monthlySpend: number;
    dailyResetDate?: string;
    monthlyResetMonth?: string;
  };
}

/** One of the customer's internal accounts and its currency (from GET /agents/me/internal-accounts). */
export interface AccountView {
  id: string;
  currency: string;
}

/** A money-moving tool: where its amount is and which internal account (whose currency the amount is in) it uses. */
interface Spending {
  amount: string;
  internalAccount?: 'source' | 'destination';
}

const SPENDING: Record<string, Spending> = {
  transfer_out: { amount: 'amount', internalAccount: 'source' },
  transfer_in: { amount: 'amount', internalAccount: 'destination' },
  create_quote: { amount: 'lockedCurrencyAmount' },
};
const PERMISSION: Record<string, string> = {
  transfer_out: 'CREATE_TRANSFERS',
  transfer_in: 'CREATE_TRANSFERS',
  create_quote: 'CREATE_QUOTES',
  execute_quote: 'EXECUTE_QUOTES',
};

const n = (value: number) => value.toLocaleString('en-US').replace(/,/g, '_');

/** The per-transaction limit that applies to one account: its rule's, else the policy's. */
function perTransaction(agent: AgentView, accountId: string): number {
  const rule = agent.policy.accountRestrictions?.accountRules?.find((r) => r.accountId === accountId);
  return rule?.perTransactionLimit ?? agent.policy.spendingLimits.perTransactionLimit;
}

/** What is left of the daily and monthly amount limits (never below zero); Infinity without a limit. */
function remaining(agent: AgentView): number {
  const { dailyLimit, monthlyLimit } = agent.policy.spendingLimits;
  const left = (limit: number | null | undefined, used: number) =>
    limit == null ? Infinity : Math.max(0, limit - used);
  return Math.min(left(dailyLimit, agent.usage.dailySpend), left(monthlyLimit, agent.usage.monthlySpend));
}

/**
 * The largest amount the policy could let through on any account the agent may use, in the limits' currency, or
 * undefined where it cannot be stated exactly in the field's unit: the accounts are unknown, or one of them is in
 * another currency (the service converts at its own rate; the description states the caps instead).
 */
export function amountMaximum(agent: AgentView, accounts: AccountView[] | undefined): number | undefined {
  if (!accounts) return undefined;
  const allowed = agent.policy.accountRestrictions?.allowedAccountIds;
  const usable = allowed ? accounts.filter((a) => allowed.includes(a.id)) : accounts;
  if (!usable.length || usable.some((a) => a.currency !== agent.policy.spendingLimits.currency)) return undefined;
  const bound = Math.max(...usable.map((a) => perTransaction(agent, a.id)));
  return Math.min(bound, remaining(agent));
}

/** One line naming the policy's caps, as an assistant reads them before it acts. */
export function capsLine(agent: AgentView): string {
  const { policy, usage } = agent;
  const l = policy.spendingLimits;
  const parts = [`per transaction ${n(l.perTransactionLimit)}`];
  if (l.dailyLimit != null) {
    const reset = usage.dailyResetDate ? `, resets ${usage.dailyResetDate}` : '';
    parts.push(`daily ${n(l.dailyLimit)} (${n(Math.max(0, l.dailyLimit - usage.dailySpend))} left today${reset})`);
  }
  if (l.monthlyLimit != null) {
    const left = n(Math.max(0, l.monthlyLimit - usage.monthlySpend));
    parts.push(`monthly ${n(l.monthlyLimit)} (${left} left this month)`);
  }
  if (l.dailyTransactionLimit !== undefined) {
    parts.push(`at most ${l.dailyTransactionLimit} transactions a day (${usage.dailyTransactionCount} today)`);
  }
  const lines = [`Policy caps in ${l.currency} (smallest unit): ${parts.join('; ')}.`];
  const t = policy.approvalThresholds;
  if (t?.amount != null) lines.push(`Above ${n(t.amount)} ${t.currency ?? l.currency} a person must approve.`);
  if (policy.defaultExecutionMode === 'APPROVAL_REQUIRED') lines.push('Every spend waits for approval by default.');
  for (const r of policy.accountRestrictions?.accountRules ?? []) {
    const own = [
      r.perTransactionLimit != null ? `per transaction ${n(r.perTransactionLimit)}` : '',
      r.executionMode ? `mode ${r.executionMode}` : '',
    ].filter(Boolean);
    if (own.length) lines.push(`Account ${r.accountId}: ${own.join(', ')}.`);
  }
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (allowed) lines.push(`Internal accounts allowed: ${allowed.length ? allowed.join(', ') : 'none'}.`);
  lines.push(`An amount in another currency is converted to ${l.currency} at the service's rate before the check.`);
  if (agent.isPaused) lines.push('The agent is paused: every spend is refused.');
  return lines.join(' ');
}

/** A copy of `schema` with the JSON Schema keywords `extra` set on the property at `path`. */
function setAt(schema: JsonSchema, path: string[], extra: JsonSchema): JsonSchema {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const [head, ...rest] = path;
  if (!props[head]) return schema;
  const next = rest.length ? setAt(props[head], rest, extra) : { ...props[head], ...extra };
  return { ...schema, properties: { ...props, [head]: next } };
}

/** One money-moving tool with the policy's caps in its schema and description. */
function capTool(tool: AgentTool, agent: AgentView, accounts: AccountView[] | undefined): AgentTool {
  const spending = SPENDING[tool.name];
  const caps = capsLine(agent);
  let schema = tool.inputSchema;
  if (spending?.internalAccount) {
    const allowed = agent.policy.accountRestrictions?.allowedAccountIds;
    if (allowed?.length) schema = setAt(schema, [spending.internalAccount, 'accountId'], { enum: [...allowed] });
    const maximum = amountMaximum(agent, accounts);
    const prop = (schema.properties as Record<string, JsonSchema>)[spending.amount];
    const description = [prop?.description, caps].filter(Boolean).join(' ');
    schema = setAt(schema, [spending.amount], { ...(maximum !== undefined ? { maximum } : {}), description });
  }
  const permission = PERMISSION[tool.name];
  const grants = agent.policy.permissions.includes(permission) ? '' : `The policy does not grant ${permission}.`;
  return { ...tool, inputSchema: schema, description: [tool.description, caps, grants].filter(Boolean).join(' ') };
}

/** The tools with the agent's caps stated on each money-moving one (the others unchanged). */
export function withPolicyCaps(tools: AgentTool[], agent: AgentView, accounts?: AccountView[]): AgentTool[] {
  return tools.map((t) => (PERMISSION[t.name] ? capTool(t, agent, accounts) : t));
}
