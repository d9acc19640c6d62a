import type { AgentActionSnapshot, AgentEvent, AgentSnapshot } from '#domain/agents/agent-types.js';
import { toAgentActionResource } from '#domain/agents/agent-views.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** An agent as stored: its snapshot (usage with the day and month it counts) plus `platformId`. */
export type AgentDoc = Doc & AgentSnapshot & { platformId: string };
/** An agent action as stored: the AgentAction resource plus `platformId`. */
export type AgentActionDoc = Doc & Record<string, unknown> & { platformId: string; agentId: string; status: string };

export function toAgentSnapshot(doc: AgentDoc): AgentSnapshot {
  const { platformId: _p, ...agent } = doc;
  return agent;
}

export function toAgentActionDocResource(doc: Doc): Record<string, unknown> {
  const { platformId: _p, ...action } = doc;
  return action;
}

const AGENT_EVENTS = [
  'AgentCreated',
  'AgentUpdated',
  'AgentPolicyUpdated',
  'AgentDeviceCodeRedeemed',
  'AgentSpendCommitted',
  'AgentDeleted',
];
const ACTION_EVENTS = [
  'AgentActionPendingApproval',
  'AgentSpendReserved',
  'AgentSpendCommitted',
  'AgentActionRejected',
  'AgentActionFailed',
];

/**
 * Agents and their actions. Every event carries the full snapshot of what it changed, so
 * documents are replaced; a deleted agent's document is removed (its actions stay, for audit).
 */
export const agentProjection: Projection = {
  name: 'agents',
  collections: [Collections.agents, Collections.agentActions],
  indexes: listIndexes(Collections.agentActions, ['agentId', 'customerId']),
  handles: [...new Set([...AGENT_EVENTS, ...ACTION_EVENTS])],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as AgentEvent;
    const data = event.data as { platformId: string; agent?: AgentSnapshot; action?: AgentActionSnapshot };
    if (event.type === 'AgentDeleted') tx.delete(Collections.agents, event.data.agentId);
    else if (data.agent && AGENT_EVENTS.includes(event.type))
      tx.put(Collections.agents, { ...data.agent, platformId: data.platformId } as AgentDoc);
    if (data.action)
      tx.put(Collections.agentActions, {
        ...toAgentActionResource(data.action),
        id: data.action.id,
        platformId: data.platformId,
      });
  },
};
