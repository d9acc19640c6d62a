import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowedHosts } from '#net/address-policy.js';
import type { ResolvedAddress, Resolver } from '#net/resolve-target.js';
import { UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import { postWebhook, RESPONSE_EXCERPT_BYTES } from './sender.js';

interface Local {
  port: number;
  requests: { path: string; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 answering `answer(path)`. */
type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

async function listen(answer: (path: string) => Answer): Promise<Local> {
  const requests: Local['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = answer(req.url ?? '');
      if (a === 'hang') return;
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver from a fixed table that counts its calls; unknown names fail like NXDOMAIN. */
function table(entries: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (async (hostname: string) => {
    calls.push(hostname);
    const found = entries[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as Resolver & { calls: string[] };
  resolve.calls = calls;
  return resolve;
}

const BODY = JSON.stringify({ id: 'Webhook:1', type: 'TEST' });
const HEADERS = { 'content-type': 'application/json' };

describe('webhook sender: vetted addresses at delivery time', () => {
  let receiver: Local;
  let other: Local;
  let closedPort: number;

  beforeAll(async () => {
    other = await listen(() => ({ status: 200, body: 'other' }));
    receiver = await listen((path) => {
      if (path === '/redirect') return { status: 302, headers: { location: `http://127.0.0.1:${other.port}/stolen` } };
      if (path === '/big') return { status: 200, body: 'é'.repeat(RESPONSE_EXCERPT_BYTES) };
      if (path === '/hang') return 'hang';
      return { status: 200, body: 'ok' };
    });
    const closed = await listen(() => ({ status: 200 }));
    closedPort = closed.port;
    await closed.close();
  });
  afterAll(async () => {
    await receiver?.close();
    await other?.close();
  });

  const send = (url: string, options: { resolve?: Resolver; allowed?: string[]; timeoutMs?: number } = {}) =>
    postWebhook(url, BODY, HEADERS, {
      timeoutMs: options.timeoutMs ?? 2000,
      allowedHosts: parseAllowedHosts(options.allowed ?? []),
      resolve: options.resolve ?? table({}),
    });

  it('refuses a name when ANY of its addresses is not public, and never connects', async () => {
    const cases: Record<string, string[]> = {
      'mixed.example.test': ['93.184.216.34', '127.0.0.1'],
      'loopback.example.test': ['127.0.0.1'],
      'private.example.test': ['10.0.0.7'],
      'metadata.example.test': ['169.254.169.254'],
      'mapped.example.test': ['::ffff:127.0.0.1'],
      'ula.example.test': ['fd00:ec2::254'],
    };
    const resolve = table(cases);
    for (const name of Object.keys(cases)) {
      const result = await send(`http://${name}:${receiver.port}/in`, { resolve });
      const seen = { name, statusCode: result.statusCode, error: result.error };
      expect(seen).toEqual({ name, statusCode: undefined, error: UNREACHABLE });
      expect(result.cause).toMatch(/^address refused: /);
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the address it vetted (resolved once), with the URL host in Host', async () => {
    // .test names do not exist in real DNS: arriving at the receiver proves the pinned address was used.
    const resolve = table({ 'receiver.example.test': ['127.0.0.1'] });
    const url = `http://receiver.example.test:${receiver.port}/in?x=1`;
    const result = await send(url, { resolve, allowed: ['receiver.example.test'] });
    expect(result).toMatchObject({ statusCode: 200, responseBody: 'ok' });
    expect(resolve.calls).toEqual(['receiver.example.test']);
    const [request] = receiver.requests.splice(0);
    expect(request).toMatchObject({ path: '/in?x=1', body: BODY });
    expect(request.headers.host).toBe(`receiver.example.test:${receiver.port}`);
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('refuses loopback literals unless allow-listed, and local names before resolving them', async () => {
    const resolve = table({ localhost: ['127.0.0.1'] });
    expect((await send(`http://127.0.0.1:${receiver.port}/in`, { resolve })).cause).toBe('address refused: loopback');
    const mapped = await send(`http://[::ffff:7f00:1]:${receiver.port}/in`, { resolve });
    expect(mapped.cause).toBe('address refused: loopback');
    expect((await send(`http://localhost:${receiver.port}/in`, { resolve })).cause).toBe('address refused: localName');
    expect(resolve.calls).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
    const listed = await send(`http://127.0.0.1:${receiver.port}/in`, { allowed: [`127.0.0.1:${receiver.port}`] });
    expect(listed.statusCode).toBe(200);
    expect(receiver.requests.splice(0)).toHaveLength(1);
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    const result = await send(`http://127.0.0.1:${receiver.port}/redirect`, { allowed: ['127.0.0.1'] });
    expect(result.statusCode).toBe(302);
    receiver.requests.splice(0);
    expect(other.requests).toHaveLength(0);
  });

  it('gives the same generic error for a refused address, a closed port, an unknown name and a timeout', async () => {
    const refused = await send(`http://10.0.0.1:${closedPort}/in`, { allowed: ['127.0.0.1'] });
    const closed = await send(`http://127.0.0.1:${closedPort}/in`, { allowed: ['127.0.0.1'] });
    const unknown = await send(`http://nowhere.example.test/in`);
    const timeout = await send(`http://127.0.0.1:${receiver.port}/hang`, { allowed: ['127.0.0.1'], timeoutMs: 200 });
    receiver.requests.splice(0);
    for (const result of [refused, closed, unknown, timeout]) {
      const seen = { statusCode: result.statusCode, responseBody: result.responseBody, error: result.error };
      expect(seen).toEqual({ statusCode: undefined, responseBody: undefined, error: UNREACHABLE });
    }
    expect([refused.cause, closed.cause, unknown.cause, timeout.cause]).toEqual([
      'address refused: private',
      expect.stringContaining('ECONNREFUSED'),
      'the host did not resolve',
      'timeout after 200 ms',
    ]);
  });

  it('keeps at most RESPONSE_EXCERPT_BYTES of the body, without a split character', async () => {
    const result = await send(`http://127.0.0.1:${receiver.port}/big`, { allowed: ['127.0.0.1'] });
    receiver.requests.splice(0);
    expect(result.statusCode).toBe(200);
    expect(result.responseBody).toBe('é'.repeat(RESPONSE_EXCERPT_BYTES / 2));
  });
});
