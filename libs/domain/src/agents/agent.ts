import type { Decider } from '../decider.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { emptyUsage, evaluateSpend, recastUsage, usageAt, utcDay, utcMonth, updatePolicy } from './agent-policy.js';
import type { AgentActionSnapshot, AgentCommand, AgentEvent, AgentSnapshot, AgentState } from './agent-types.js';

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

function requireAgent(state: AgentState): AgentSnapshot {
  if (!state.agent || state.deleted) throw notFound('AGENT', state.agent?.id ?? 'unknown');
  return state.agent;
}

function requireAction(state: AgentState, actionId: string): AgentActionSnapshot {
  const action = state.actions.get(actionId);
  if (!action) throw notFound('AGENT_ACTION', actionId);
  return action;
}

const notPending = (action: AgentActionSnapshot) =>
  conflict('INVALID_STATE_TRANSITION', `action ${action.id} is ${action.status}; only a PENDING_APPROVAL action can be approved or rejected`);

function decide(cmd: AgentCommand, state: AgentState): AgentEvent[] {
  if (cmd.type === 'CreateAgent') {
    if (state.agent) throw conflict('CONFLICT', `agent ${cmd.agentId} already exists`);
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
  const agent = requireAgent(state);
  const base = { platformId: state.platformId!, agentId: agent.id };
  switch (cmd.type) {
    case 'UpdateAgent': {
      const next = { ...agent, ...(cmd.name !== undefined ? { name: cmd.name } : {}), ...(cmd.isPaused !== undefined ? { isPaused: cmd.isPaused } : {}), updatedAt: cmd.now };
      return [{ type: 'AgentUpdated', data: { ...base, agent: next } }];
    }
    case 'UpdateAgentPolicy': {
      const policy = updatePolicy(agent.policy, cmd.update);
      const usage = recastUsage(agent.usage, agent.policy.spendingLimits.currency, policy.spendingLimits.currency);
      return [{ type: 'AgentPolicyUpdated', data: { ...base, agent: { ...agent, policy, usage, updatedAt: cmd.now } } }];
    }
    case 'DeleteAgent':
      return [{ type: 'AgentDeleted', data: { ...base, agent: { ...agent, isConnected: false, updatedAt: cmd.now }, deletedAt: cmd.now } }];
    case 'IssueDeviceCode':
      if (agent.isConnected) throw conflict('CONFLICT', 'the agent already has an active connection; a new device code is issued only before it connects');
      return [{ type: 'AgentDeviceCodeIssued', data: { ...base, deviceCode: cmd.deviceCode, issuedAt: cmd.now } }];
    case 'RedeemDeviceCode': {
      const current = state.deviceCode;
      // An earlier code stops working as soon as a new one is issued.
      if (!current || current.code !== cmd.code) throw invalid('INVALID_INPUT', 'this device code was replaced by a newer one', 'code');
      if (current.redeemed) throw invalid('INVALID_INPUT', 'this device code was already redeemed', 'code');
      if (cmd.now >= current.expiresAt) throw invalid('INVALID_INPUT', `this device code expired at ${current.expiresAt}`, 'code');
      return [{ type: 'AgentDeviceCodeRedeemed', data: { ...base, code: cmd.code, tokenHash: cmd.tokenHash, agent: { ...agent, isConnected: true, updatedAt: cmd.now } } }];
    }
    case 'RequestAction': {
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
        createdAt: cmd.now,
        updatedAt: cmd.now,
      };
      if (evaluation.outcome === 'APPROVAL') return [{ type: 'AgentActionPendingApproval', data: { ...base, action } }];
      return [{ type: 'AgentSpendReserved', data: { ...base, action, reservation: reservation(agent, evaluation.amount, cmd.now) } }];
    }
    case 'ApproveAction': {
      const action = requireAction(state, cmd.actionId);
      if (action.status !== 'PENDING_APPROVAL') throw notPending(action);
      // An approval is not a guarantee: the latest policy, usage and the quote decide.
      let failure = cmd.failure;
      let amount = 0n;
      if (!failure) {
        try {
          amount = evaluateSpend(state, action.spend, cmd.now, { approving: true }).amount;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          failure = error.code === 'VELOCITY_LIMIT_EXCEEDED' ? `VELOCITY_LIMIT_EXCEEDED: ${error.message}` : `FORBIDDEN: ${error.message}`;
        }
      }
      if (failure) return [{ type: 'AgentActionFailed', data: { ...base, action: { ...action, status: 'FAILED', failureReason: failure, updatedAt: cmd.now } } }];
      return [{ type: 'AgentSpendReserved', data: { ...base, action: { ...action, status: 'APPROVED', updatedAt: cmd.now }, reservation: reservation(agent, amount, cmd.now) } }];
    }
    case 'RejectAction': {
      const action = requireAction(state, cmd.actionId);
      if (action.status !== 'PENDING_APPROVAL') throw notPending(action);
      const rejected: AgentActionSnapshot = { ...action, status: 'REJECTED', ...(cmd.reason !== undefined ? { rejectionReason: cmd.reason } : {}), updatedAt: cmd.now };
      return [{ type: 'AgentActionRejected', data: { ...base, action: rejected } }];
    }
    case 'CompleteAction': {
      const action = requireAction(state, cmd.actionId);
      const reserved = state.reservations.get(cmd.actionId);
      // Only a reserved action executes; a repeat (recovery) changes nothing.
      if (action.status !== 'APPROVED' || !reserved) return [];
      const usage = addUsage(agent, reserved);
      return [{ type: 'AgentSpendCommitted', data: { ...base, action: { ...action, transaction: cmd.transaction, updatedAt: cmd.now }, agent: { ...agent, usage } } }];
    }
    case 'FailAction': {
      const action = requireAction(state, cmd.actionId);
      if (action.status !== 'APPROVED' || !state.reservations.has(cmd.actionId)) return [];
      return [{ type: 'AgentActionFailed', data: { ...base, action: { ...action, status: 'FAILED', failureReason: cmd.reason, updatedAt: cmd.now } } }];
    }
  }
}

const reservation = (agent: AgentSnapshot, amount: bigint, now: string) => ({ amount: amount.toString(), currency: agent.policy.spendingLimits.currency, day: utcDay(now), month: utcMonth(now) });

/** Usage with one executed spend, counted in the day and month it was reserved in. */
function addUsage(agent: AgentSnapshot, r: { amount: string; currency: string; day: string; month: string }) {
  const limitsCurrency = agent.policy.spendingLimits.currency;
  // The reservation's day may be later than the last counted day (counters start again).
  const current = r.day > agent.usage.day ? usageAt(agent.usage, `${r.day}T00:00:00.000Z`) : agent.usage;
  const amount = recastUsage({ ...current, dailySpend: r.amount, monthlySpend: r.amount }, r.currency, limitsCurrency).dailySpend;
  const sameDay = current.day === r.day;
  const sameMonth = current.month === r.month;
  return {
    ...current,
    dailyTransactionCount: current.dailyTransactionCount + (sameDay ? 1 : 0),
    dailySpend: sameDay ? (BigInt(current.dailySpend) + BigInt(amount)).toString() : current.dailySpend,
    monthlySpend: sameMonth ? (BigInt(current.monthlySpend) + BigInt(amount)).toString() : current.monthlySpend,
  };
}

function evolve(state: AgentState, event: AgentEvent): AgentState {
  const data = event.data;
  state.platformId = data.platformId;
  if ('agent' in data) state.agent = data.agent;
  switch (event.type) {
    case 'AgentDeleted':
      state.deleted = true;
      state.tokenHash = undefined;
      break;
    case 'AgentDeviceCodeIssued':
      state.deviceCode = event.data.deviceCode;
      break;
    case 'AgentDeviceCodeRedeemed':
      state.deviceCode = { ...state.deviceCode!, redeemed: true };
      state.tokenHash = event.data.tokenHash;
      break;
    case 'AgentSpendReserved':
      state.reservations.set(event.data.action.id, event.data.reservation);
      break;
    case 'AgentSpendCommitted':
    case 'AgentActionFailed':
      state.reservations.delete(event.data.action.id);
      break;
    default:
      break;
  }
  if ('action' in data) state.actions.set(data.action.id, data.action);
  return state;
}

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = { initialState, evolve, decide };
