import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startChildService, startChildWorker, type ChildWorker } from '../../support/child-service.js';
import { client, type Client } from '../../support/service.js';
import { fmt, NO_CHECK, percentile, round, type Scenario } from '../scenario.js';

/**
 * Writes through an API process whose read models another process projects (the production topology: `RUN_WORKER=false`
 * and a worker on the same data directory), against the same writes to a single process that projects its own. A
 * write answers once the read models hold it (read-your-writes), so what this measures is how soon the worker learns
 * of the API's append and the API of the worker's commit. Embedded stores; the jobs are SQLite's too.
 */
const SEQUENTIAL = 200;
const CONCURRENCY = 16;
const CONCURRENT_MS = 3_000;

interface Measured {
  sequential: number[];
  concurrent: { ops: number; seconds: number; latencies: number[] };
}

let created = 0;
const createCustomer = async (api: Client) => {
  const n = created++;
  const started = performance.now();
  const res = await api.post('/customers', {
    platformCustomerId: `topology-${n}`,
    customerType: 'INDIVIDUAL',
    fullName: 'Bench Holder',
    currencies: ['USD'],
  });
  if (res.status !== 201) throw new Error(`POST /customers answered ${res.status}: ${JSON.stringify(res.body)}`);
  return performance.now() - started;
};

async function measure(api: Client): Promise<Measured> {
  for (let i = 0; i < 20; i++) await createCustomer(api); // warm-up
  const sequential: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await createCustomer(api));
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + CONCURRENT_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) latencies.push(await createCustomer(api));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { sequential: sequential.sort((a, b) => a - b), concurrent: { ops: latencies.length, seconds, latencies } };
}

/** Starts the processes on a fresh data directory, measures, and stops them. */
async function run(topology: boolean): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-topology-'));
  const children: ChildWorker[] = [];
  try {
    // The default log level, as deployed (each request's line included): the children say when they are ready there.
    if (topology) children.push(await startChildWorker(dir));
    const service = await startChildService(dir, topology ? { RUN_WORKER: 'false' } : {});
    children.push(service);
    return await measure(client(service.url, service.auth, NO_CHECK));
  } finally {
    await Promise.all(children.map((child) => child.kill()));
    rmSync(dir, { recursive: true, force: true });
  }
}

export const topology: Scenario = {
  name: 'topology',
  description:
    'POST /customers through an API process while a worker process projects (production topology), against one ' +
    'process that projects its own, embedded stores',
  async run() {
    const single = await run(false);
    const split = await run(true);
    const figures: Record<string, number> = {};
    const lines: string[] = [];
    for (const [label, key, m] of [
      ['one process (API and worker)', 'single', single],
      ['API process + worker process', 'topology', split],
    ] as const) {
      const seq = m.sequential;
      const conc = [...m.concurrent.latencies].sort((a, b) => a - b);
      const rate = m.concurrent.ops / m.concurrent.seconds;
      Object.assign(figures, {
        [`${key}SequentialP50Ms`]: round(percentile(seq, 0.5)),
        [`${key}SequentialP99Ms`]: round(percentile(seq, 0.99)),
        [`${key}ConcurrentPerS`]: round(rate),
        [`${key}ConcurrentP99Ms`]: round(percentile(conc, 0.99)),
      });
      const [p50, p99] = [percentile(seq, 0.5), percentile(seq, 0.99)].map((v) => round(v));
      lines.push(
        `${label.padEnd(32)} sequential p50 ${p50} ms, p99 ${p99} ms;` +
          ` ${CONCURRENCY} clients ${fmt(rate)} writes/s, p99 ${round(percentile(conc, 0.99))} ms`,
      );
    }
    lines.push('each write answers once the read models hold it; the processes are children of the benchmark');
    return { lines, ratio: null, figures };
  },
};
