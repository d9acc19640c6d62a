import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { accessTokenStream, agentClaimDecider, ACCESS_TOKEN } from '#domain/agents/agent-claims.js';
import { agentDecider, agentStream } from '#domain/agents/agent.js';
import type { ExistingAgent } from '#domain/agents/agent-types.js';
import { DomainError, notFound } from '#domain/errors.js';
import { isPublicId } from '#domain/primitives.js';
import { CommandRunner } from '../command-runner.js';
import type { Actor } from '../tokens.js';

/** An authenticated agent: its platform, its id, and the actor its requests are recorded under. */
export interface AgentPrincipal {
  platformId: string;
  agentId: string;
  customerId: string;
  actor: Actor;
}

export const hashAccessToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
/** `gat_` and 40 hex characters (160 random bits). */
export const newAccessToken = () => `gat_${randomBytes(20).toString('hex')}`;

/** A live agent of this platform (404 otherwise, also for a deleted one). */
export async function loadOwnAgent(runner: CommandRunner, agentId: string, platformId: string): Promise<ExistingAgent> {
  if (!isPublicId('Agent', agentId)) throw notFound('AGENT', agentId);
  const { state } = await runner.load(agentStream(agentId), agentDecider);
  if (!state.agent || state.deleted || state.platformId !== platformId) throw notFound('AGENT', agentId);
  return state;
}

const refuse = (reason: string) =>
  new DomainError('unauthorized', 'UNAUTHORIZED', 'agent authentication failed', { reason });

/**
 * Bearer authentication of agents: the token's hash names a claim stream that points to the
 * agent, and the agent's own stream must still hold that hash (a deleted agent holds none), so a
 * deleted agent's token stops working at once, in every process.
 */
@Injectable()
export class AgentAuthenticator {
  constructor(private readonly runner: CommandRunner) {}

  async authenticate(header: string | undefined, correlationId: string): Promise<AgentPrincipal> {
    if (!header) throw refuse('missing Authorization header');
    const [scheme, token, ...rest] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0)
      throw refuse('Authorization must use the Bearer scheme with the agent access token');
    if (!ACCESS_TOKEN.test(token)) throw refuse('unknown access token');
    const hash = hashAccessToken(token);
    const { state: claim } = await this.runner.load(accessTokenStream(hash), agentClaimDecider);
    if (!claim.agentId) throw refuse('unknown access token');
    const { state } = await this.runner.load(agentStream(claim.agentId), agentDecider);
    if (!state.agent || state.deleted) throw refuse('the agent was deleted');
    if (state.tokenHash !== hash) throw refuse('the access token was revoked');
    const platformId = state.platformId;
    return {
      platformId,
      agentId: state.agent.id,
      customerId: state.agent.customerId,
      actor: { platformId, actor: state.agent.id, correlationId },
    };
  }

  /** The agent's current state (policy, usage, actions). */
  async state(principal: AgentPrincipal): Promise<ExistingAgent> {
    return loadOwnAgent(this.runner, principal.agentId, principal.platformId);
  }
}
