import { CommandBus } from '@nestjs/cqrs';
import { PaymentsClient, type ClientCredentials } from '@payments-platform/client';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../apps/api/src/service.js';
import { CreatePlatformCommand, type IssuedToken } from '#application/platforms/platform-commands.js';
import { loadConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/primitives.js';
import { responseChecker } from './response-check.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** The body as received (files are not text). */
  bytes?: Buffer;
}

export interface Client {
  /** The client package's `PaymentsClient` with the same credentials, its answers checked the same way. */
  readonly payments: PaymentsClient;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  delete<T = any>(path: string, headers?: Record<string, string>): Promise<Reply<T>>;
}

/**
 * The HTTP platform of the services tests and benchmarks start: `HTTP_ADAPTER` of the test run, if set (CI runs the
 * e2e tier on both).
 */
export const adapterEnv = (): Record<string, string> =>
  process.env.HTTP_ADAPTER ? { HTTP_ADAPTER: process.env.HTTP_ADAPTER } : {};

/** Loopback hosts of the tests' local webhook receivers (`WEBHOOK_ALLOWED_HOSTS`). */
export const TEST_ALLOWED_HOSTS = '127.0.0.1,localhost';

export const basicAuth = (tokenId: string, secret: string) =>
  `Basic ${Buffer.from(`${tokenId}:${secret}`).toString('base64')}`;

/** A streamed request body (sent chunked, without Content-Length). */
const isStream = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && Symbol.asyncIterator in body && !(body instanceof FormData);

/**
 * Checks one answer against the service's OpenAPI document: a mismatch throws, or with `RESPONSE_CHECK=report` is
 * appended to `RESPONSE_CHECK_FILE`.
 */
async function checkAnswer(baseUrl: string, method: string, path: string, res: Response, body: unknown): Promise<void> {
  const finding = (await responseChecker(baseUrl)).check(
    method,
    path,
    res.status,
    body,
    res.headers.get('content-type'),
  );
  if (!finding) return;
  if (process.env.RESPONSE_CHECK === 'report') appendFileSync(process.env.RESPONSE_CHECK_FILE!, finding + '\n');
  else throw new Error(`the answer does not match the OpenAPI document: ${finding}`);
}

const parseBody = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text; // not JSON: keep the text
  }
};

/** A `fetch` for the client package whose every answer is checked against the served OpenAPI document. */
export function checkedFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : new URL(url).pathname;
    await checkAnswer(baseUrl, init?.method ?? 'GET', path, res, parseBody(await res.clone().text()));
    return res;
  };
}

/** The credentials an Authorization header carries (Basic token id and secret, or a Bearer access token). */
function credentialsOf(auth: string | undefined): ClientCredentials {
  if (auth?.startsWith('Bearer ')) return { accessToken: auth.slice('Bearer '.length) };
  const pair = auth?.startsWith('Basic ') ? Buffer.from(auth.slice('Basic '.length), 'base64').toString('utf8') : ':';
  const colon = pair.indexOf(':');
  return { tokenId: pair.slice(0, colon), clientSecret: pair.slice(colon + 1) };
}

/**
 * An HTTP client for the versioned base URL; `auth` is the Authorization header, if any. Every answer is checked
 * against the service's OpenAPI document unless `check` is false (benchmarks: raw references are not the service,
 * and the check's work would run in the measured process).
 */
export function client(baseUrl: string, auth?: string, options: { check?: boolean } = {}): Client {
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> => {
    const init: RequestInit & { duplex?: 'half' } = {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...headers },
    };
    if (body instanceof FormData || body instanceof Uint8Array) {
      // multipart forms (fetch sets their content type) and raw bytes go as they are
      init.body = body as BodyInit;
    } else if (isStream(body)) {
      init.body = body as AsyncIterable<Uint8Array> as BodyInit;
      init.duplex = 'half';
    } else if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(baseUrl + path, init);
    const bytes = Buffer.from(await res.arrayBuffer());
    const parsed = parseBody(bytes.toString('utf8'));
    if (options.check !== false) await checkAnswer(baseUrl, method, path, res, parsed);
    return { status: res.status, body: parsed, headers: res.headers, bytes };
  };
  const payments = new PaymentsClient({
    baseUrl,
    ...credentialsOf(auth),
    ...(options.check !== false ? { fetch: checkedFetch(baseUrl) } : {}),
  });
  return {
    payments,
    request,
    get: (p, h) => request('GET', p, undefined, h),
    post: (p, b, h) => request('POST', p, b, h),
    patch: (p, b, h) => request('PATCH', p, b, h),
    delete: (p, h) => request('DELETE', p, undefined, h),
  };
}

export interface TestService {
  service: RunningService;
  url: string;
  dataDir: string;
  /** Client authenticated as the sandbox platform. */
  api: Client;
  /** Client without credentials. */
  anonymous: Client;
  /** Creates another platform and returns a client authenticated as it. */
  otherPlatform(options?: { sandbox?: boolean }): Promise<{ platformId: string; api: Client }>;
  close(): Promise<void>;
}

/** Starts the whole service in-process on a fresh embedded data directory and a loopback port. */
export async function startTestService(
  options: { clock?: Clock; ids?: IdGenerator; env?: Record<string, string>; dataDir?: string } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'payments-test-'));
  // Test webhook receivers listen on loopback, which the address policy refuses unless allow-listed.
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOWED_HOSTS: TEST_ALLOWED_HOSTS,
    // The test client (fetch) reuses a kept-alive connection until a second before the server's keep-alive timeout;
    // on a loaded machine the server could close it (5 s by default) as a request arrived on it (ECONNRESET). Tests
    // keep idle connections for a minute instead; the HTTP limits' own tests set theirs.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
    // Every test's agents redeem their device codes from 127.0.0.1: the per-address limit is tested on its own
    // (http-limits.e2e.spec.ts sets it), not met by suites that connect many agents within a minute.
    RATE_LIMIT_DEVICE_CODES: '100000',
    ...adapterEnv(),
    ...options.env,
  });
  const service = await startService(config, { clock: options.clock, ids: options.ids });
  const credentials = service.sandbox!;
  const api = client(service.url, basicAuth(credentials.tokenId, credentials.clientSecret));
  return {
    service,
    url: service.url,
    dataDir,
    api,
    anonymous: client(service.url),
    async otherPlatform({ sandbox = true } = {}) {
      const created: { platformId: string; token: IssuedToken } = await service.app
        .get(CommandBus)
        .execute(new CreatePlatformCommand({ name: 'Other', sandbox, umaDomain: 'other.example.com' }, 'test'));
      await service.infra.projections.waitForPosition(await service.infra.eventStore.headPosition(), 5000);
      return {
        platformId: created.platformId,
        api: client(service.url, basicAuth(created.token.id, created.token.clientSecret)),
      };
    },
    async close() {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
