import {
  applyDecorators,
  HttpCode,
  Inject,
  Injectable,
  Post,
  SetMetadata,
  UseInterceptors,
  type CallHandler,
  type Type,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import { faultPoint } from '#application/command-context.js';
import { CommandRunner } from '#application/command-runner.js';
import { IdempotencyService } from '#application/idempotency/idempotency-service.js';
import { IDS, SECRET_BOX, type Actor } from '#application/tokens.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { IdGenerator } from '#domain/ids.js';
import { IdempotencyKeyHeader } from '../docs/api-doc.js';
import { ApiError, invalidInput, toErrorBody, type ErrorBody } from './errors.js';
import { PlatformClocks } from '#application/platforms/platform-clocks.js';
import { isChallenge } from './signed-retry.js';
import type { RequestWithUpload } from './multipart-form.js';
import type { HttpRequest, HttpResponse } from './platform.js';

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
