import type { AgentActionSnapshot, AgentEvent, AgentSnapshot } from '#domain/agents/agent-types.js';
import { toAgentActionResource } from '#domain/agents/agent-views.js';
import { defineProjection } from '../../projection.js';
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

type AgentData = { platformId: string; agent?: AgentSnapshot };
type ActionData = { platformId: string; action?: AgentActionSnapshot };

function putAgent({ data }: { data: AgentData }, tx: ProjectionTransaction): void {
  if (data.agent) tx.put(Collections.agents, { ...data.agent, platformId: data.platformId } as AgentDoc);
}

function putAction({ data }: { data: ActionData }, tx: ProjectionTransaction): void {
  if (data.action)
    tx.put(Collections.agentActions, {
      ...toAgentActionResource(data.action),
      id: data.action.id,
      platformId: data.platformId,
    });
}

/**
 * Agents and their actions. Every event carries the full snapshot of what it changed, so
 * documents are replaced; a deleted agent's document is removed (its actions stay, for audit).
 */
export const agentProjection = defineProjection<AgentEvent>({
  name: 'agents',
  collections: [Collections.agents, Collections.agentActions],
  indexes: listIndexes(Collections.agentActions, ['agentId', 'customerId']),
  on: {
    AgentCreated: putAgent,
    AgentUpdated: putAgent,
    AgentPolicyUpdated: putAgent,
    AgentDeviceCodeRedeemed: putAgent,
    AgentSpendCommitted: (event, tx) => {
      putAgent(event, tx);
      putAction(event, tx);
    },
    AgentDeleted: ({ data }, tx) => tx.delete(Collections.agents, data.agentId),
    AgentActionPendingApproval: putAction,
    AgentSpendReserved: putAction,
    AgentActionRejected: putAction,
    AgentActionFailed: putAction,
  },
});
