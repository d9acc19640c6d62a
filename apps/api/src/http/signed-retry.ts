import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { CommandBus, ICommand } from '@nestjs/cqrs';
import type {
  SignedRequest,
  SignedResult,
  SignedRetryChallenge,
  SignedRetryHeaders,
} from '#application/wallet/signed-retry.service.js';
import type { Actor } from '#application/tokens.js';
import { actorOf } from './auth.js';
import { BASE_PATH } from './base-path.js';
import { routePattern, type HttpRequest, type HttpResponse } from './platform.js';

/** The two signed-retry headers as received (absent or non-string values are treated as missing). */
export function signedRetryHeaders(req: HttpRequest): SignedRetryHeaders {
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
export function signedRequest(req: HttpRequest): SignedRequest {
  const method = req.method.toUpperCase();
  const params = req.params as Record<string, string>;
  const route = routePattern(req)!.replace(new RegExp(`^/${BASE_PATH}(?=/)`), '');
  const path = route.replace(/:(\w+)/g, (_, name: string) => params[name]);
  const body =
    method !== 'DELETE' && typeof req.body === 'object' && req.body !== null
      ? (req.body as Record<string, unknown>)
      : {};
  return { method, path, body, headers: signedRetryHeaders(req) };
}

/** The responses that answered a signed-retry challenge. */
const challenged = new WeakSet<HttpResponse>();

/**
 * A signed operation at the edge: the request its command binds (`request`), the caller it runs as (`actor`), and its
 * answer: on step 1 202 with the challenge the client must stamp (the Idempotency-Key is not spent on it).
 */
export class SignedCall {
  constructor(
    readonly request: SignedRequest,
    private readonly res: HttpResponse,
    /** The authenticated caller, whom the command runs as. */
    readonly actor: Actor,
  ) {}

  /** Answers step 1: 202 with the challenge. */
  challenge(outcome: SignedRetryChallenge) {
    this.res.status(202);
    challenged.add(this.res);
    return outcome.challenge;
  }

  /** The challenge on step 1; otherwise `status` and the result. */
  reply<T>(outcome: SignedResult<T>, status: number): T | SignedRetryChallenge['challenge'] {
    if (outcome.kind === 'challenge') return this.challenge(outcome);
    this.res.status(status);
    return outcome.result;
  }

  /** Runs the signed `command` and answers as `reply` does. */
  async execute<T>(commands: CommandBus, command: ICommand, status: number) {
    return this.reply(await commands.execute<ICommand, SignedResult<T>>(command), status);
  }

  /** Runs the signed `command`: the challenge on step 1; otherwise what `read` answers (the resource as it now is). */
  async executeThen<T>(commands: CommandBus, command: ICommand, read: () => Promise<T>) {
    const outcome = await commands.execute<ICommand, SignedResult<unknown>>(command);
    if (outcome.kind === 'challenge') return this.challenge(outcome);
    return read();
  }
}

/** The signed operation of a route (see `signedRequest` and `SignedCall`). */
export const Signed = createParamDecorator((_: unknown, ctx: ExecutionContext): SignedCall => {
  const http = ctx.switchToHttp();
  const req = http.getRequest<HttpRequest>();
  return new SignedCall(signedRequest(req), http.getResponse<HttpResponse>(), actorOf(req));
});

/** Whether the handler answered with a signed-retry challenge (the Idempotency-Key is not spent on it). */
export const isChallenge = (res: HttpResponse): boolean => challenged.has(res);
