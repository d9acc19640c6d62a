import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Level } from 'pino';
import type { AppConfig } from '#config/config.js';
import { routePattern, type HttpRequest } from './platform.js';

/** The LOG_LEVEL names mapped to pino's. */
export const PINO_LEVELS: Record<AppConfig['logLevel'], Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
};

/** A caller's own request id is kept when it is short and plain, so it can be searched for in logs. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

type LoggedRequest = HttpRequest & { id?: string; actor?: { platformId: string } };

/** On Fastify, the request the routes saw (with its route and actor) for the Node.js request the logger sees. */
const routedRequests = new WeakMap<IncomingMessage, LoggedRequest>();

/**
 * One line per request: method, route (the matched pattern, never the query string), status,
 * duration, platform and request id. Headers and bodies are not logged at all (the fields
 * are listed, not filtered), so no secret, stamp, OTP, session key or cookie can reach a log;
 * the redact paths only guard against someone logging a raw request later.
 */
function lineOf(incoming: IncomingMessage, res: ServerResponse, responseTime: number) {
  const req = routedRequests.get(incoming) ?? (incoming as unknown as LoggedRequest);
  const route = routePattern(req);
  return {
    method: req.method,
    // Nest's not-found catch-all (`*path`) is no route of the API.
    route: route !== undefined && !route.includes('*') ? route : null,
    status: res.statusCode,
    duration: responseTime,
    platform: req.actor?.platformId ?? null,
  };
}

/** What is known of an answered request, for a metric: its log line's fields. */
export type RequestLine = ReturnType<typeof lineOf>;

/** Logs one request once its response has finished (or its connection closed first). */
export type RequestLogger = (req: IncomingMessage, res: ServerResponse, requestId: string) => void;

/**
 * The request log: pino, one line when the response has been sent or the connection closed. A failed request (an
 * error on the response, or a 5xx) is logged at `error`, so it is kept at `LOG_LEVEL=error`; the others at `info`.
 * Nothing is built for a line the level leaves out (a child logger per request, with its request serializer and
 * redaction, cost more than the rest of the line).
 */
export function createRequestLogger(
  config: AppConfig,
  destination?: DestinationStream,
  observe?: (line: RequestLine) => void,
): RequestLogger {
  const logger = pino(
    {
      level: PINO_LEVELS[config.logLevel],
      redact: [
        'req.headers.authorization',
        'req.headers["service-wallet-signature"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'req.body',
        'res.body',
      ],
    },
    destination ?? pino.destination(1),
  );
  return (req, res, requestId) => {
    const started = Date.now();
    let logged = false;
    const complete = (error?: unknown) => {
      if (logged) return;
      logged = true;
      res.off('finish', finished).off('close', finished).off('error', complete);
      const failed = error !== undefined || res.statusCode >= 500;
      const level = failed ? 'error' : 'info';
      const enabled = logger.isLevelEnabled(level);
      if (!enabled && !observe) return;
      const fields = lineOf(req, res, Date.now() - started);
      observe?.(fields);
      if (!enabled) return;
      const line = { requestId, ...fields };
      logger[level](line, failed ? 'request failed' : 'request completed');
    };
    const finished = () => complete();
    res.on('finish', finished).on('close', finished).on('error', complete);
  };
}

/**
 * The request logger, which also stamps `X-Request-Id` on the response: Express middleware, and on Fastify an
 * `onRequest` hook (the same arguments; it logs the Node.js request and response under Fastify's).
 */
export const requestLogging =
  (logger: RequestLogger) =>
  (req: HttpRequest & { id?: string }, res: { raw?: ServerResponse }, next: () => void): void => {
    // On Fastify, the Node.js request and response under its own, and its request id (its genReqId is `requestIdOf`).
    const incoming = (req.raw ?? req) as IncomingMessage & { id?: string };
    const response = (res.raw ?? res) as ServerResponse;
    const id = req.raw ? String(req.id) : requestIdOf(incoming.headers['x-request-id']);
    if (req.raw) routedRequests.set(req.raw, req);
    // Kept on the Node.js request too: the answer to a request the parser cuts off carries it.
    incoming.id = id;
    response.setHeader('X-Request-Id', id);
    logger(incoming, response, id);
    next();
  };
