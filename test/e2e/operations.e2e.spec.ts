import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startService } from '../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { responseChecker } from '../support/response-check.js';
import { adapterEnv, basicAuth, client } from '../support/service.js';
import { useTestService } from '../support/fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP defaults', () => {
  let root: string;
  const t = useTestService();
  beforeAll(async () => {
    root = t.url.replace(/\/2025-10-13$/, '');
  });

  it('answers unknown paths inside and outside the base path with a JSON 404 in the error shape', async () => {
    for (const url of [`${t.url}/no-such-thing`, `${root}/no-such-thing`, `${root}/`, `${t.url}/customers/x/y/z`]) {
      const res = await fetch(url, {
        headers: { authorization: basicAuth(t.service.sandbox!.tokenId, t.service.sandbox!.clientSecret) },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ status: 404, code: 'NOT_FOUND', message: expect.any(String) });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('sends no X-Powered-By header', async () => {
    expect((await t.api.get('/customers')).headers.get('x-powered-by')).toBeNull();
    expect((await t.anonymous.get('/nowhere')).headers.get('x-powered-by')).toBeNull();
  });

  it('refuses a body that is not JSON with 415 and accepts JSON with parameters', async () => {
    const before = (await t.api.get('/customers')).body.totalCount;
    const body = JSON.stringify({ platformCustomerId: 'ct-1', customerType: 'INDIVIDUAL', fullName: 'Content Type' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.api.post('/customers', body, { 'content-type': type });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: expect.stringContaining('application/json'),
      });
    }
    const untyped = await fetch(`${t.url}/customers`, {
      method: 'POST',
      body: new Blob([body]),
      headers: { authorization: basicAuth(t.service.sandbox!.tokenId, t.service.sandbox!.clientSecret) },
    });
    expect(untyped.status).toBe(415);
    expect((await t.api.get('/customers')).body.totalCount).toBe(before);
    expect((await t.api.post('/customers', body, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(
      201,
    );
    // Requests without a body need no content type.
    expect((await t.api.request('POST', '/sandbox/webhooks/test')).status).toBe(400);
  });

  it('puts X-Request-Id on every response, keeping a sane one the caller sent', async () => {
    expect((await t.api.get('/customers')).headers.get('x-request-id')).toMatch(UUID);
    expect((await t.anonymous.get('/customers')).headers.get('x-request-id')).toMatch(UUID);
    expect((await t.api.post('/customers', { customerType: 'NOPE' })).headers.get('x-request-id')).toMatch(UUID);
    expect((await t.api.get('/customers', { 'x-request-id': 'trace-42.abc' })).headers.get('x-request-id')).toBe(
      'trace-42.abc',
    );
    for (const bad of ['has space', 'x'.repeat(200), '<script>']) {
      expect((await t.api.get('/customers', { 'x-request-id': bad })).headers.get('x-request-id')).toMatch(UUID);
    }
  });
});

describe('request log', () => {
  const lines: Record<string, any>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  let dataDir: string;
  let service: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'payments-log-'));
    service = await startService(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'log', ...adapterEnv() }),
      {
        logDestination: destination,
      },
    );
    // The test client checks answers against the served document: fetch it now, not inside a test's log lines.
    await responseChecker(service.url);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'writes one line per request with method, route, status, duration, platform and request id, ' + 'and no secret',
    async () => {
      const { tokenId, clientSecret, platformId } = service.sandbox!;
      const api = client(service.url, basicAuth(tokenId, clientSecret));
      const stampValue = 'eyJzdGFtcCI6InNlY3JldC1zdGFtcC12YWx1ZSJ9';
      lines.length = 0;
      const created = await api.post(
        '/customers',
        { platformCustomerId: 'log-1', customerType: 'INDIVIDUAL', email: 'log@example.com' },
        { cookie: 'session=cookie-secret-value', 'service-wallet-signature': stampValue, 'x-request-id': 'log-test-1' },
      );
      expect(created.status).toBe(201);
      const otp = await api.post('/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000001/verify', {
        type: 'EMAIL_OTP',
        otp: '987654',
        clientPublicKey: '04ab',
      });
      expect(otp.status).toBe(400);
      expect((await client(service.url).get('/nope?secret=query-secret')).status).toBe(404);
      await new Promise<void>((resolve) => setImmediate(resolve));

      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatchObject({
        method: 'POST',
        route: '/2025-10-13/customers',
        status: 201,
        duration: expect.any(Number),
        platform: platformId,
        requestId: 'log-test-1',
      });
      expect(lines[1]).toMatchObject({
        method: 'POST',
        route: '/2025-10-13/auth/credentials/:id/verify',
        status: 400,
        platform: platformId,
        requestId: otp.headers.get('x-request-id'),
      });
      expect(lines[2]).toMatchObject({
        method: 'GET',
        route: null,
        status: 404,
        platform: null,
        requestId: expect.stringMatching(UUID),
      });
      const text = JSON.stringify(lines);
      for (const secret of [
        clientSecret,
        basicAuth(tokenId, clientSecret).slice(6),
        stampValue,
        'cookie-secret-value',
        '987654',
        'log@example.com',
        'query-secret',
      ]) {
        expect(text).not.toContain(secret);
      }
    },
  );
});

describe('start-up output', () => {
  it('prints the sandbox secret once, the bound address, and where the API, docs and console are', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payments-start-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '0.0.0.0', LOG_LEVEL: 'log', ...adapterEnv() });
    const quiet = new Writable({ write: (_c, _e, done) => done() });
    const captureStart = async () => {
      let out = '';
      const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        out += String(chunk);
        return true;
      });
      try {
        const service = await startService(config, { logDestination: quiet });
        for (const page of ['/docs', '/dashboard']) expect((await fetch(service.url + page)).status).toBe(200);
        await service.close();
        return { out, secret: service.sandbox!.clientSecret, tokenId: service.sandbox!.tokenId };
      } finally {
        spy.mockRestore();
      }
    };
    try {
      const first = await captureStart();
      expect(first.out).toContain(first.secret);
      expect(first.out).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+\/2025-10-13/);
      const local = / {2}API: +(http:\/\/127\.0\.0\.1:\d+\/2025-10-13)\n/.exec(first.out)?.[1];
      expect(local).toBeDefined();
      expect(first.out).toContain(`  docs:     ${local}/docs`);
      expect(first.out).toContain(`  console:  ${local}/dashboard`);
      const second = await captureStart();
      expect(second.secret).toBe(first.secret);
      expect(second.out).not.toContain(first.secret);
      expect(second.out).toContain(join(dataDir, 'sandbox-credentials.json'));
      expect(second.out).toContain(first.tokenId);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
