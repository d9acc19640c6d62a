import { policyResource, usageResource } from './agent-policy.js';
import type { AgentActionSnapshot, AgentSnapshot } from './agent-types.js';

/** The Agent resource, its usage as of `now` on the platform's clock. */
export function toAgentResource(agent: AgentSnapshot, now: string): Record<string, unknown> {
  return {
    id: agent.id,
    name: agent.name,
    customerId: agent.customerId,
    isPaused: agent.isPaused,
    isConnected: agent.isConnected,
    policy: policyResource(agent.policy),
    usage: usageResource(agent.usage, now),
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}

/** The AgentAction resource (the evaluated spend stays internal). */
export function toAgentActionResource(action: AgentActionSnapshot): Record<string, unknown> {
  const { spend: _spend, ...resource } = action;
  return resource;
}
