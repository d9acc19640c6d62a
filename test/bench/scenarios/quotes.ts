import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { adapterEnv, basicAuth, client, type Client } from '../../support/service.js';
import { startRawPaymentsServer } from '../raw-payments.js';
import {
  accountQuote,
  customerAccount,
  expectStatus,
  fmt,
  NO_CHECK,
  percentile,
  profiled,
  round,
  type Scenario,
} from '../scenario.js';

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

/** A payer and a payee per client, funded so no payment runs short. */
async function preparePairs(api: Client, count: number): Promise<Pair[]> {
  const customer = async (name: string) =>
    (
      await customerAccount(api, {
        customerType: 'INDIVIDUAL',
        platformCustomerId: `${name}-${randomUUID()}`,
        currencies: ['USD'],
      })
    ).accountId;
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const from = await customer('payer');
    await expectStatus(api.post(`/sandbox/internal-accounts/${from}/fund`, { amount: 1_000_000_000 }), 200, 'fund');
    pairs.push({ from, to: await customer('payee') });
  }
  return pairs;
}

/** One operation: create a quote and execute it, each with its own Idempotency-Key, as a client would. */
async function payOnce(api: Client, pair: Pair): Promise<number> {
  const started = performance.now();
  const quote = await expectStatus(
    api.post('/quotes', accountQuote(pair.from, pair.to, 100), { 'Idempotency-Key': randomUUID() }),
    201,
    'create quote',
  );
  const executed = await expectStatus(
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

/** The same payments against the raw reference: `count` funded payers and as many payees. */
async function measureRaw(dir: string, auth: string): Promise<{ one: Measured; many: Measured; balanced: boolean }> {
  const raw = await startRawPaymentsServer(dir, auth);
  try {
    const api = client(raw.origin, auth, NO_CHECK);
    const pairs = Array.from({ length: CONCURRENCY }, () => ({
      from: raw.openAccount(1_000_000_000),
      to: raw.openAccount(0),
    }));
    for (let i = 0; i < 20; i++) await payOnce(api, pairs[i % pairs.length]);
    const one = await measure(api, pairs, 1);
    const many = await profiled('quotes-raw-concurrent', () => measure(api, pairs, CONCURRENCY));
    const totals = raw.totals();
    return { one, many, balanced: totals.balances === CONCURRENCY * 1_000_000_000 && totals.entries === 0 };
  } finally {
    await raw.close();
  }
}

export const quotes: Scenario = {
  name: 'quotes',
  description:
    'quote create + execute over HTTP with Idempotency-Keys, in-process service on embedded stores: ' +
    `1 vs ${CONCURRENCY} concurrent clients across ${CONCURRENCY} payers, against a raw node:http + better-sqlite3 ` +
    'payments server in the same run',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-quotes-'));
    const service = await startService(
      loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...adapterEnv() }),
    );
    let one: Measured;
    let many: Measured;
    const auth = basicAuth(service.sandbox!.tokenId, service.sandbox!.clientSecret);
    try {
      const api = client(service.url, auth, NO_CHECK);
      const pairs = await preparePairs(api, CONCURRENCY);
      // Warm up code paths and caches before timing.
      for (let i = 0; i < 20; i++) await payOnce(api, pairs[i % pairs.length]);
      one = await measure(api, pairs, 1);
      many = await profiled('quotes-concurrent', () => measure(api, pairs, CONCURRENCY));
    } finally {
      await service.close();
    }
    try {
      const raw = await measureRaw(dir, auth);
      if (!raw.balanced) throw new Error('the raw reference lost or created money');
      const rate = (m: Measured) => m.ops / m.seconds;
      const line = (label: string, m: Measured) =>
        `${label.padEnd(40)} ${fmt(rate(m)).padStart(6)} payments/s  p50 ` +
        `${percentile(m.latencies, 0.5).toFixed(1)} ms  p99 ` +
        `${percentile(m.latencies, 0.99).toFixed(1)} ms  (${m.ops} in ${m.seconds.toFixed(1)} s)`;
      const ratio = rate(many) / rate(raw.many);
      const lines = [
        line('service, 1 client (create + execute)', one),
        line(`service, ${CONCURRENCY} concurrent clients`, many),
        line('raw, 1 client', raw.one),
        line(`raw, ${CONCURRENCY} concurrent clients`, raw.many),
        `service/raw at ${CONCURRENCY} clients: ${ratio.toFixed(2)}x (target at least 0.5x: ` +
          `${ratio >= 0.5 ? 'met' : 'NOT met'}); at 1 client: ${(rate(one) / rate(raw.one)).toFixed(2)}x`,
        'each payment: POST /quotes + POST /quotes/{id}/execute, both with an Idempotency-Key; the service holds, ' +
          'posts and credits in the platform ledger; the raw server checks, writes two ledger entries and moves two ' +
          'balances in one SQLite transaction (synchronous=FULL, requests of one event-loop turn committed together)',
      ];
      const figures = {
        oneClientPerSecond: round(rate(one)),
        oneClientP99Ms: round(percentile(one.latencies, 0.99)),
        concurrentPerSecond: round(rate(many)),
        concurrentP99Ms: round(percentile(many.latencies, 0.99)),
        rawOneClientPerSecond: round(rate(raw.one)),
        rawConcurrentPerSecond: round(rate(raw.many)),
        rawConcurrentP99Ms: round(percentile(raw.many.latencies, 0.99)),
      };
      return { lines, ratio: round(ratio, 3), figures };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
