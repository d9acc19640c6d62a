import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { secretMatches } from '#crypto/secrets.js';
import { Queries } from '#application/queries/queries.js';
import type { Actor } from '#application/tokens.js';
import { TurnMemo } from '#application/turn-memo.js';
import { acceptedPermissions, permits, PERMISSIONS, type Permission } from '#domain/platforms/permissions.js';
import { ApiError, unauthorized } from './errors.js';
import type { TrustedProxies } from '#net/trusted-proxies.js';
import { AuthFailureLimiter, clientAddress, TRUSTED_PROXIES } from './rate-limit.js';
import { pathOf, type HttpRequest } from './platform.js';

const PUBLIC = 'isPublic';
/** Routes that need no platform credentials (documentation, health). */
export const Public = () => SetMetadata(PUBLIC, true);

const AGENT_ROUTE = 'isAgentRoute';
/**
 * Routes authenticated with an agent's bearer token by their own guard (AgentAuthGuard), not with platform credentials.
 */
export const AgentRoute = () => SetMetadata(AGENT_ROUTE, true);

type AuthedRequest = HttpRequest & { actor?: Actor; permissions?: readonly Permission[] };

/**
 * HTTP Basic with `<api token id>:<client secret>`. Token ids contain a colon
 * (`ApiToken:<uuid>`) and secrets never do, so the credentials split at the last colon.
 */
export function parseBasic(header: string | undefined): { id: string; secret: string } | { error: string } {
  if (!header) return { error: 'missing Authorization header' };
  const [scheme, encoded] = header.split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !encoded) return { error: 'Authorization must use the Basic scheme' };
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const at = decoded.lastIndexOf(':');
  if (at <= 0 || at === decoded.length - 1) return { error: 'Basic credentials must be <token id>:<secret>' };
  return { id: decoded.slice(0, at), secret: decoded.slice(at + 1) };
}

type AuthToken = NonNullable<Awaited<ReturnType<Queries['tokenForAuth']>>>;

@Injectable()
export class PlatformAuthGuard implements CanActivate {
  /**
   * The token each pair of credentials names if the secret matches it (else undefined), shared by the requests of one
   * turn of the event loop: a platform's requests mostly carry the same credentials. A revocation is seen by the next
   * turn's requests.
   */
  private readonly verified = new TurnMemo<string, AuthToken | undefined>();

  constructor(
    private readonly reflector: Reflector,
    private readonly queries: Queries,
    private readonly failures: AuthFailureLimiter,
    @Inject(TRUSTED_PROXIES) private readonly proxies: TrustedProxies,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    if (this.reflector.getAllAndOverride<boolean>(AGENT_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const credentials = parseBasic(req.headers.authorization);
    if ('error' in credentials) throw unauthorized(credentials.error);
    // The secret is checked first (a constant-time comparison of hashes), so its owner is never locked out.
    const token = await this.verified.get(`${credentials.id}\n${credentials.secret}`, async () => {
      const stored = await this.queries.tokenForAuth(credentials.id);
      return stored && secretMatches(credentials.secret, stored.secretHash) ? stored : undefined;
    });
    if (!token) {
      await this.failures.recordFailure(credentials.id, clientAddress(req, this.proxies));
      throw unauthorized('invalid token id or secret');
    }
    if (token.status !== 'ACTIVE') throw unauthorized('the API token was revoked');
    // The token's permissions (VIEW, TRANSACT, MANAGE) must allow this request (permissions.ts).
    const path = pathOf(req).replace(/^\/\d{4}-\d{2}-\d{2}(?=\/|$)/, '');
    const accepted = acceptedPermissions(req.method, path);
    if (!permits(token.permissions, accepted))
      throw new ApiError({
        status: 403,
        code: 'FORBIDDEN',
        message: `the API token lacks the ${accepted.join(' or ')} permission this request needs`,
      });
    const correlation = req.headers['x-correlation-id'];
    req.permissions = token.permissions ?? PERMISSIONS;
    req.actor = {
      platformId: token.platformId,
      actor: token.id,
      correlationId: typeof correlation === 'string' && correlation.length <= 100 ? correlation : randomUUID(),
    };
    return true;
  }
}

/** The permissions of the request's API token (all three for a token from before permissions existed). */
export const CurrentPermissions = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): readonly Permission[] =>
    ctx.switchToHttp().getRequest<AuthedRequest>().permissions ?? [],
);

/** The caller the guard authenticated on `req`. */
export const actorOf = (req: HttpRequest): Actor => (req as AuthedRequest).actor!;

/** The authenticated platform and token of the request. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor =>
  actorOf(ctx.switchToHttp().getRequest<HttpRequest>()),
);
