import { Inject, Injectable } from '@nestjs/common';
import {
  replayAgentPolicy,
  requireBacktestPeriod,
  summarizeBacktest,
  type BacktestSummary,
} from '#domain/agents/agent-backtest.js';
import { agentStream } from '#domain/agents/agent.js';
import { policyResource, updatePolicy } from '#domain/agents/agent-policy.js';
import type { AgentEvent, AgentPolicy, AgentPolicyUpdate } from '#domain/agents/agent-types.js';
import type { EventStore } from '#event-store/event-store.js';
import { CommandRunner } from '../command-runner.js';
import { EVENT_STORE } from '../tokens.js';
import { loadOwnAgent } from './agent-access.js';

export interface BacktestRequest {
  /** A policy update, applied to the agent's current policy as PATCH /agents/{id}/policy would. */
  policy: AgentPolicyUpdate;
  from: string;
  to: string;
}

export type BacktestAnswer = BacktestSummary & { agentId: string; from: string; to: string; policy: AgentPolicy };

/**
 * What a draft policy would have decided on an agent's past actions: the agent's stream read from the event log
 * (never a read model) and replayed by the domain with the agent's own decider. Reads only: nothing is appended.
 */
@Injectable()
export class AgentPolicyBacktest {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async backtest(platformId: string, agentId: string, input: BacktestRequest): Promise<BacktestAnswer> {
    const { from, to } = requireBacktestPeriod(input.from, input.to);
    const state = await loadOwnAgent(this.runner, agentId, platformId);
    const draft = updatePolicy(state.agent.policy, input.policy, 'policy.');
    const recorded = await this.events.readStream(agentStream(agentId));
    const history = recorded.map((e) => ({ type: e.type, data: e.data }) as AgentEvent);
    const summary = summarizeBacktest(replayAgentPolicy(history, draft, from, to), draft);
    return { agentId, from, to, policy: policyResource(draft), ...summary };
  }
}
