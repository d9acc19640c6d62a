import type { AgentActionDecision, AgentActionSnapshot } from '#domain/agents/agent-types.js';
import { toAgentActionResource } from '#domain/agents/agent-views.js';
import { publicId, type IdGenerator } from '#domain/primitives.js';
import type { PlatformDecisions } from '../decisions/platform-decisions.js';
import type { Actor } from '../tokens.js';

/** What the platform's AGENT_ACTION.REQUEST endpoint (or its default) decided, unless the action is left to wait. */
export interface AgentActionVerdict {
  approve: boolean;
  reason?: string;
  decision: AgentActionDecision;
  /** Who the approval or rejection is recorded as: the platform's decision endpoint. */
  actor: Actor;
}

/** The actor of approvals and rejections the platform's decision endpoint (or its default) made. */
export const PLATFORM_DECISION_ACTOR = 'system:platform-decisions';

/**
 * Asks the platform's decision endpoint about an action that needs approval. APPROVE or REJECT (the endpoint's or
 * the default's) is a verdict; WAIT, or no endpoint registered, leaves the action PENDING_APPROVAL for a person.
 */
export async function askPlatformAboutAction(
  decisions: PlatformDecisions,
  ids: IdGenerator,
  action: AgentActionSnapshot,
  actor: Actor,
): Promise<AgentActionVerdict | undefined> {
  const answer = await decisions.decide(actor.platformId, 'AGENT_ACTION.REQUEST', {
    requestId: publicId('Webhook', ids.uuid()),
    data: toAgentActionResource(action),
  });
  if (!answer || (answer.decision !== 'APPROVE' && answer.decision !== 'REJECT')) return undefined;
  const { decidedBy, elapsedMs, reason, fallback } = answer;
  return {
    approve: answer.decision === 'APPROVE',
    ...(reason !== undefined ? { reason } : {}),
    decision: {
      decidedBy,
      elapsedMs,
      ...(reason !== undefined ? { reason } : {}),
      ...(fallback !== undefined ? { fallback } : {}),
    },
    actor: { ...actor, actor: PLATFORM_DECISION_ACTOR },
  };
}
