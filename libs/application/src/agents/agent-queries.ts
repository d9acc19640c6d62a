import { Inject, Injectable } from '@nestjs/common';
import { toAgentActionResource, toAgentResource } from '#domain/agents/agent-views.js';
import { notFound } from '#domain/errors.js';
import { Collections } from '#read-models/projections/collections.js';
import {
  toAgentActionDocResource,
  toAgentSnapshot,
  type AgentDoc,
} from '#read-models/projections/agents/agent-projection.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandRunner } from '../command-runner.js';
import { PlatformClocks } from '../command-context.js';
import { listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';
import { loadOwnAgent } from './agent-access.js';
import { agentActionList, agentList, type AgentActionCriteria, type AgentCriteria } from '../queries/list-criteria.js';

/**
 * Reads of agents and their actions. Lists are read-model queries; a single agent or action is
 * read from the agent's stream, so it is never behind its own writes. Usage is shown as of the
 * platform's clock (a counter of an ended day or month reads zero).
 */
@Injectable()
export class AgentQueries {
  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
  ) {}

  async agent(platformId: string, agentId: string) {
    const state = await loadOwnAgent(this.runner, agentId, platformId);
    return toAgentResource(state.agent, (await this.clocks.now(platformId)).toISOString());
  }

  async listAgents(platformId: string, criteria: AgentCriteria) {
    const now = (await this.clocks.now(platformId)).toISOString();
    return listForPlatform<AgentDoc>(this.store, Collections.agents, platformId, agentList(criteria), (doc) =>
      toAgentResource(toAgentSnapshot(doc), now),
    );
  }

  async action(platformId: string, agentId: string, actionId: string) {
    const state = await loadOwnAgent(this.runner, agentId, platformId);
    const action = state.actions.get(actionId);
    if (!action) throw notFound('AGENT_ACTION', actionId);
    return toAgentActionResource(action);
  }

  listActions(platformId: string, criteria: AgentActionCriteria) {
    const request = agentActionList(criteria);
    return listForPlatform(this.store, Collections.agentActions, platformId, request, toAgentActionDocResource);
  }

  /** Actions waiting for the platform's decision. */
  listApprovals(platformId: string, criteria: Omit<AgentActionCriteria, 'status'>) {
    return this.listActions(platformId, { ...criteria, status: 'PENDING_APPROVAL' });
  }
}
