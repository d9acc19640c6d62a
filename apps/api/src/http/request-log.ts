import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Level } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
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
type Timed = { responseTime?: number };

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

export function createRequestLogger(config: AppConfig, destination?: DestinationStream): HttpLogger {
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
  return pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (req, res) => {
      const id = requestIdOf(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customSuccessObject: (req, res, value: Timed) => lineOf(req, res, value.responseTime ?? 0),
    customErrorObject: (req, res, _err, value: Timed) => lineOf(req, res, value.responseTime ?? 0),
  });
}

/**
 * The request logger, which also stamps `X-Request-Id` on the response: Express middleware, and on Fastify an
 * `onRequest` hook (the same arguments; it logs the Node.js request and response under Fastify's).
 */
export const requestLogging =
  (logger: HttpLogger) =>
  (req: HttpRequest & { id?: string }, res: { raw?: ServerResponse }, next: () => void): void => {
    if (req.raw && res.raw) {
      // Fastify's request id (its genReqId is `requestIdOf`) is the log's and the answer's.
      req.raw.id = String(req.id);
      res.raw.setHeader('X-Request-Id', String(req.id));
      routedRequests.set(req.raw, req);
      logger(req.raw, res.raw);
      next();
    } else {
      logger(req as unknown as IncomingMessage, res as unknown as ServerResponse, next);
    }
  };
