import { randomUUID } from 'node:crypto';
import { client, type Client } from '../../support/service.js';
import {
  cpuText,
  warmUntilSteady,
  warmupReport,
  withServerCpu,
  type BenchProcess,
  type Measured,
  type ServerMeasured,
} from '../bench-process.js';
import { startQuotesLoad, type Pair } from '../quotes-load.js';
import { startRawPaymentsProcess, type RawPaymentsOptions } from '../raw-payments.js';
import { startServiceProcess } from '../service-process.js';
import {
  customerAccount,
  expectStatus,
  fmt,
  NO_CHECK,
  percentile,
  round,
  withLoad,
  type Scenario,
} from '../scenario.js';

/** Time budget per measurement; the whole scenario stays well under 30 s. */
const RUN_MS = 4_000;
/** A warm-up window (see warmUntilSteady). */
const WARMUP_WINDOW_MS = 2_000;
const CONCURRENCY = 64;

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

/**
 * One server's figures: CONCURRENCY clients until the server's CPU per payment is steady, then 1 client and
 * CONCURRENCY clients measured, each window with the server's CPU time.
 */
async function measureSide(load: BenchProcess<unknown>, server: BenchProcess<unknown>, name: string) {
  const window =
    (clients: number, ms = RUN_MS) =>
    () =>
      load.call<Measured>('measure', { name, clients, ms });
  const warmup = await warmUntilSteady(server, window(CONCURRENCY, WARMUP_WINDOW_MS));
  const one = await withServerCpu(server, `quotes-${name}-one`, window(1));
  const many = await withServerCpu(server, `quotes-${name}-concurrent`, window(CONCURRENCY));
  return { warmup, one, many };
}

const pct = (m: Measured, p: number) =>
  percentile(
    [...m.latencies].sort((a, b) => a - b),
    p,
  );

function line(label: string, m: ServerMeasured): string {
  return (
    `${label.padEnd(40)} ${fmt(m.ops / m.seconds).padStart(6)} payments/s  p50 ${pct(m, 0.5).toFixed(1)} ms  p99 ` +
    `${pct(m, 0.99).toFixed(1)} ms  ${cpuText(m, 'payment')}  (${m.ops} in ` +
    `${m.seconds.toFixed(1)} s)`
  );
}

/**
 * A raw reference in its own process (`name`: `raw`, or `guarded` with the service's guarantees), on `dir`, with
 * CONCURRENCY funded payers and as many payees.
 */
async function rawSide(
  load: BenchProcess<unknown>,
  dir: string,
  auth: string,
  name: string,
  options: RawPaymentsOptions,
) {
  const raw = await startRawPaymentsProcess(dir, auth, options);
  try {
    const froms = await raw.call<string[]>('openAccounts', Array(CONCURRENCY).fill(1_000_000_000));
    const tos = await raw.call<string[]>('openAccounts', Array(CONCURRENCY).fill(0));
    const pairs = froms.map((from, i) => ({ from, to: tos[i] }));
    await load.call('targets', { name, baseUrl: raw.ready.origin, auth, pairs });
    const measured = await measureSide(load, raw, name);
    const totals = await raw.call<{ balances: number; entries: number }>('totals');
    if (totals.balances !== CONCURRENCY * 1_000_000_000 || totals.entries !== 0)
      throw new Error('the raw reference lost or created money');
    return measured;
  } finally {
    await raw.close();
  }
}

export const quotes: Scenario = {
  name: 'quotes',
  description:
    'quote create + execute over HTTP with Idempotency-Keys, clients in a process of their own, the service in its ' +
    `own on embedded stores: 1 vs ${CONCURRENCY} concurrent clients across ${CONCURRENCY} payers, against a raw ` +
    'node:http + better-sqlite3 payments server (its own process) in the same run',
  run: () =>
    withLoad('bench-quotes-', startQuotesLoad, async (load, dir) => {
      const service = await startServiceProcess(dir);
      const { url, auth } = service.ready;
      let ours: { warmup: number[]; one: ServerMeasured; many: ServerMeasured };
      try {
        const pairs = await preparePairs(client(url, auth, NO_CHECK), CONCURRENCY);
        await load.call('targets', { name: 'service', baseUrl: url, auth, pairs });
        ours = await measureSide(load, service, 'service');
      } finally {
        await service.close();
      }
      const raw = await rawSide(load, dir, auth, 'raw', {});
      const guarded = await rawSide(load, dir, auth, 'guarded', { guarded: true });
      const rate = (m: Measured) => m.ops / m.seconds;
      const cpuRatio = raw.many.cpuPerOpMicros / ours.many.cpuPerOpMicros;
      const guardedRatio = guarded.many.cpuPerOpMicros / ours.many.cpuPerOpMicros;
      const warmups = warmupReport(
        `warm-up at ${CONCURRENCY} clients until steady, server CPU per payment by ${WARMUP_WINDOW_MS / 1000} s window`,
        ours.warmup,
        raw.warmup,
      );
      const lines = [
        line('service, 1 client (create + execute)', ours.one),
        line(`service, ${CONCURRENCY} concurrent clients`, ours.many),
        line('raw, 1 client', raw.one),
        line(`raw, ${CONCURRENCY} concurrent clients`, raw.many),
        line(`raw with the guarantees, ${CONCURRENCY} clients`, guarded.many),
        `at ${CONCURRENCY} clients: throughput service/raw ${(rate(ours.many) / rate(raw.many)).toFixed(2)}x, CPU ` +
          `per payment raw/service ${cpuRatio.toFixed(3)}; at 1 client: throughput ` +
          `${(rate(ours.one) / rate(raw.one)).toFixed(2)}x`,
        `raw with the service's guarantees: CPU per payment ${fmt(guarded.many.cpuPerOpMicros)} µs, ` +
          `${(guarded.many.cpuPerOpMicros / raw.many.cpuPerOpMicros).toFixed(2)}x the raw's; guarded/service ` +
          `${guardedRatio.toFixed(3)}`,
        warmups.line,
        'each payment: POST /quotes + POST /quotes/{id}/execute, both with an Idempotency-Key; the service holds, ' +
          'posts and credits in the platform ledger; the raw server checks, writes two ledger entries and moves two ' +
          'balances in one SQLite transaction (synchronous=FULL, requests of one event-loop turn committed ' +
          'together); the guarded raw server also appends the quote, transaction and ledger events chained by hash, ' +
          "writes the transaction's document, keeps the quote's deadline as a timer and each key's request hash, in " +
          'the same transaction',
      ];
      const figures = {
        oneClientPerSecond: round(rate(ours.one)),
        oneClientP99Ms: round(pct(ours.one, 0.99)),
        concurrentPerSecond: round(rate(ours.many)),
        concurrentP50Ms: round(pct(ours.many, 0.5)),
        concurrentP99Ms: round(pct(ours.many, 0.99)),
        serviceCpuPerOpMicros: round(ours.many.cpuPerOpMicros),
        serviceKernelCpuPerOpMicros: round(ours.many.kernelCpuPerOpMicros),
        rawOneClientPerSecond: round(rate(raw.one)),
        rawConcurrentPerSecond: round(rate(raw.many)),
        rawConcurrentP50Ms: round(pct(raw.many, 0.5)),
        rawConcurrentP99Ms: round(pct(raw.many, 0.99)),
        rawCpuPerOpMicros: round(raw.many.cpuPerOpMicros),
        rawKernelCpuPerOpMicros: round(raw.many.kernelCpuPerOpMicros),
        guardedConcurrentPerSecond: round(rate(guarded.many)),
        guardedCpuPerOpMicros: round(guarded.many.cpuPerOpMicros),
        guardedKernelCpuPerOpMicros: round(guarded.many.kernelCpuPerOpMicros),
        guardedCpuRatio: round(guardedRatio, 3),
        throughputRatio: round(rate(ours.many) / rate(raw.many), 3),
        ...warmups.figures,
      };
      return { lines, ratio: round(cpuRatio, 3), figures };
    }),
};
