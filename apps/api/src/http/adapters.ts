import type { DynamicModule, INestApplication, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '#config/config.js';
import { requireJsonBody } from './content-type.js';
import { ApiError, bodyErrorMiddleware, sendError, unknownPath } from './errors.js';
import { jsonBody, keepRawBody, parseJsonBytes } from './json-body.js';
import type { HttpRequest, HttpResponse } from './platform.js';
import { requestIdOf, requestLogging } from './request-log.js';

/** Largest JSON body, in bytes (a larger one answers 413 PAYLOAD_TOO_LARGE). */
const JSON_LIMIT_BYTES = 1024 * 1024;

export interface HttpAppOptions {
  logger: LoggerService;
  requestLog: ReturnType<typeof requestLogging>;
}

/**
 * The Nest application on the configured HTTP platform (`HTTP_ADAPTER`), with the same edge on both: the request
 * log and `X-Request-Id` first (every answer, refusals and unknown paths included), JSON-only bodies (415), the JSON
 * parser with its limits, and errors in the error shape. Multipart bodies are left unread for the upload routes.
 */
export async function createHttpApp(
  config: AppConfig,
  module: DynamicModule,
  options: HttpAppOptions,
): Promise<INestApplication> {
  return config.httpAdapter === 'fastify' ? createFastifyApp(module, options) : createExpressApp(module, options);
}

async function createExpressApp(module: DynamicModule, options: HttpAppOptions) {
  const app = await NestFactory.create<NestExpressApplication>(module, { bodyParser: false, logger: options.logger });
  app.disable('x-powered-by');
  app.use(options.requestLog);
  app.use(requireJsonBody());
  app.use(jsonBody({ limit: `${JSON_LIMIT_BYTES}b` }));
  app.use(bodyErrorMiddleware);
  return app;
}

async function createFastifyApp(module: DynamicModule, options: HttpAppOptions) {
  // Loaded only when chosen: Fastify and its plugins hold memory a process on Express would never use.
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const adapter = new FastifyAdapter({
    bodyLimit: JSON_LIMIT_BYTES,
    // As on Express: paths match whatever their case and with a trailing slash (parameters keep theirs), and a
    // path parameter has no length limit of its own (an over-long id is the route's 400 or 404, not the router's).
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 64 * 1024 },
    // The upload routes read multipart bodies themselves (multipart-form.ts).
    multipart: false,
    // The caller's X-Request-Id when it is sane, a UUID otherwise (the request log's rule).
    genReqId: (raw: IncomingMessage) => requestIdOf(raw.headers['x-request-id']),
    // What the router refuses before any hook runs (a path whose percent-encoding is not UTF-8, such as an encoded
    // lone surrogate): logged and answered in the error shape, as Express answers it.
    frameworkErrors: (error: { statusCode?: number }, request: unknown, reply: unknown) => {
      const [req, res] = [request as HttpRequest, reply as HttpResponse];
      options.requestLog(req, res, () => undefined);
      const status = error.statusCode === 414 ? 414 : 400;
      sendError(res, new ApiError({ status, code: 'INVALID_INPUT', message: 'the path is not valid' }), req);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    bodyParser: false,
    logger: options.logger,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    options.requestLog(request as HttpRequest, reply, done);
  });
  const refuseOtherTypes = requireJsonBody();
  fastify.addHook('onRequest', (request, reply, done) => {
    refuseOtherTypes(request as HttpRequest, reply as HttpResponse, done);
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      keepRawBody(request, request.url, body as Buffer);
      done(null, parseJsonBytes(body as Buffer, request.headers['content-type']));
    } catch (error) {
      done(error as Error);
    }
  });
  // Any other body (multipart/form-data on the upload routes) is left unread: the route reads the request itself.
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null));
  return app;
}

/** After the routes: what answers a path no route serves (Fastify's not-found handler is Nest's, set at init). */
export function answerUnknownPaths(app: INestApplication, config: AppConfig): void {
  if (config.httpAdapter === 'express') app.use(unknownPath);
}
