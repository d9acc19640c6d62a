import { describe, expect, it } from '@jest/globals';
import { generateP256KeyPair } from '@turnkey/crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { ManualClock } from '#domain/clock.js';
import { OTP_VERIFY_LIMIT } from '#domain/wallet/wallet-auth-state.js';
import { basicAuth, client } from '../support/service.js';
import { createWallet } from '../support/wallet-session.js';
import { useTestService } from '../support/fixture.js';

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request from a chosen local address (the whole 127/8 is loopback), so limits per address can be told apart. */
function requestFrom(
  url: string,
  options: { localAddress?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const wrongSecret = (tokenId: string) => basicAuth(tokenId, 'not-the-secret');
const unknownToken = (n: number) =>
  basicAuth(`ApiToken:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, 'guess');

function expectRateLimited(
  reply: { status: number; body: any },
  retryAfter: string | string[] | null | undefined,
): void {
  expect(reply.status).toBe(429);
  expect(reply.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: expect.any(String) });
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
}

describe('request and header timeouts', () => {
  const t = useTestService({ env: { HTTP_REQUEST_TIMEOUT_MS: '600', HTTP_HEADERS_TIMEOUT_MS: '400' } });

  it('cuts off a request whose body never completes with 408 in the error shape', async () => {
    const { hostname, port } = new URL(t.url);
    const started = Date.now();
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /2025-10-13/customers HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ` +
            `application/json\r\nContent-Length: 1000\r\n\r\n{"platformCustomerId":`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    // Cut off after the configured 600 ms (checked every 100 ms), not after Node's default of 5 minutes.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
      status: 408,
      code: 'REQUEST_TIMEOUT',
      message: expect.any(String),
    });
  });
});

// On the default request timeout: on a busy machine the 600 ms above can cut a 2 MB request off with 408 before its
// size is judged.
describe('size limits', () => {
  const t = useTestService();

  it('answers headers too large with 431 and a body too large with 413, both in the error shape', async () => {
    const big = await requestFrom(`${t.url}/customers`, { headers: { 'x-filler': 'a'.repeat(20_000) } });
    expect(big.status).toBe(431);
    expect(big.body).toEqual({ status: 431, code: 'REQUEST_HEADERS_TOO_LARGE', message: expect.any(String) });
    expect(big.headers['x-request-id']).toEqual(expect.any(String));
    const huge = await t.api.post('/customers', {
      platformCustomerId: 'big',
      customerType: 'INDIVIDUAL',
      fullName: 'x'.repeat(2_000_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });
});

describe('failed authentication limit per token id', () => {
  const t = useTestService();

  it('answers 25 wrong secrets for a token id 401 then 429; the right secret still gets 200', async () => {
    const other = await t.otherPlatform();
    const tokenId = t.service.sandbox!.tokenId;
    const guesser = client(t.url, wrongSecret(tokenId));
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await guesser.get('/customers')).status);
    // The default limit is 20 failures per token id in the window.
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(5).fill(429)]);
    const blocked = await guesser.get('/customers');
    expectRateLimited(blocked, blocked.headers.get('retry-after'));
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    expect((await t.api.get('/customers')).status).toBe(200);
    expect((await other.api.get('/customers')).status).toBe(200);
    // The owner's success does not lift the block on guesses.
    expect((await guesser.get('/customers')).status).toBe(429);
  });
});

describe('failed authentication limit per address', () => {
  const t = useTestService({
    env: { RATE_LIMIT_AUTH_FAILURES_PER_ADDRESS: '3', RATE_LIMIT_AUTH_WINDOW_SECONDS: '120' },
  });

  it('refuses wrong credentials from an address after its failures, right ones still pass', async () => {
    const url = `${t.url}/customers`;
    for (let i = 1; i <= 3; i++)
      expect(
        (await requestFrom(url, { headers: { authorization: unknownToken(i) }, localAddress: '127.0.0.1' })).status,
      ).toBe(401);
    const blocked = await requestFrom(url, { headers: { authorization: unknownToken(4) }, localAddress: '127.0.0.1' });
    expectRateLimited(blocked, blocked.headers['retry-after']);
    const other = await t.otherPlatform();
    expect((await other.api.get('/customers')).status).toBe(200);
    const elsewhere = await requestFrom(url, {
      headers: { authorization: unknownToken(5) },
      localAddress: '127.0.0.2',
    });
    expect(elsewhere.status).toBe(401);
  });
});

describe('failed authentication limit behind a trusted proxy', () => {
  const t = useTestService({
    env: {
      TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8',
      RATE_LIMIT_AUTH_FAILURES_PER_ADDRESS: '3',
      RATE_LIMIT_AUTH_WINDOW_SECONDS: '120',
    },
  });
  const attempt = (n: number, localAddress: string, headers: Record<string, string>) =>
    requestFrom(`${t.url}/customers`, { headers: { authorization: unknownToken(n), ...headers }, localAddress });

  it('counts failures per forwarded client address, and ignores forwarding headers from other peers', async () => {
    const viaProxy = (n: number, client: string) => attempt(n, '127.0.0.1', { 'x-forwarded-for': client });
    for (let i = 1; i <= 3; i++) expect((await viaProxy(i, '203.0.113.1')).status).toBe(401);
    expect((await viaProxy(4, '203.0.113.1')).status).toBe(429);
    // Another client through the same proxy has its own count, whichever header the proxy writes.
    expect((await viaProxy(5, '203.0.113.2')).status).toBe(401);
    expect((await attempt(6, '127.0.0.1', { forwarded: 'for=203.0.113.3;proto=https' })).status).toBe(401);
    expect((await attempt(7, '127.0.0.1', { forwarded: 'for="[2001:db8::1]:4711"' })).status).toBe(401);
    // The right-most address that is not a trusted proxy counts: what a client writes to the left is not believed.
    expect((await viaProxy(8, '198.51.100.7, 203.0.113.1, 10.1.2.3')).status).toBe(429);
    expect((await attempt(9, '127.0.0.1', { forwarded: 'for=198.51.100.7, for=203.0.113.1' })).status).toBe(429);

    // From a peer that is not a trusted proxy the headers are ignored: it is counted under its own address.
    for (let i = 10; i <= 12; i++)
      expect((await attempt(i, '127.0.0.2', { 'x-forwarded-for': `198.51.100.${i}` })).status).toBe(401);
    const spoofed = await attempt(13, '127.0.0.2', { 'x-forwarded-for': '198.51.100.99' });
    expectRateLimited(spoofed, spoofed.headers['retry-after']);
  });
});

describe('webhook test rate limit', () => {
  const t = useTestService({
    env: { RATE_LIMIT_WEBHOOK_TESTS: '2', RATE_LIMIT_WEBHOOK_TEST_WINDOW_SECONDS: '60' },
  });

  it('limits POST /sandbox/webhooks/test per platform', async () => {
    for (let i = 0; i < 2; i++) expect((await t.api.post('/sandbox/webhooks/test', {})).status).toBe(400);
    const limited = await t.api.post('/sandbox/webhooks/test', {});
    expectRateLimited(limited, limited.headers.get('retry-after'));
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const other = await t.otherPlatform();
    expect((await other.api.post('/sandbox/webhooks/test', {})).body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
  });
});

describe('device-code rate limit', () => {
  const t = useTestService({ env: { RATE_LIMIT_DEVICE_CODES: '3', RATE_LIMIT_DEVICE_CODE_WINDOW_SECONDS: '60' } });
  const code = (n: number) => `PAY-AGENT-2345-${'ABCDEFGH'[n]}${'ABCDEFGH'[n]}${'ABCDEFGH'[n]}2`;

  it('limits redemptions and status reads per client address with 429 and Retry-After', async () => {
    const redeem = (n: number, localAddress: string) =>
      requestFrom(`${t.url}/agents/device-codes/${code(n)}/redeem`, { method: 'POST', localAddress });
    for (let i = 0; i < 3; i++) expect((await redeem(i, '127.0.0.1')).status).toBe(404);
    const limited = await redeem(3, '127.0.0.1');
    expectRateLimited(limited, limited.headers['retry-after']);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    const status = await requestFrom(`${t.url}/agents/device-codes/${code(4)}/status`, {
      localAddress: '127.0.0.1',
      headers: { authorization: basicAuth(t.service.sandbox!.tokenId, t.service.sandbox!.clientSecret) },
    });
    expectRateLimited(status, status.headers['retry-after']);
    // Another address has its own count.
    expect((await redeem(5, '127.0.0.2')).status).toBe(404);
  });
});

describe('EMAIL_OTP wrong-code lockout', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
  const t = useTestService({ clock });

  it(`refuses the right code after ${OTP_VERIFY_LIMIT.maxFailures} wrong ones until the window passes`, async () => {
    const w = await createWallet(t.api);
    const verify = (otp: string) =>
      t.api.post(`/auth/credentials/${w.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp,
        clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
      });
    for (let i = 0; i < OTP_VERIFY_LIMIT.maxFailures; i++) {
      clock.advance(1000);
      expect((await verify(String(100000 + i))).body).toMatchObject({ status: 401, reason: 'Invalid OTP code' });
    }
    const wrong = await verify('123123');
    expectRateLimited(wrong, wrong.headers.get('retry-after'));
    const right = await verify('000000');
    expectRateLimited(right, right.headers.get('retry-after'));
    // The first wrong code was 5 s before now; it leaves the window after windowSeconds.
    expect(Number(right.headers.get('retry-after'))).toBe(OTP_VERIFY_LIMIT.windowSeconds - 4);
    clock.advance((OTP_VERIFY_LIMIT.windowSeconds - 5) * 1000);
    expect((await verify('000000')).status).toBe(429);
    clock.advance(1000);
    expect((await verify('000000')).status).toBe(200);
  });
});
