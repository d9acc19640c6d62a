import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type {
  SignedRequest,
  SignedResult,
  SignedRetryChallenge,
  SignedRetryHeaders,
} from '#application/wallet/signed-retry.service.js';
import { BASE_PATH } from './base-path.js';

/** The two signed-retry headers as received (absent or non-string values are treated as missing). */
export function signedRetryHeaders(req: Request): SignedRetryHeaders {
  const signature = req.headers['service-wallet-signature'];
  const requestId = req.headers['request-id'];
  return {
    signature: typeof signature === 'string' ? signature : undefined,
    requestId: typeof requestId === 'string' ? requestId : undefined,
  };
}

/**
 * The operation a signed retry binds: the method and the route's path below the API version with
 * its parameters as received (`PATCH /cards/Card:...`), the parsed JSON body exactly as sent (a
 * DELETE binds none) and the two headers.
 */
export function signedRequest(req: Request): SignedRequest {
  const method = req.method.toUpperCase();
  const params = req.params as Record<string, string>;
  const route = (req.route as { path: string }).path.replace(new RegExp(`^/${BASE_PATH}(?=/)`), '');
  const path = route.replace(/:(\w+)/g, (_, name: string) => params[name]);
  const body =
    method !== 'DELETE' && typeof req.body === 'object' && req.body !== null
      ? (req.body as Record<string, unknown>)
      : {};
  return { method, path, body, headers: signedRetryHeaders(req) };
}

/** The request of a signed operation (see `signedRequest`), for its command. */
export const Signed = createParamDecorator((_: unknown, ctx: ExecutionContext): SignedRequest =>
  signedRequest(ctx.switchToHttp().getRequest<Request>()),
);

const CHALLENGE = 'signedRetryChallenge';

/** Answers step 1 of a signed retry: 202 with the challenge the client must stamp. */
export function respondChallenge(res: Response, outcome: SignedRetryChallenge) {
  res.status(202);
  res.locals[CHALLENGE] = true;
  return outcome.challenge;
}

/** 202 with the challenge on step 1; otherwise `status` and the result. */
export function signedResponse<T>(
  res: Response,
  outcome: SignedResult<T>,
  status: number,
): T | ReturnType<typeof respondChallenge> {
  if (outcome.kind === 'challenge') return respondChallenge(res, outcome);
  res.status(status);
  return outcome.result;
}

/** Whether the handler answered with a signed-retry challenge (the Idempotency-Key is not spent on it). */
export const isChallenge = (res: Response): boolean => res.locals[CHALLENGE] === true;
