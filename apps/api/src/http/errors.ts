import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { NextFunction } from 'express';
import { DomainError, type DomainErrorKind, type FieldError } from '#domain/errors.js';
import { InvalidCursor } from '#read-models/read-model-store.js';
import { CommandConflictError } from '#application/command-runner.js';
import { pathOf, routePattern, type HttpRequest, type HttpResponse } from './platform.js';

/** The error body of every failed request: `{status, code, message, details?}` plus `reason` on 401. */
export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  reason?: string;
  details?: Record<string, unknown>;
}

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unprocessable: 422,
  rate_limited: 429,
};

/** An HTTP-level error raised by the edge (auth, validation, routing), already in our shape. */
export class ApiError extends HttpException {
  constructor(
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body, body.status);
  }
}

export const invalidInput = (errors: FieldError[], message = 'the request is not valid') =>
  new ApiError({ status: 400, code: 'INVALID_INPUT', message, details: { errors } });

/** A body that is not JSON at all. */
export const malformedJson = () =>
  invalidInput([{ field: 'body', constraint: 'isJson', message: 'the body is not valid JSON' }], 'malformed JSON body');

export const unauthorized = (reason: string, code = 'UNAUTHORIZED') =>
  new ApiError(
    { status: 401, code, message: 'authentication failed', reason },
    code === 'UNAUTHORIZED' ? { 'WWW-Authenticate': 'Basic realm="api"' } : {},
  );

export function toErrorBody(error: unknown): { body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof ApiError) return { body: error.body, headers: error.headers };
  if (error instanceof DomainError) {
    const status = STATUS[error.kind];
    const { reason, ...details } = error.details ?? {};
    const body: ErrorBody = { status, code: error.code, message: error.message };
    if (typeof reason === 'string') body.reason = reason;
    if (Object.keys(details).length > 0) body.details = details;
    const retryAfter = details.retryAfterSeconds;
    return {
      body,
      headers: typeof retryAfter === 'number' ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) } : {},
    };
  }
  if (error instanceof InvalidCursor) {
    return {
      body: {
        status: 400,
        code: 'INVALID_INPUT',
        message: error.message,
        details: { errors: [{ field: 'cursor', constraint: 'isValidCursor', message: error.message }] },
      },
      headers: {},
    };
  }
  if (error instanceof CommandConflictError)
    return { body: { status: 409, code: 'CONFLICT', message: error.message }, headers: {} };
  if ((error as NodeJS.ErrnoException)?.code === 'ECONNRESET') {
    // A body the client stopped sending (Fastify's body reader; body-parser answers it 400 itself).
    return { body: { status: 400, code: 'INVALID_INPUT', message: 'the body was not sent to its end' }, headers: {} };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code =
      status === 404
        ? 'NOT_FOUND'
        : status === 405
          ? 'METHOD_NOT_ALLOWED'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status < 500
              ? 'INVALID_INPUT'
              : 'INTERNAL_ERROR';
    const message = status === 404 ? 'no such endpoint' : error.message;
    return { body: { status, code, message }, headers: {} };
  }
  return { body: { status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' }, headers: {} };
}

const CONSTANT = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The log line of an unexpected error: the method, the route's pattern and the request id, the error's class, its
 * code when that is a constant (`ERR_…`, `SQLITE_…`), and its stack frames. Never its message, the URL or a
 * request value: messages are often built from field values (`invalid email ada@…`), and the URL holds the query
 * and the path's ids, all of which may be personal data.
 */
export function unexpectedErrorLine(error: unknown, req: HttpRequest): string {
  const route = routePattern(req);
  const where = `${req.method} ${route !== undefined && !route.includes('*') ? route : '(no route)'}`;
  const requestId = (req as { id?: unknown }).id ?? (req.raw as { id?: unknown } | undefined)?.id;
  if (!(error instanceof Error)) return `${where} [${String(requestId)}]: thrown ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  const constant = typeof code === 'string' && CONSTANT.test(code) ? ` ${code}` : '';
  const kind = `${error.constructor?.name ?? 'Error'}${constant}`;
  const frames = (error.stack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '));
  return [`${where} [${String(requestId)}]: ${kind} (message withheld)`, ...frames.map((f) => `    ${f}`)].join('\n');
}

function send(res: HttpResponse, error: unknown, logger: Logger, req: HttpRequest): void {
  const { body, headers } = toErrorBody(error);
  if (body.status >= 500) logger.error(unexpectedErrorLine(error, req));
  for (const [k, v] of Object.entries(headers)) res.header(k, v);
  res.header('Content-Type', 'application/json; charset=utf-8');
  res.status(body.status);
  res.send(JSON.stringify(body));
}

/** Answers an error in the error shape from middleware or a hook (before routing). */
export const sendError = (res: HttpResponse, error: unknown, req: HttpRequest) =>
  send(res, error, new Logger('HTTP'), req);

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    send(http.getResponse<HttpResponse>(), error, this.logger, http.getRequest<HttpRequest>());
  }
}

/** After every route: a path no route serves, inside or outside the base path, is a JSON 404. */
export function unknownPath(req: HttpRequest, res: HttpResponse): void {
  sendError(
    res,
    new ApiError({ status: 404, code: 'NOT_FOUND', message: `no such endpoint: ${req.method} ${pathOf(req)}` }),
    req,
  );
}

/** Express error middleware for failures before routing: malformed JSON, oversized or wrongly typed bodies. */
export function bodyErrorMiddleware(error: unknown, req: HttpRequest, res: HttpResponse, next: NextFunction): void {
  if (!error) return next();
  const e = error as { type?: string; status?: number; message?: string };
  if (error instanceof ApiError) {
    // refused by the JSON body parser (too deep, unsafe values, charset): already in our shape
    send(res, error, new Logger('HTTP'), req);
  } else if (e.type === 'entity.parse.failed') {
    send(res, malformedJson(), new Logger('HTTP'), req);
  } else if (e.type === 'entity.too.large') {
    send(
      res,
      new ApiError({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the body is too large' }),
      new Logger('HTTP'),
      req,
    );
  } else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    send(
      res,
      new ApiError({ status: e.status, code: 'INVALID_INPUT', message: e.message ?? 'bad request' }),
      new Logger('HTTP'),
      req,
    );
  } else {
    send(res, error, new Logger('HTTP'), req);
  }
}
