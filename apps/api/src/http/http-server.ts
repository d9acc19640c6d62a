import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpLimits } from '#config/config.js';
import type { ErrorBody } from './errors.js';
import { requestIdOf } from './request-log.js';

/** What Node's parser refuses before any route runs, answered in the error shape instead of a bare status line. */
function clientErrorBody(code: string | undefined): ErrorBody {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'REQUEST_HEADERS_TOO_LARGE', message: 'the request headers are too large' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request did not arrive in time' };
  }
  return { status: 400, code: 'INVALID_INPUT', message: 'the request is not valid HTTP' };
}

type CutOffRequest = { id?: string; headers?: Record<string, string | string[] | undefined> };
type ParserSocket = Duplex & { _httpMessage?: ServerResponse & { req?: CutOffRequest } };

function onClientError(error: Error & { code?: string }, socket: ParserSocket): void {
  const response = socket._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const body = clientErrorBody(error.code);
  const json = JSON.stringify(body);
  const requestId = response?.req?.id ?? requestIdOf(response?.req?.headers?.['x-request-id']);
  // The request log reads the status from the response object the cut-off request had.
  if (response) response.statusCode = body.status;
  socket.end(
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${json}`,
  );
}

/**
 * Request, header and keep-alive timeouts: a request whose headers or body never complete is
 * cut off (408) instead of holding a connection for minutes.
 */
export function applyServerLimits(server: Server, limits: HttpLimits): void {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Node checks those timeouts on an interval (30 s by default) read when the server starts listening.
  const interval = Math.max(
    50,
    Math.min(1000, Math.floor(Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs) / 4)),
  );
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = interval;
  // The only answer to what the parser refuses (Fastify installs one of its own).
  server.removeAllListeners('clientError');
  server.on('clientError', onClientError);
}
