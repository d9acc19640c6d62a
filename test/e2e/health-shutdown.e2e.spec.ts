import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChildService, type ChildService } from '../support/child-service.js';
import { useDataDir } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import { findRedisServer, startRedis, startRedisOn, type RedisHandle } from '../support/redis-server.js';

const redisMissing = !findRedisServer() && !process.env.CI;
if (redisMissing) console.warn('Skipping the readiness-under-BullMQ test: redis-server is not on PATH');

(redisMissing ? describe.skip : describe)('readiness under JOBS=bullmq when Redis goes away', () => {
  let redis: RedisHandle;
  let port: number;
  let service: ChildService | undefined;
  const dataDir = useDataDir('readiness-bullmq-', () => service?.kill());

  beforeAll(async () => {
    redis = (await startRedis())!;
    port = Number(new URL(redis.url).port);
    const env = { JOBS: 'bullmq', REDIS_URL: redis.url, READY_TIMEOUT_MS: '1000' };
    service = await startChildService(dataDir, env);
  }, 60_000);
  afterAll(() => redis.stop());

  it('fails within 5 s of Redis stopping, liveness staying up, and recovers once Redis is back', async () => {
    const probe = async (path: string) => {
      const res = await fetch(`${service!.url}${path}`);
      return { status: res.status, body: (await res.json()) as { details: Record<string, { status: string }> } };
    };
    const ready = () => probe('/health/ready');
    expect((await ready()).status).toBe(200);
    await redis.stop();
    const stoppedAt = Date.now();
    const down = await poll(ready, (r) => r.status === 503, { what: 'readiness to fail', timeoutMs: 5_000 });
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    expect(down.body.details.jobs.status).toBe('down');
    expect((await probe('/health/live')).status).toBe(200);
    redis = await startRedisOn(port);
    const up = await poll(ready, (r) => r.status === 200, { what: 'readiness to recover', timeoutMs: 20_000 });
    expect(up.body.details.jobs.status).toBe('up');
  }, 40_000);
});

/** A webhook receiver that holds every request until `release`, counting those it holds. */
async function holdingReceiver() {
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => held.push(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held,
    release() {
      for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SIGTERM under load', () => {
  let service: ChildService | undefined;
  const dataDir = useDataDir('shutdown-', () => service?.kill());

  it('finishes the requests in flight (none answered 5xx or cut) before the process exits', async () => {
    const receiver = await holdingReceiver();
    try {
      service = await startChildService(dataDir, { RATE_LIMIT_WEBHOOK_TESTS: '1000' });
      const configured = await service.api.patch('/config', { webhookEndpoint: receiver.url });
      expect(configured.status).toBe(200);
      // Each test send waits for the receiver's answer: eight requests in flight, held there.
      const inFlight = Array.from({ length: 8 }, () => service!.api.post('/sandbox/webhooks/test', {}));
      await poll(
        async () => receiver.held.length,
        (n) => n === 8,
        { what: 'eight requests in flight', timeoutMs: 10_000 },
      );
      const exited = new Promise<number | null>((resolve) => service!.process.once('exit', resolve));
      service.process.kill('SIGTERM');
      await poll(
        async () => service!.output(),
        (out) => out.includes('SIGTERM: shutting down'),
        { what: 'the shutdown to begin', timeoutMs: 10_000 },
      );
      receiver.release();
      const answers = await Promise.all(inFlight);
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(answers.map((a) => a.body.response_status)).toEqual(Array(8).fill(200));
      expect(await exited).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
