import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Level } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { AppConfig } from '#config/config.js';

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

type LoggedRequest = Request & { id?: string; actor?: { platformId: string } };
type Timed = { responseTime?: number };

/**
 * One line per request: method, route (the matched pattern, never the query string), status,
 * duration, platform and request id. Headers and bodies are not logged at all (the fields
 * are listed, not filtered), so no secret, stamp, OTP, session key or cookie can reach a log;
 * the redact paths only guard against someone logging a raw request later.
 */
function lineOf(req: LoggedRequest, res: Response, responseTime: number) {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return {
    method: req.method,
    // Nest's not-found catch-all (`*path`) is no route of the API.
    route: typeof route === 'string' && !route.includes('*') ? route : null,
    status: res.statusCode,
    duration: responseTime,
    platform: req.actor?.platformId ?? null,
  };
}

export function createRequestLogger(config: AppConfig, destination?: DestinationStream): HttpLogger<Request, Response> {
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
  return pinoHttp<Request, Response>({
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
    customSuccessObject: (req, res, value: Timed) => lineOf(req as LoggedRequest, res, value.responseTime ?? 0),
    customErrorObject: (req, res, _err, value: Timed) => lineOf(req as LoggedRequest, res, value.responseTime ?? 0),
  });
}

/** Express middleware: the request logger, which also stamps `X-Request-Id` on the response. */
export const requestLogging =
  (logger: HttpLogger<Request, Response>) => (req: Request, res: Response, next: NextFunction) =>
    logger(req, res, next);
