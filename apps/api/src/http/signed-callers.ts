import {
  Inject,
  Injectable,
  createParamDecorator,
  mixin,
  type CanActivate,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SignedCallVerdict } from '#application/signed-callers.js';
import type { Actor } from '#application/tokens.js';
import { unauthorized } from './errors.js';
import { rawBodyOf } from './json-body.js';
import type { HttpRequest } from './platform.js';

/** A request of a platform's signed caller, with the actor it acts as once authenticated. */
type SignedCallerRequest = HttpRequest & { actor?: Actor };

const header = (req: HttpRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** How a guard authenticates one kind of signed caller (a platform's card processor, its KYC provider). */
export interface SignedCallerCheck {
  platformHeader: string;
  signatureHeader: string;
  /** The error code of a refused request's 401. */
  code: string;
  /** The actor an accepted request acts as, for the platform it named. */
  actor: string;
  verify(
    platformId: string | undefined,
    signature: string | undefined,
    rawBody: Buffer | undefined,
  ): Promise<SignedCallVerdict>;
}

/**
 * A guard's check of a request signed by a platform's caller: the platform and signature headers and the raw body go
 * to `verify`; a refusal answers 401 before anything is read; an accepted request acts for the platform as
 * `check.actor`, under the caller's correlation id when it gives a usable one.
 */
async function authenticateSignedCaller(context: ExecutionContext, check: SignedCallerCheck): Promise<true> {
  const req = context.switchToHttp().getRequest<SignedCallerRequest>();
  const platformId = header(req, check.platformHeader);
  const result = await check.verify(platformId, header(req, check.signatureHeader), rawBodyOf(req));
  if (!result.valid) throw unauthorized(result.reason, check.code);
  const correlation = header(req, 'x-correlation-id');
  req.actor = {
    platformId: result.platformId,
    actor: check.actor,
    correlationId: correlation && correlation.length <= 100 ? correlation : randomUUID(),
  };
  return true;
}

/**
 * The guard of one kind of signed caller's route: `checkOf` makes its check from the application service (injected)
 * that verifies the signatures.
 */
export function SignedCallerGuard<S>(service: Type<S>, checkOf: (service: S) => SignedCallerCheck): Type<CanActivate> {
  @Injectable()
  class Guard implements CanActivate {
    private readonly check: SignedCallerCheck;

    constructor(@Inject(service) verifier: S) {
      this.check = checkOf(verifier);
    }

    canActivate(context: ExecutionContext): Promise<boolean> {
      return authenticateSignedCaller(context, this.check);
    }
  }
  return mixin(Guard);
}

/** The platform a signed caller's request acts for, as its guard authenticated it. */
export const SignedCallerActor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor => ctx.switchToHttp().getRequest<SignedCallerRequest>().actor!,
);
