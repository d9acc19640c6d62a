import { Injectable, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CardProcessorConfig } from '#application/cards/card-processor-config.js';
import type { Actor } from '#application/tokens.js';
import { unauthorized } from '../http/errors.js';
import { rawBodyOf } from '../http/json-body.js';
import type { HttpRequest } from '../http/platform.js';

/** The header naming the platform whose card processor sends the message. */
export const PROCESSOR_PLATFORM_HEADER = 'x-processor-platform';
/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`. */
export const PROCESSOR_SIGNATURE_HEADER = 'x-processor-signature';

type ProcessorRequest = HttpRequest & { actor?: Actor };

const header = (req: HttpRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * A card processor's messages are authenticated by an HMAC of the raw body with the platform's card processor
 * secret, not by platform credentials: a missing, malformed, stale or wrong signature, an unknown platform and one
 * without a secret all answer 401 before anything is read or recorded. The message then acts for the platform as
 * `system:card-processor`.
 */
@Injectable()
export class ProcessorSignatureGuard implements CanActivate {
  constructor(private readonly config: CardProcessorConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ProcessorRequest>();
    const platformId = header(req, PROCESSOR_PLATFORM_HEADER);
    const result = await this.config.verify(platformId, header(req, PROCESSOR_SIGNATURE_HEADER), rawBodyOf(req));
    if (!result.valid) throw unauthorized(result.reason, 'PROCESSOR_SIGNATURE_INVALID');
    const correlation = header(req, 'x-correlation-id');
    req.actor = {
      platformId: result.platformId,
      actor: 'system:card-processor',
      correlationId: correlation && correlation.length <= 100 ? correlation : randomUUID(),
    };
    return true;
  }
}

/** The platform the processor's message is for, as the guard authenticated it. */
export const ProcessorActor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor => ctx.switchToHttp().getRequest<ProcessorRequest>().actor!,
);
