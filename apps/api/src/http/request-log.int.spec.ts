import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { loadConfig } from '#config/config.js';
import { createRequestLogger, requestLogging } from './request-log.js';

type Line = Record<string, unknown>;

/** A server whose every request goes through the request log, then through `handle`. */
async function logged(logLevel: string, handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const lines: Line[] = [];
  const destination: DestinationStream = {
    write: (chunk: string) =>
      void lines.push(
        ...chunk
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Line),
      ),
  };
  const config = loadConfig({ DATA_DIR: '/tmp/payments-request-log-test', LOG_LEVEL: logLevel });
  const log = requestLogging(createRequestLogger(config, destination));
  const server = createServer((req, res) => {
    (req as IncomingMessage & { route?: { path: string } }).route = { path: '/things/:id' };
    log(req as never, res as never, () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { lines, port: (server.address() as AddressInfo).port };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Sends a GET and resolves with its status and X-Request-Id (or nothing when the connection is cut). */
function get(port: number, headers: Record<string, string> = {}, cutWhen?: Promise<unknown>) {
  return new Promise<{ status?: number; requestId?: string }>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/things/1?secret=s3cr3t', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', () => resolve({}));
    void cutWhen?.then(() => req.destroy());
    req.end();
  });
}

/** Turns of the event loop until the log has `count` lines (the server's side of a connection closes a turn later). */
async function lineCount(lines: Line[], count: number) {
  for (let turn = 0; turn < 1000 && lines.length < count; turn++) await new Promise((r) => setImmediate(r));
  return lines.length;
}

describe('request log', () => {
  it('writes an info line per answered request: the caller id kept, the route pattern, never the query', async () => {
    const { lines, port } = await logged('log', (_req, res) => res.end('ok'));
    const answer = await get(port, { 'x-request-id': 'caller-id-1' });
    expect(answer).toEqual({ status: 200, requestId: 'caller-id-1' });
    expect(await lineCount(lines, 1)).toBe(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      requestId: 'caller-id-1',
      method: 'GET',
      route: '/things/:id',
      status: 200,
      duration: expect.any(Number),
      platform: null,
    });
    expect(JSON.stringify(lines)).not.toContain('s3cr3t');
  });

  it('gives a request without a sane id a fresh one, the same in the answer and the line', async () => {
    const { lines, port } = await logged('log', (_req, res) => res.end('ok'));
    const answer = await get(port, { 'x-request-id': 'not sane!' });
    await lineCount(lines, 1);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[0].requestId).toBe(answer.requestId);
  });

  it('logs a 5xx at error level, and only failures at LOG_LEVEL=error', async () => {
    let status = 200;
    const { lines, port } = await logged('error', (_req, res) => {
      res.statusCode = status;
      res.end();
    });
    await get(port);
    status = 503;
    await get(port);
    await lineCount(lines, 2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request failed', status: 503 });
  });

  it('logs a request whose connection closed before the answer once', async () => {
    let arrived!: () => void;
    const handled = new Promise<void>((resolve) => (arrived = resolve));
    const { lines, port } = await logged('log', () => arrived());
    expect(await get(port, {}, handled)).toEqual({});
    expect(await lineCount(lines, 1)).toBe(1);
    await lineCount(lines, 2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ route: '/things/:id', status: 200 });
  });
});
