import { plantedFaults } from '../planted-faults.js';
import { DomainError, notFound } from '../errors.js';
import { CURRENCIES, MAX_JSON_AMOUNT, currency, formatAmount } from '../primitives.js';
import { conversionRate, pow10, scaleUp } from '../payments/rates/rate-table.js';
import type {
  AccountRule,
  AgentPermission,
  AgentPolicy,
  AgentPolicyUpdate,
  ApprovalReason,
  ExistingAgent,
  Spend,
  SpendingLimits,
  UsageCounters,
} from './agent-types.js';

export const forbidden = (message: string) => new DomainError('forbidden', 'FORBIDDEN', message);
export const overLimit = (message: string, limit: string) =>
  new DomainError('forbidden', 'VELOCITY_LIMIT_EXCEEDED', message, { limit });

/**
 * `amount` (smallest unit of `from`) in the smallest unit of `to` at the service's rate (the rate
 * table quotes use), rounded up so a limit is never passed by rounding.
 */
export function convertAmount(amount: bigint, from: string, to: string): bigint {
  if (from === to) return amount;
  const rate = conversionRate(from, to);
  const decimals = (code: string) => pow10(CURRENCIES.get(code)?.decimals ?? 2);
  return scaleUp(amount, { num: rate.num * decimals(to), den: rate.den * decimals(from) });
}

export const utcDay = (now: string) => now.slice(0, 10);
export const utcMonth = (now: string) => now.slice(0, 7);

export function emptyUsage(now: string): UsageCounters {
  return { day: utcDay(now), month: utcMonth(now), dailyTransactionCount: 0, dailySpend: '0', monthlySpend: '0' };
}

/** The counters as of `now`: a day or month that has ended starts again from zero. */
export function usageAt(usage: UsageCounters, now: string): UsageCounters {
  const day = utcDay(now);
  const month = utcMonth(now);
  const sameDay = usage.day === day;
  const sameMonth = usage.month === month;
  return {
    day,
    month,
    dailyTransactionCount: sameDay ? usage.dailyTransactionCount : 0,
    dailySpend: sameDay ? usage.dailySpend : '0',
    monthlySpend: sameMonth ? usage.monthlySpend : '0',
  };
}

/** The usage resource: counters as of `now` and when they reset next (UTC day and month of the platform's clock). */
export function usageResource(usage: UsageCounters, now: string): Record<string, unknown> {
  const current = usageAt(usage, now);
  const t = new Date(`${current.day}T00:00:00.000Z`);
  const nextDay = new Date(t.getTime() + 86_400_000).toISOString().slice(0, 10);
  const nextMonth = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
  return {
    dailyTransactionCount: current.dailyTransactionCount,
    dailySpend: Number(current.dailySpend),
    monthlySpend: Number(current.monthlySpend),
    dailyResetDate: nextDay,
    monthlyResetMonth: nextMonth,
  };
}

export function ruleFor(policy: AgentPolicy, accountId: string): AccountRule | undefined {
  return policy.accountRestrictions?.accountRules?.find((r) => r.accountId === accountId);
}

export type Evaluation =
  { outcome: 'EXECUTE'; amount: bigint } | { outcome: 'APPROVAL'; amount: bigint; reasons: ApprovalReason[] };

/**
 * The policy's verdict on one spend at `now`: refused (403 FORBIDDEN for a paused agent, a
 * missing permission or an account it may not use; 403 VELOCITY_LIMIT_EXCEEDED past any limit,
 * counting executed spends and spends reserved in flight), needs approval (APPROVAL_REQUIRED by
 * the account's rule or by default, or above the approval threshold), or executes. Account rules
 * take precedence over the policy's mode and per-transaction limit. `amount` is in the limits' currency.
 */
export function evaluateSpend(
  state: ExistingAgent,
  spend: Spend,
  now: string,
  options: { approving?: boolean } = {},
): Evaluation {
  authorizeOperation(state, spend.permission, spend.accountId, spend.otherAccountId ?? '');
  const { policy } = state.agent;
  const limits = policy.spendingLimits;
  const raw = BigInt(spend.amount);
  const amount = convertAmount(raw, spend.currency, limits.currency);
  const rule = ruleFor(policy, spend.accountId);
  const perTransaction = rule?.perTransactionLimit ?? limits.perTransactionLimit;
  if (amount > BigInt(perTransaction)) {
    const which = rule?.perTransactionLimit != null ? 'accountRules.perTransactionLimit' : 'perTransactionLimit';
    const limit = formatAmount(BigInt(perTransaction), limits.currency);
    throw overLimit(
      `${spent(raw, spend.currency, amount, limits.currency)} is above the per-transaction limit of ${limit}`,
      which,
    );
  }
  checkVelocity(state, limits, amount, now, spent(raw, spend.currency, amount, limits.currency));
  if (options.approving) return { outcome: 'EXECUTE', amount };
  const reasons = approvalReasons(policy, rule, raw, spend.currency);
  return reasons.length > 0 ? { outcome: 'APPROVAL', amount, reasons } : { outcome: 'EXECUTE', amount };
}

/**
 * The rules that ask for approval of a spend of `raw` (smallest unit of `currency`): the account's rule or, without
 * one, the policy's default mode being APPROVAL_REQUIRED, and an amount above the approval threshold.
 */
function approvalReasons(policy: AgentPolicy, rule: AccountRule | undefined, raw: bigint, currency: string) {
  const reasons: ApprovalReason[] = [];
  if (rule?.executionMode === 'APPROVAL_REQUIRED') reasons.push({ rule: 'accountRules.executionMode' });
  else if (!rule?.executionMode && policy.defaultExecutionMode === 'APPROVAL_REQUIRED')
    reasons.push({ rule: 'defaultExecutionMode' });
  const threshold = policy.approvalThresholds;
  if (threshold?.amount != null) {
    const thresholdCurrency = threshold.currency ?? policy.spendingLimits.currency;
    if (convertAmount(raw, currency, thresholdCurrency) > BigInt(threshold.amount))
      reasons.push({
        rule: 'approvalThresholds.amount',
        threshold: { amount: threshold.amount, currency: thresholdCurrency },
      });
  }
  return reasons;
}

/** A spend as messages write it: in the limits' currency, with what was asked beside it where that differs. */
const spent = (raw: bigint, currency: string, amount: bigint, limitsCurrency: string) =>
  currency === limitsCurrency
    ? formatAmount(amount, limitsCurrency)
    : `${formatAmount(amount, limitsCurrency)} (${formatAmount(raw, currency)})`;

/** Daily count, daily amount and monthly amount, with what is reserved for today and this month. */
function checkVelocity(state: ExistingAgent, limits: SpendingLimits, amount: bigint, now: string, text: string): void {
  const written = (n: bigint) => formatAmount(n, limits.currency);
  const usage = usageAt(state.agent.usage, now);
  let dailyCount = usage.dailyTransactionCount;
  let daily = BigInt(usage.dailySpend);
  let monthly = BigInt(usage.monthlySpend);
  for (const r of plantedFaults.skipAgentReservation ? [] : state.reservations.values()) {
    const reserved = convertAmount(BigInt(r.amount), r.currency, limits.currency);
    if (r.day === usage.day) {
      dailyCount += 1;
      daily += reserved;
    }
    if (r.month === usage.month) monthly += reserved;
  }
  if (limits.dailyTransactionLimit !== undefined && dailyCount + 1 > limits.dailyTransactionLimit) {
    throw overLimit(
      `the daily limit of ${limits.dailyTransactionLimit} transactions is reached`,
      'dailyTransactionLimit',
    );
  }
  if (limits.dailyLimit != null && daily + amount > BigInt(limits.dailyLimit)) {
    throw overLimit(
      `${text} passes the daily limit of ${written(BigInt(limits.dailyLimit))} (${written(daily)} used)`,
      'dailyLimit',
    );
  }
  if (limits.monthlyLimit != null && monthly + amount > BigInt(limits.monthlyLimit)) {
    const limit = written(BigInt(limits.monthlyLimit));
    const message = `${text} passes the monthly limit of ${limit} (${written(monthly)} used)`;
    throw overLimit(message, 'monthlyLimit');
  }
  // The usage the API states stays within range, limits or not.
  if (daily + amount > MAX_JSON_AMOUNT || monthly + amount > MAX_JSON_AMOUNT) {
    const message = `${text} would take the agent's usage past 2^53-1 in the smallest unit, the most the API can state`;
    throw new DomainError('invalid', 'AMOUNT_OUT_OF_RANGE', message, {
      errors: [{ field: 'amount', constraint: 'AMOUNT_OUT_OF_RANGE', message }],
    });
  }
}

/**
 * Limits and thresholds are counted in a currency the service converts amounts into. Any ISO 4217 code is taken at
 * the edge, as in the public API; one outside the supported set is refused here with 400 INVALID_CURRENCY.
 */
export function requirePolicyCurrencies(
  policy: { spendingLimits?: { currency?: string }; approvalThresholds?: { currency?: string } | null },
  prefix = '',
): void {
  const limits = policy.spendingLimits?.currency;
  if (limits !== undefined) currency(limits, `${prefix}spendingLimits.currency`);
  const threshold = policy.approvalThresholds?.currency;
  if (threshold !== undefined) currency(threshold, `${prefix}approvalThresholds.currency`);
}

const recast = (value: number | null | undefined, from: string, to: string) =>
  value == null ? value : Number(convertAmount(BigInt(value), from, to));

/**
 * A partial policy update. `permissions`, `accountRestrictions` and `approvalThresholds` replace
 * what was there (null removes the optional ones); `spendingLimits` merges field by field, null
 * removing the daily or monthly limit. A new limits currency recasts the limits not given in the
 * same update (and the account rules' limits) into it. `field` prefixes the fields an error names.
 */
export function updatePolicy(policy: AgentPolicy, update: AgentPolicyUpdate, field = ''): AgentPolicy {
  requirePolicyCurrencies(update, field);
  const next: AgentPolicy = { ...policy };
  if (update.permissions !== undefined) next.permissions = [...new Set(update.permissions)];
  if (update.defaultExecutionMode !== undefined) next.defaultExecutionMode = update.defaultExecutionMode;
  if (update.accountRestrictions !== undefined) next.accountRestrictions = update.accountRestrictions;
  if (update.approvalThresholds !== undefined) next.approvalThresholds = update.approvalThresholds;
  // null removes them: the policy then has none, as if never set.
  if (next.accountRestrictions === null) delete next.accountRestrictions;
  if (next.approvalThresholds === null) delete next.approvalThresholds;
  const s = update.spendingLimits;
  if (s) {
    const from = policy.spendingLimits.currency;
    const to = s.currency ?? from;
    const old = policy.spendingLimits;
    const limits: SpendingLimits = {
      currency: to,
      perTransactionLimit: s.perTransactionLimit ?? recast(old.perTransactionLimit, from, to)!,
      ...(old.dailyTransactionLimit !== undefined ? { dailyTransactionLimit: old.dailyTransactionLimit } : {}),
    };
    const daily = s.dailyLimit !== undefined ? s.dailyLimit : recast(old.dailyLimit, from, to);
    const monthly = s.monthlyLimit !== undefined ? s.monthlyLimit : recast(old.monthlyLimit, from, to);
    if (daily !== undefined) limits.dailyLimit = daily;
    if (monthly !== undefined) limits.monthlyLimit = monthly;
    if (s.dailyTransactionLimit !== undefined) limits.dailyTransactionLimit = s.dailyTransactionLimit;
    next.spendingLimits = limits;
    if (to !== from && update.accountRestrictions === undefined && next.accountRestrictions?.accountRules) {
      next.accountRestrictions = {
        ...next.accountRestrictions,
        accountRules: next.accountRestrictions.accountRules.map((r) =>
          r.perTransactionLimit != null ? { ...r, perTransactionLimit: recast(r.perTransactionLimit, from, to) } : r,
        ),
      };
    }
  }
  return next;
}

/**
 * The AgentPolicy resource: restrictions and thresholds that are not set are left out, as the public API leaves them
 * out (policies recorded with null for them read the same).
 */
export function policyResource(policy: AgentPolicy): AgentPolicy {
  const { accountRestrictions, approvalThresholds, ...rest } = policy;
  return {
    ...rest,
    ...(accountRestrictions != null ? { accountRestrictions } : {}),
    ...(approvalThresholds != null ? { approvalThresholds } : {}),
  };
}

/** Usage recast into a new limits currency (a policy update that changes it). */
export function recastUsage(usage: UsageCounters, from: string, to: string): UsageCounters {
  if (from === to) return usage;
  const convert = (value: string) => convertAmount(BigInt(value), from, to).toString();
  return { ...usage, dailySpend: convert(usage.dailySpend), monthlySpend: convert(usage.monthlySpend) };
}

/**
 * Paused, permission and allowed accounts: every spend (its internal account and, for a payment between two of the
 * customer's internal accounts, the other one), and the operations that spend nothing (quotes, external accounts).
 */
export function authorizeOperation(state: ExistingAgent, permission: AgentPermission, ...accountIds: string[]): void {
  const agent = state.agent;
  if (agent.isPaused) throw forbidden('the agent is paused and cannot initiate actions');
  if (!agent.policy.permissions.includes(permission))
    throw forbidden(`the agent's policy does not grant ${permission}`);
  for (const accountId of accountIds) requireAllowedAccount(agent.policy, accountId);
}

/** `allowedAccountIds` (absent or null: every internal account of the customer). */
function requireAllowedAccount(policy: AgentPolicy, accountId: string): void {
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (accountId && allowed && !allowed.includes(accountId)) {
    throw forbidden(`the agent's policy does not allow account ${accountId}`);
  }
}

/**
 * An account an agent's request names, with its owner as stored: `customerId` is absent for the platform's own
 * accounts.
 */
export interface NamedAccount {
  id: string;
  kind: 'INTERNAL' | 'EXTERNAL';
  customerId?: string;
}

/**
 * The accounts an agent may name, as source or destination, internal or external: only its customer's. Any other
 * (another customer's, the platform's own) answers 404 exactly as an account that does not exist, so an agent cannot
 * probe other accounts' ids. Of the customer's internal accounts, only those `allowedAccountIds` lists (403).
 */
export function authorizeAccounts(state: ExistingAgent, accounts: NamedAccount[]): void {
  const agent = state.agent;
  for (const account of accounts) {
    if (account.customerId !== agent.customerId)
      throw notFound(account.kind === 'INTERNAL' ? 'INTERNAL_ACCOUNT' : 'EXTERNAL_ACCOUNT', account.id);
  }
  for (const account of accounts) if (account.kind === 'INTERNAL') requireAllowedAccount(agent.policy, account.id);
}
