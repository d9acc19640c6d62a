import type { Decider } from '../decider.js';
import { hashDeviceCode } from './agent-claims.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import {
  convertAmount,
  emptyUsage,
  evaluateSpend,
  recastUsage,
  requirePolicyCurrencies,
  updatePolicy,
  usageAt,
  utcDay,
  utcMonth,
} from './agent-policy.js';
import type {
  AgentActionSnapshot,
  AgentCommand,
  AgentEvent,
  AgentSnapshot,
  AgentState,
  ExistingAgent,
} from './agent-types.js';

/**
 * One agent's stream is the consistency boundary of its policy: the agent, its device code and
 * token hash, its actions and the spends reserved while their money moves. A spend is decided
 * here (pure) and reserved before money moves, so concurrent spends see each other and cannot
 * overshoot a limit; the reservation becomes usage when the money moved, or is released when it
 * did not.
 *
 * Action states: PENDING_APPROVAL -> APPROVED (reserved, then executed) | REJECTED | FAILED;
 * an action executed without approval starts APPROVED; APPROVED -> FAILED when execution fails
 * before any transaction exists. REJECTED and FAILED are final.
 */
const initialState = (): AgentState => ({ deleted: false, actions: new Map(), reservations: new Map() });

export const agentStream = (agentId: string) => `agent-${agentId.split(':')[1]}`;

/** The agent, created and not deleted, or not found. */
export function requireAgent(state: AgentState): ExistingAgent {
  if (!state.agent || state.deleted) throw notFound('AGENT', state.agent?.id ?? 'unknown');
  return state;
}

/** An action of the agent, or not found. */
export function requireAction(state: AgentState, actionId: string): AgentActionSnapshot {
  const action = state.actions.get(actionId);
  if (!action) throw notFound('AGENT_ACTION', actionId);
  return action;
}

const notPending = (action: AgentActionSnapshot) =>
  conflict(
    'INVALID_STATE_TRANSITION',
    `action ${action.id} is ${action.status}; only a PENDING_APPROVAL action can be approved or rejected`,
  );

type Base = { platformId: string; agentId: string };
type Of<T extends AgentCommand['type']> = Extract<AgentCommand, { type: T }>;

function decide(cmd: AgentCommand, given: AgentState): AgentEvent[] {
  if (cmd.type === 'CreateAgent') return decideCreate(cmd, given);
  const state = requireAgent(given);
  const { agent } = state;
  const base: Base = { platformId: state.platformId, agentId: agent.id };
  switch (cmd.type) {
    case 'UpdateAgent': {
      const next = {
        ...agent,
        ...(cmd.name !== undefined ? { name: cmd.name } : {}),
        ...(cmd.isPaused !== undefined ? { isPaused: cmd.isPaused } : {}),
        updatedAt: cmd.now,
      };
      return [{ type: 'AgentUpdated', data: { ...base, agent: next } }];
    }
    case 'UpdateAgentPolicy': {
      const policy = updatePolicy(agent.policy, cmd.update);
      const usage = recastUsage(agent.usage, agent.policy.spendingLimits.currency, policy.spendingLimits.currency);
      const updated = { ...agent, policy, usage, updatedAt: cmd.now };
      return [{ type: 'AgentPolicyUpdated', data: { ...base, agent: updated } }];
    }
    case 'DeleteAgent': {
      const deleted = { ...agent, isConnected: false, updatedAt: cmd.now };
      return [{ type: 'AgentDeleted', data: { ...base, agent: deleted, deletedAt: cmd.now } }];
    }
    case 'IssueDeviceCode':
      if (agent.isConnected) {
        throw conflict('CONFLICT', 'the agent is connected; a new device code is issued only before it connects');
      }
      return [{ type: 'AgentDeviceCodeIssued', data: { ...base, deviceCode: cmd.deviceCode, issuedAt: cmd.now } }];
    case 'RedeemDeviceCode':
      return decideRedeem(cmd, state, agent, base);
    case 'RequestAction':
      return decideRequest(cmd, state, agent, base);
    case 'ApproveAction':
      return decideApprove(cmd, state, agent, base);
    case 'RejectAction': {
      const action = requireAction(state, cmd.actionId);
      if (action.status !== 'PENDING_APPROVAL') throw notPending(action);
      const reason = cmd.reason !== undefined ? { rejectionReason: cmd.reason } : {};
      const by = cmd.decision ? { decision: cmd.decision } : {};
      const rejected: AgentActionSnapshot = { ...action, status: 'REJECTED', ...reason, ...by, updatedAt: cmd.now };
      return [{ type: 'AgentActionRejected', data: { ...base, action: rejected } }];
    }
    case 'CompleteAction': {
      const action = requireAction(state, cmd.actionId);
      const reserved = state.reservations.get(cmd.actionId);
      // Only a reserved action executes; a repeat (recovery) changes nothing.
      if (action.status !== 'APPROVED' || !reserved) return [];
      const executed = { ...action, transaction: cmd.transaction, updatedAt: cmd.now };
      const counted = { ...agent, usage: addUsage(agent, reserved) };
      return [{ type: 'AgentSpendCommitted', data: { ...base, action: executed, agent: counted } }];
    }
    case 'FailAction': {
      const action = requireAction(state, cmd.actionId);
      if (action.status !== 'APPROVED' || !state.reservations.has(cmd.actionId)) return [];
      return [failed(base, action, cmd.reason, cmd.now)];
    }
  }
}

function decideCreate(cmd: Of<'CreateAgent'>, state: AgentState): AgentEvent[] {
  if (state.agent) throw conflict('CONFLICT', `agent ${cmd.agentId} already exists`);
  requirePolicyCurrencies(cmd.policy, 'policy.');
  const agent: AgentSnapshot = {
    id: cmd.agentId,
    name: cmd.name,
    customerId: cmd.customerId,
    platformCustomerId: cmd.platformCustomerId,
    isPaused: false,
    isConnected: false,
    policy: cmd.policy,
    usage: emptyUsage(cmd.now),
    createdAt: cmd.now,
    updatedAt: cmd.now,
  };
  const base = { platformId: cmd.platformId, agentId: cmd.agentId };
  return [
    { type: 'AgentCreated', data: { ...base, agent } },
    { type: 'AgentDeviceCodeIssued', data: { ...base, deviceCode: cmd.deviceCode, issuedAt: cmd.now } },
  ];
}

function decideRedeem(
  cmd: Of<'RedeemDeviceCode'>,
  state: ExistingAgent,
  agent: AgentSnapshot,
  base: Base,
): AgentEvent[] {
  const current = state.deviceCode;
  const refuse = (message: string) => invalid('INVALID_INPUT', message, 'code');
  // An earlier code stops working as soon as a new one is issued.
  if (!current || current.codeHash !== cmd.codeHash) throw refuse('this device code was replaced by a newer one');
  if (current.redeemed) throw refuse('this device code was already redeemed');
  if (cmd.now >= current.expiresAt) throw refuse(`this device code expired at ${current.expiresAt}`);
  const connected = { ...agent, isConnected: true, updatedAt: cmd.now };
  const { codeHash, tokenHash } = cmd;
  return [{ type: 'AgentDeviceCodeRedeemed', data: { ...base, codeHash, tokenHash, agent: connected } }];
}

function decideRequest(cmd: Of<'RequestAction'>, state: ExistingAgent, agent: AgentSnapshot, base: Base): AgentEvent[] {
  const { request } = cmd;
  if (state.actions.has(request.actionId)) throw conflict('CONFLICT', `action ${request.actionId} already exists`);
  const evaluation = evaluateSpend(state, request.spend, cmd.now);
  const action: AgentActionSnapshot = {
    id: request.actionId,
    agentId: agent.id,
    customerId: agent.customerId,
    platformCustomerId: agent.platformCustomerId,
    status: evaluation.outcome === 'APPROVAL' ? 'PENDING_APPROVAL' : 'APPROVED',
    type: request.type,
    spend: request.spend,
    ...(request.quote ? { quote: request.quote } : {}),
    ...(request.transferDetails ? { transferDetails: request.transferDetails } : {}),
    ...(evaluation.outcome === 'APPROVAL' ? { approvalReasons: evaluation.reasons } : {}),
    createdAt: cmd.now,
    updatedAt: cmd.now,
  };
  if (evaluation.outcome === 'APPROVAL') return [{ type: 'AgentActionPendingApproval', data: { ...base, action } }];
  const reserved = reservation(agent, evaluation.amount, cmd.now);
  return [{ type: 'AgentSpendReserved', data: { ...base, action, reservation: reserved } }];
}

/**
 * An approval is not a guarantee: the latest policy and usage decide again; the caller may report a failure (quote
 * expired).
 */
function decideApprove(cmd: Of<'ApproveAction'>, state: ExistingAgent, agent: AgentSnapshot, base: Base): AgentEvent[] {
  const action = requireAction(state, cmd.actionId);
  if (action.status !== 'PENDING_APPROVAL') throw notPending(action);
  const decided = cmd.decision ? { ...action, decision: cmd.decision } : action;
  if (cmd.failure) return [failed(base, decided, cmd.failure, cmd.now)];
  let amount: bigint;
  try {
    amount = evaluateSpend(state, action.spend, cmd.now, { approving: true }).amount;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const code = error.code === 'VELOCITY_LIMIT_EXCEEDED' ? error.code : 'FORBIDDEN';
    return [failed(base, decided, `${code}: ${error.message}`, cmd.now)];
  }
  const approved: AgentActionSnapshot = { ...decided, status: 'APPROVED', updatedAt: cmd.now };
  const reserved = reservation(agent, amount, cmd.now);
  return [{ type: 'AgentSpendReserved', data: { ...base, action: approved, reservation: reserved } }];
}

const failed = (base: Base, action: AgentActionSnapshot, reason: string, now: string): AgentEvent => ({
  type: 'AgentActionFailed',
  data: { ...base, action: { ...action, status: 'FAILED', failureReason: reason, updatedAt: now } },
});

const reservation = (agent: AgentSnapshot, amount: bigint, now: string) => ({
  amount: amount.toString(),
  currency: agent.policy.spendingLimits.currency,
  day: utcDay(now),
  month: utcMonth(now),
});

/** Usage with one executed spend, counted in the day and month it was reserved in. */
function addUsage(agent: AgentSnapshot, r: { amount: string; currency: string; day: string; month: string }) {
  const limitsCurrency = agent.policy.spendingLimits.currency;
  // The reservation's day may be later than the last counted day (counters start again).
  const current = r.day > agent.usage.day ? usageAt(agent.usage, `${r.day}T00:00:00.000Z`) : agent.usage;
  const amount = convertAmount(BigInt(r.amount), r.currency, limitsCurrency);
  const sameDay = current.day === r.day;
  const sameMonth = current.month === r.month;
  return {
    ...current,
    dailyTransactionCount: current.dailyTransactionCount + (sameDay ? 1 : 0),
    dailySpend: sameDay ? (BigInt(current.dailySpend) + amount).toString() : current.dailySpend,
    monthlySpend: sameMonth ? (BigInt(current.monthlySpend) + amount).toString() : current.monthlySpend,
  };
}

/**
 * Each event gives a new state; the actions and reservations (an agent's whole history of them) are updated in place
 * (see Decider), as copying them for every event would make folding an agent's stream quadratic.
 */
function evolve(state: AgentState, event: AgentEvent): AgentState {
  const data = event.data;
  const agent = 'agent' in data ? data.agent : state.agent;
  // Every event of an agent's stream carries its snapshot or follows its creation.
  const next: AgentState = agent ? { ...state, platformId: data.platformId, agent } : state;
  if ('action' in data) next.actions.set(data.action.id, data.action);
  switch (event.type) {
    case 'AgentDeleted':
      return { ...next, deleted: true, tokenHash: undefined };
    case 'AgentDeviceCodeIssued': {
      // Events from before codes were hashed carry the plain code: it is hashed as it is folded.
      const issued = event.data.deviceCode;
      const { expiresAt, redeemed } = issued;
      const codeHash = 'code' in issued ? hashDeviceCode(issued.code) : issued.codeHash;
      return { ...next, deviceCode: { codeHash, expiresAt, redeemed } };
    }
    case 'AgentDeviceCodeRedeemed': {
      // A code is redeemed only once issued.
      const deviceCode = next.deviceCode && { ...next.deviceCode, redeemed: true };
      return { ...next, ...(deviceCode ? { deviceCode } : {}), tokenHash: event.data.tokenHash };
    }
    case 'AgentSpendReserved':
      next.reservations.set(event.data.action.id, event.data.reservation);
      return next;
    case 'AgentSpendCommitted':
    case 'AgentActionFailed':
      next.reservations.delete(event.data.action.id);
      return next;
    default:
      return next;
  }
}

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = { initialState, evolve, decide };
