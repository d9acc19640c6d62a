import { Injectable, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AgentAuthenticator, type AgentPrincipal } from '#application/agents/agent-access.js';
import type { Actor } from '#application/tokens.js';
import type { HttpRequest } from '../http/platform.js';

type AgentRequest = HttpRequest & { agent?: AgentPrincipal; actor?: Actor };

/**
 * `Authorization: Bearer <accessToken>` for `/agents/me/*`: an unknown token, a revoked one and
 * a deleted agent's all answer 401. The request then acts as the agent (`actor` is `Agent:<uuid>`).
 */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(private readonly authenticator: AgentAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AgentRequest>();
    const correlation = req.headers['x-correlation-id'];
    const correlationId = typeof correlation === 'string' && correlation.length <= 100 ? correlation : randomUUID();
    const principal = await this.authenticator.authenticate(req.headers.authorization, correlationId);
    req.agent = principal;
    req.actor = principal.actor;
    return true;
  }
}

/** The authenticated agent of the request. */
export const CurrentAgent = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AgentPrincipal => ctx.switchToHttp().getRequest<AgentRequest>().agent!,
);
