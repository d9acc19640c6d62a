import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { basicAuth, client, type Client } from '../../support/service.js';
import { round, type Scenario } from '../scenario.js';

/** Time budget per measurement; the whole scenario stays well under 30 s. */
const RUN_MS = 4_000;
const CONCURRENCY = 64;

interface Pair {
  from: string;
  to: string;
}

interface Measured {
  ops: number;
  seconds: number;
  latencies: number[];
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function expectOk(res: Promise<{ status: number; body: any }>, status: number, what: string) {
  const reply = await res;
  if (reply.status !== status) throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** A payer and a payee per client, funded so no payment runs short. */
async function preparePairs(api: Client, count: number): Promise<Pair[]> {
  const customer = async (name: string) => {
    const c = await expectOk(
      api.post('/customers', {
        customerType: 'INDIVIDUAL',
        platformCustomerId: `${name}-${randomUUID()}`,
        currencies: ['USD'],
      }),
      201,
      'create customer',
    );
    const accounts = await expectOk(
      api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`),
      200,
      'list accounts',
    );
    return accounts.data[0].id as string;
  };
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const from = await customer('payer');
    await expectOk(api.post(`/sandbox/internal-accounts/${from}/fund`, { amount: 1_000_000_000 }), 200, 'fund');
    pairs.push({ from, to: await customer('payee') });
  }
  return pairs;
}

/** One operation: create a quote and execute it, each with its own Idempotency-Key, as a client would. */
async function payOnce(api: Client, pair: Pair): Promise<number> {
  const started = performance.now();
  const quote = await expectOk(
    api.post(
      '/quotes',
      {
        source: { sourceType: 'ACCOUNT', accountId: pair.from },
        destination: { destinationType: 'ACCOUNT', accountId: pair.to },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      },
      { 'Idempotency-Key': randomUUID() },
    ),
    201,
    'create quote',
  );
  const executed = await expectOk(
    api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': randomUUID() }),
    200,
    'execute quote',
  );
  if (executed.status !== 'COMPLETED') throw new Error(`quote ended ${executed.status}`);
  return performance.now() - started;
}

async function measure(api: Client, pairs: Pair[], clients: number): Promise<Measured> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      while (performance.now() - started < RUN_MS) latencies.push(await payOnce(api, pairs[i % pairs.length]));
    }),
  );
  return {
    ops: latencies.length,
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
  };
}

export const quotes: Scenario = {
  name: 'quotes',
  description:
    'quote create + execute over HTTP with Idempotency-Keys, in-process service on embedded stores: ' +
    '1 vs 64 concurrent clients',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-quotes-'));
    const service = await startService(loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error' }));
    try {
      const api = client(service.url, basicAuth(service.sandbox!.tokenId, service.sandbox!.clientSecret));
      const pairs = await preparePairs(api, CONCURRENCY);
      // Warm up code paths and caches before timing.
      for (let i = 0; i < 20; i++) await payOnce(api, pairs[i % pairs.length]);
      const one = await measure(api, pairs, 1);
      const many = await measure(api, pairs, CONCURRENCY);
      const line = (label: string, m: Measured) =>
        `${label.padEnd(34)} ${fmt(m.ops / m.seconds).padStart(6)} payments/s  p50 ` +
        `${percentile(m.latencies, 0.5).toFixed(1)} ms  p99 ` +
        `${percentile(m.latencies, 0.99).toFixed(1)} ms  (${m.ops} in ${m.seconds.toFixed(1)} s)`;
      const lines = [
        line('1 client (create + execute)', one),
        line(`${CONCURRENCY} concurrent clients`, many),
        'each payment: POST /quotes + POST /quotes/{id}/execute, both with an Idempotency-Key; ' +
          'execute holds, posts and credits in the platform ledger',
      ];
      const figures = {
        oneClientPerSecond: round(one.ops / one.seconds),
        oneClientP99Ms: round(percentile(one.latencies, 0.99)),
        concurrentPerSecond: round(many.ops / many.seconds),
        concurrentP99Ms: round(percentile(many.latencies, 0.99)),
      };
      return { lines, ratio: null, figures };
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
