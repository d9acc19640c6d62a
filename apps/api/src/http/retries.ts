import {
  applyDecorators,
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  HttpCode,
  Inject,
  Injectable,
  type NestInterceptor,
  Post,
  SetMetadata,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import { faultPoint, PlatformClocks } from '#application/command-context.js';
import { CommandRunner } from '#application/command-runner.js';
import { IdempotencyService } from '#application/idempotency/idempotency-service.js';
import { type Actor, IDS, SECRET_BOX } from '#application/tokens.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { IdGenerator } from '#domain/primitives.js';
import { IdempotencyKeyHeader } from '../docs/api-doc.js';
import { ApiError, type ErrorBody, invalidInput, toErrorBody } from './errors.js';
import type { RequestWithUpload } from './multipart-form.js';
import { type HttpRequest, type HttpResponse, routePattern } from './platform.js';
import type { CommandBus, ICommand } from '@nestjs/cqrs';
import type {
  SignedRequest,
  SignedResult,
  SignedRetryChallenge,
  SignedRetryHeaders,
} from '#application/wallet/signed-retry.service.js';
import { actorOf } from './auth.js';
import { BASE_PATH } from './base-path.js';

/*
 * A request sent again, by the two mechanisms a client has: under an `Idempotency-Key` (the first answer is kept and
 * given again; another request under the same key is refused), and as a signed retry (`@Signed`: the first request is
 * answered 202 with a challenge, and the same request sent again with the challenge's stamp is applied). A challenge
 * is not kept under the key, so the signed retry may come under the same key.
 */

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * What an Idempotency-Key compares of a request: the JSON body, or for a multipart upload its
 * fields and the file's name, type, size and hash (two uploads of different files differ).
 */
function requestBodyForKey(req: HttpRequest): unknown {
  const file = (req as RequestWithUpload).uploadedFile;
  if (!file) return req.body ?? null;
  const { fileName, mediaType, blob } = file;
  return { ...(req.body as object), file: { fileName, mediaType, size: blob.size, sha256: blob.sha256 } };
}

/**
 * Outcomes that did not run the operation are not recorded, so a retry with the same key can
 * still succeed: authentication failures, rate limits and server errors.
 */
const recordable = (status: number) => status < 500 && status !== 401 && status !== 429;

const SECRETS_ONCE = 'idempotencySecretsOnce';
const reflector = new Reflector();

/**
 * Response fields that hold a secret shown once (`clientSecret`, or a nested `deviceCode.code`): they are never
 * stored with the Idempotency-Key's answer, so a replay returns the same body without them (and
 * `Idempotent-Replayed: true`).
 */
export const SecretOnce = (...fields: string[]) => SetMetadata(SECRETS_ONCE, fields);

/** `body` without the field at `path` (dotted), copying only the objects on the way. */
function without(body: unknown, path: string[]): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const [head, ...rest] = path;
  if (!(head in body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if (rest.length === 0) delete copy[head];
  else copy[head] = without(copy[head], rest);
  return copy;
}

/** The body as stored for replays: without the handler's {@link SecretOnce} fields. */
function storable(context: ExecutionContext, body: unknown): unknown {
  const fields = reflector.get<string[] | undefined>(SECRETS_ONCE, context.getHandler()) ?? [];
  return fields.reduce((stored, field) => without(stored, field.split('.')), body);
}

/** The stored answers of Idempotency-Keys, for the interceptor and the upload routes. */
@Injectable()
abstract class IdempotencyStore {
  protected readonly service: IdempotencyService;

  constructor(
    runner: CommandRunner,
    clocks: PlatformClocks,
    @Inject(IDS) ids: IdGenerator,
    @Inject(SECRET_BOX) box: SecretBox,
  ) {
    this.service = new IdempotencyService(runner, clocks, ids, box);
  }
}

/**
 * `Idempotency-Key` for any POST: the first response (status and body, errors included) is stored
 * with a hash of the request; the same key with the same request gets it back (header
 * `Idempotent-Replayed: true`; without a secret shown once, see {@link SecretOnce}), with a different
 * request 422 IDEMPOTENCY_KEY_REUSED; concurrent duplicates wait for the first and never run twice.
 * Requests without the header run as usual.
 */
@Injectable()
export class IdempotencyInterceptor extends IdempotencyStore implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<KeyedRequest>();
    const res = http.getResponse<HttpResponse>();
    const key = idempotencyKeyOf(req);
    if (key === undefined) return next.handle();
    const started = await this.service.begin(req.actor!, key, {
      method: req.method,
      path: req.originalUrl ?? req.url,
      body: requestBodyForKey(req),
    });
    if (started.kind === 'replay') {
      res.header('Idempotent-Replayed', 'true');
      const { status, body } = started.response;
      if (status >= 400) throw new ApiError(body as ErrorBody);
      res.status(status);
      return of(body);
    }
    // The route runs as the claim's actor, so that the ids its effects draw are the claim's (`keyedActor`): a retry
    // that takes over a claim whose request never answered names its effects as the first run did.
    req.actor = started.actor;
    if (req.agent) req.agent = { ...req.agent, actor: started.actor };
    return next.handle().pipe(
      // A signed-retry challenge (202) is a step, not an outcome: the key is released so that the
      // signed step 2 (same method, path and body, so the same request hash: headers are not
      // hashed) can claim it and record the final answer. A replay of that answer runs nothing, so
      // a consumed signature never acts twice; it only shows the platform what it was already sent.
      mergeMap((body) => {
        const response = { status: res.statusCode, body: storable(context, body ?? null) };
        if (!isChallenge(res)) faultPoint('before-key-answer');
        const settled = isChallenge(res) ? started.release() : started.complete(response);
        return from(settled.then(() => body));
      }),
      catchError((error: unknown) => {
        const { body } = toErrorBody(error);
        const settled = recordable(body.status) ? started.complete({ status: body.status, body }) : started.release();
        return from(settled).pipe(mergeMap(() => throwError(() => error)));
      }),
    );
  }
}

type KeyedRequest = HttpRequest & { actor?: Actor; agent?: { agentId: string; actor: Actor } };

/** The request's Idempotency-Key (scoped per agent for agent calls), undefined without one; 400 when malformed. */
export function idempotencyKeyOf(req: KeyedRequest): string | undefined {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY.test(header)) {
    throw invalidInput([
      {
        field: 'Idempotency-Key',
        constraint: 'isIdempotencyKey',
        message: 'Idempotency-Key must be 1-255 visible ASCII characters',
      },
    ]);
  }
  // Agent calls are scoped per agent: two agents of one platform never share a key.
  return req.agent ? `${req.agent.agentId}/${header}` : header;
}

/**
 * `Idempotency-Key` for a route that reads its own body (a file upload, which the interceptor
 * cannot hash before the route reads it): the same rules, with the request described by what the
 * route read (`request.body`, e.g. the file's digest). `work` runs at most once per key.
 */
@Injectable()
export class UploadIdempotency extends IdempotencyStore {
  /**
   * `described`: what identifies the request besides method and path; `status`: the answer's when `work` succeeds;
   * `work` runs as the actor it is given (the claim's, see IdempotencyInterceptor).
   */
  async run<T>(
    req: KeyedRequest,
    res: HttpResponse,
    described: unknown,
    status: number,
    work: (actor: Actor) => Promise<T>,
  ) {
    const key = idempotencyKeyOf(req);
    if (key === undefined) return work(req.actor!);
    const started = await this.service.begin(req.actor!, key, {
      method: req.method,
      path: req.originalUrl ?? req.url,
      body: described,
    });
    if (started.kind === 'replay') {
      res.header('Idempotent-Replayed', 'true');
      const { status, body } = started.response;
      if (status >= 400) throw new ApiError(body as ErrorBody);
      res.status(status);
      return body as T;
    }
    let result: T;
    try {
      result = await work(started.actor);
    } catch (error) {
      const { body } = toErrorBody(error);
      if (recordable(body.status)) await started.complete({ status: body.status, body });
      else await started.release();
      throw error;
    }
    await started.complete({ status, body: result ?? null });
    return result;
  }
}

/**
 * Makes a POST honour `Idempotency-Key` (see IdempotencyInterceptor) and declares the header in
 * the OpenAPI document. Use it on every POST that creates or moves something. `before`: interceptors
 * that must run first (one that reads a multipart body into the request).
 */
export const Idempotent = (...before: Type<NestInterceptor>[]) =>
  applyDecorators(IdempotencyKeyHeader(), UseInterceptors(...before, IdempotencyInterceptor));

/** A POST that acts on something that exists (`:quoteId/execute`): idempotent, answering 200. */
export const IdempotentAction = (path?: string) => applyDecorators(Post(path), Idempotent(), HttpCode(200));

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
