import { statedAmount } from '../primitives.js';
import { DomainError } from '../errors.js';
import { agentDecider } from './agent.js';
import { convertAmount, recastUsage } from './agent-policy.js';
import type { AgentActionSnapshot, AgentCommand, AgentEvent, AgentPolicy, AgentState } from './agent-types.js';

/** How a policy decides an action when it is requested. */
export type BacktestOutcome = 'APPROVED' | 'DECLINED' | 'APPROVAL_REQUIRED';

/** One action requested in the period, as it was decided and as the draft decides it. */
export interface BacktestDecision {
  actionId: string;
  type: AgentActionSnapshot['type'];
  at: string;
  /** Smallest unit of `currency` (the action's own). */
  amount: number;
  currency: string;
  actualOutcome: BacktestOutcome;
  draftOutcome: BacktestOutcome;
  /** DECLINED: the limit that refused it (e.g. dailyLimit), or FORBIDDEN for a permission or an account. */
  limit?: string;
  reason?: string;
  /** The amount in the draft's limits currency at the service's rate (what the limits count). */
  limitsAmount: bigint;
}

/**
 * Replays an agent's stream with `draft` in force from `from` on: every action requested in [from, to) is decided
 * again by the agent's own decider (the live path's pure policy functions) on the state of that time, with the usage
 * and reservations that the draft's own decisions left: an action the draft refuses never counts, one it holds for
 * approval counts only once the platform approved it in fact (and the draft agrees then). Before `from` the stream is
 * folded as it happened; the usage at `from` is recast into the draft's limits currency as a policy update would.
 * Policy updates recorded after `from` are ignored (the draft stays). Refused requests left no event, so every actual
 * outcome is APPROVED or APPROVAL_REQUIRED. Pure: nothing is written.
 */
export function replayAgentPolicy(
  events: AgentEvent[],
  draft: AgentPolicy,
  from: string,
  to: string,
): BacktestDecision[] {
  let actual = agentDecider.initialState();
  let sim: AgentState | undefined;
  const decisions: BacktestDecision[] = [];
  for (const event of events) {
    const at = eventTime(event);
    if (at >= to) break;
    if (!sim && at >= from) sim = switchTo(actual, draft);
    if (sim) {
      const step =
        'action' in event.data ? replayEvent(event, actual, sim, draft) : { sim: replayAgentEvent(event, sim, draft) };
      sim = step.sim;
      if (step.decision) decisions.push(step.decision);
    }
    actual = agentDecider.evolve(actual, event);
  }
  return decisions;
}

/** When an event happened on the platform's clock (each event carries the time of its command). */
function eventTime(event: AgentEvent): string {
  const data = event.data as { action?: AgentActionSnapshot; agent?: { updatedAt: string }; issuedAt?: string };
  if (data.action) return data.action.updatedAt;
  return data.issuedAt ?? data.agent?.updatedAt ?? '';
}

/** The state at `from` with the draft in force: separate maps (evolve updates them in place), usage recast. */
function switchTo(actual: AgentState, draft: AgentPolicy): AgentState {
  const copy = { ...actual, actions: new Map(actual.actions), reservations: new Map(actual.reservations) };
  if (!copy.agent) return copy;
  const usage = recastUsage(copy.agent.usage, copy.agent.policy.spendingLimits.currency, draft.spendingLimits.currency);
  return { ...copy, agent: { ...copy.agent, policy: draft, usage } };
}

/** The draft's state after one event of the stream, and the decision it holds (a request in the period). */
function replayEvent(
  event: AgentEvent,
  actual: AgentState,
  sim: AgentState,
  draft: AgentPolicy,
): { sim: AgentState; decision?: BacktestDecision } {
  if (!('action' in event.data)) return { sim };
  const action = event.data.action;
  const before = actual.actions.get(action.id);
  const mine = sim.actions.get(action.id);
  const run = (cmd: AgentCommand) => ({ sim: decideOn(sim, cmd) });
  switch (event.type) {
    case 'AgentActionPendingApproval':
      return request(sim, action, 'APPROVAL_REQUIRED', draft);
    case 'AgentSpendReserved':
      if (!before) return request(sim, action, 'APPROVED', draft);
      // The platform approved it: the draft decides the approval again, if it held the action too.
      if (mine?.status !== 'PENDING_APPROVAL') return { sim };
      return run({ type: 'ApproveAction', actionId: action.id, now: action.updatedAt });
    case 'AgentActionFailed': {
      if (before?.status !== 'PENDING_APPROVAL')
        return run({ type: 'FailAction', actionId: action.id, ...failure(action) });
      if (mine?.status !== 'PENDING_APPROVAL') return { sim };
      // A refusal by the policy at approval is decided again by the draft; any other failure stands.
      const byPolicy = /^(VELOCITY_LIMIT_EXCEEDED|FORBIDDEN):/.test(action.failureReason ?? '');
      const failed = byPolicy ? {} : { failure: action.failureReason ?? 'FAILED' };
      return run({ type: 'ApproveAction', actionId: action.id, now: action.updatedAt, ...failed });
    }
    case 'AgentActionRejected':
      if (mine?.status !== 'PENDING_APPROVAL') return { sim };
      return run({ type: 'RejectAction', actionId: action.id, reason: action.rejectionReason, now: action.updatedAt });
    case 'AgentSpendCommitted': {
      const transaction = action.transaction ?? {};
      return run({ type: 'CompleteAction', actionId: action.id, transaction, now: action.updatedAt });
    }
    default:
      return { sim };
  }
}

const failure = (action: AgentActionSnapshot) => ({ reason: action.failureReason ?? 'FAILED', now: action.updatedAt });

/** Events that change the agent itself: its name, pause, connection or deletion; never the draft or its usage. */
function replayAgentEvent(event: AgentEvent, sim: AgentState, draft: AgentPolicy): AgentState {
  if (event.type === 'AgentPolicyUpdated') return sim;
  if (!('agent' in event.data)) return agentDecider.evolve(sim, event);
  const agent = { ...event.data.agent, policy: draft, usage: sim.agent?.usage ?? event.data.agent.usage };
  return agentDecider.evolve(sim, { ...event, data: { ...event.data, agent } } as AgentEvent);
}

/** The draft's state after a command, unchanged where the command does not apply to the draft's history. */
function decideOn(sim: AgentState, cmd: AgentCommand): AgentState {
  try {
    return agentDecider.decide(cmd, sim).reduce(agentDecider.evolve, sim);
  } catch (error) {
    if (error instanceof DomainError) return sim;
    throw error;
  }
}

/** A request decided again by the draft: APPROVED (reserved), APPROVAL_REQUIRED (held) or DECLINED (refused). */
function request(
  sim: AgentState,
  action: AgentActionSnapshot,
  actualOutcome: BacktestOutcome,
  draft: AgentPolicy,
): { sim: AgentState; decision: BacktestDecision } {
  const { spend } = action;
  const decision: BacktestDecision = {
    actionId: action.id,
    type: action.type,
    at: action.createdAt,
    amount: Number(spend.amount),
    currency: spend.currency,
    actualOutcome,
    draftOutcome: 'APPROVED',
    limitsAmount: convertAmount(BigInt(spend.amount), spend.currency, draft.spendingLimits.currency),
  };
  const requestOf = {
    actionId: action.id,
    type: action.type,
    spend,
    ...(action.quote ? { quote: action.quote } : {}),
    ...(action.transferDetails ? { transferDetails: action.transferDetails } : {}),
  };
  try {
    const events = agentDecider.decide({ type: 'RequestAction', request: requestOf, now: action.createdAt }, sim);
    const next = events.reduce(agentDecider.evolve, sim);
    const held = events.some((e) => e.type === 'AgentActionPendingApproval');
    return { sim: next, decision: { ...decision, draftOutcome: held ? 'APPROVAL_REQUIRED' : 'APPROVED' } };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const limit = typeof error.details?.limit === 'string' ? error.details.limit : error.code;
    return { sim, decision: { ...decision, draftOutcome: 'DECLINED', limit, reason: error.message } };
  }
}

/** Actions and amounts (in the draft's limits currency) of one (actual, draft) pair of outcomes. */
export interface BacktestOutcomePair {
  actualOutcome: BacktestOutcome;
  draftOutcome: BacktestOutcome;
  count: number;
  /** Null past 2^53-1, with the exact sum in `exact`. */
  amount: number | null;
  exact?: string;
}

/** A count and its amounts added up: the JSON number where it fits, otherwise null with `exact`. */
export type StatedTotal = { count: number } & ReturnType<typeof statedAmount>;

export interface BacktestSummary {
  /** The draft's limits currency: the summary's amounts are in its smallest unit. */
  currency: string;
  considered: StatedTotal;
  changed: StatedTotal & { actions: Omit<BacktestDecision, 'limitsAmount'>[] };
  outcomes: BacktestOutcomePair[];
}

/** The backtest's answer: what changes, counted per pair of outcomes, and what was considered. */
export function summarizeBacktest(decisions: BacktestDecision[], draft: AgentPolicy): BacktestSummary {
  const pairs = new Map<
    string,
    { actualOutcome: BacktestOutcome; draftOutcome: BacktestOutcome; count: number; amount: bigint }
  >();
  let total = 0n;
  let changedTotal = 0n;
  const changed: Omit<BacktestDecision, 'limitsAmount'>[] = [];
  for (const d of decisions) {
    const { limitsAmount, ...shown } = d;
    total += limitsAmount;
    const key = `${d.actualOutcome}>${d.draftOutcome}`;
    const pair = pairs.get(key) ?? {
      actualOutcome: d.actualOutcome,
      draftOutcome: d.draftOutcome,
      count: 0,
      amount: 0n,
    };
    pairs.set(key, { ...pair, count: pair.count + 1, amount: pair.amount + limitsAmount });
    if (d.actualOutcome === d.draftOutcome) continue;
    changedTotal += limitsAmount;
    changed.push(shown);
  }
  return {
    currency: draft.spendingLimits.currency,
    considered: { count: decisions.length, ...statedAmount(total) },
    changed: { count: changed.length, ...statedAmount(changedTotal), actions: changed },
    outcomes: [...pairs.values()].map((p) => ({ ...p, ...statedAmount(p.amount) })),
  };
}

/** The longest period one backtest replays. */
export const MAX_BACKTEST_DAYS = 366;

/** A backtest's period: `from` strictly before `to`, at most MAX_BACKTEST_DAYS long (400 INVALID_INPUT otherwise). */
export function requireBacktestPeriod(from: string, to: string): { from: string; to: string } {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const refuse = (field: string, constraint: string, message: string) =>
    new DomainError('invalid', 'INVALID_INPUT', message, { errors: [{ field, constraint, message }] });
  if (Number.isNaN(start)) throw refuse('from', 'isIso8601', 'from must be an ISO 8601 date-time');
  if (Number.isNaN(end)) throw refuse('to', 'isIso8601', 'to must be an ISO 8601 date-time');
  if (start >= end) throw refuse('to', 'AFTER_FROM', 'to must be after from');
  if (end - start > MAX_BACKTEST_DAYS * 86_400_000)
    throw refuse('to', 'MAX_PERIOD', `the period must be at most ${MAX_BACKTEST_DAYS} days`);
  // The stream's times are ISO strings in UTC (toISOString): compared as such.
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}
