import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The HTTP platform the service runs on (`HTTP_ADAPTER`). */
export type HttpAdapterName = 'express' | 'fastify';

/**
 * What the API reads of a request, the same on both adapters: Express's `Request` and Fastify's `FastifyRequest`
 * both have these members (`route` is Express's matched route, `routeOptions` and `raw` are Fastify's).
 */
export interface HttpRequest {
  method: string;
  url: string;
  originalUrl?: string;
  headers: IncomingHttpHeaders;
  params?: unknown;
  body?: unknown;
  ip?: string;
  socket: Socket;
  protocol: string;
  route?: { path?: unknown };
  routeOptions?: { url?: string };
  raw?: IncomingMessage;
}

/** What the API does with a response on both adapters (Express's `Response`, Fastify's `FastifyReply`). */
export interface HttpResponse {
  readonly statusCode: number;
  status(code: number): unknown;
  header(name: string, value: string): unknown;
  send(body?: unknown): unknown;
  raw?: ServerResponse;
  hijack?(): unknown;
}

/** The Node.js request under the adapter's (Express extends it; Fastify wraps it in `raw`). */
export const nodeRequest = (req: HttpRequest): IncomingMessage => req.raw ?? (req as unknown as IncomingMessage);

/** The request's path without the query string. */
export const pathOf = (req: HttpRequest): string => (req.originalUrl ?? req.url).split('?')[0];

/** The pattern of the route that matched (`/2025-10-13/cards/:id`), undefined when none did. */
export function routePattern(req: HttpRequest): string | undefined {
  const pattern = req.routeOptions?.url ?? req.route?.path;
  return typeof pattern === 'string' ? pattern : undefined;
}

/**
 * The Node.js response, for a route that writes it itself (a streamed file): Fastify is told the reply is the
 * route's own (`hijack`), so it neither sends nor closes it.
 */
export function nodeResponse(res: HttpResponse): ServerResponse {
  if (!res.raw) return res as unknown as ServerResponse;
  res.hijack?.();
  return res.raw;
}

/** Sends a file of the docs page, the console or a KYC page with its type and caching. */
export function sendAsset(res: HttpResponse, asset: { type: string; body: string | Buffer }, cacheControl: string) {
  res.header('Content-Type', asset.type);
  res.header('Cache-Control', cacheControl);
  res.send(asset.body);
}
