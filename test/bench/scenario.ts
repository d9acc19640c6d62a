import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a scenario measured: lines to print, and the figures `--json` writes. */
export interface ScenarioReport {
  lines: string[];
  /** The service's figure over the raw reference's in the same run (higher is better), or null without one. */
  ratio: number | null;
  /** Named measurements: rates per second, latencies in ms, sizes in MB. */
  figures: Record<string, number | string>;
}

/** One benchmark: `run` performs the measurement and returns its report (or, for older scenarios, only lines). */
export interface Scenario {
  name: string;
  description: string;
  run(): Promise<ScenarioReport | string[]>;
}

/**
 * A scenario's run against a load process (clients in a process of their own): `body` gets the load and a fresh
 * folder (`<tmp>/<prefix>…`) for the servers' files; both are cleaned up after it, however it ends.
 */
export async function withLoad<L extends { close(): Promise<void> }, T>(
  prefix: string,
  startLoad: () => Promise<L>,
  body: (load: L, dir: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const load = await startLoad();
  try {
    return await body(load, dir);
  } finally {
    await load.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A number rounded to `digits` decimals, for figures. */
/** Benchmarks measure speed: answers are checked by the tests, not here (a raw reference is not the service). */
export const NO_CHECK = { check: false };

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** A count for a table: rounded, with thousands separators. */
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The `p` quantile (0 to 1) of ascending `sorted` values. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** The body of an answer with the expected status; otherwise an error naming `what` and the answer. */
export async function expectStatus(reply: Promise<{ status: number; body: any }>, status: number, what: string) {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Runs `measure`; with BENCH_CPU_PROFILE=DIR it also writes a V8 CPU profile of exactly that window to
 * DIR/<label>.cpuprofile (summarise it with `node dist/test/bench/profile-summary.js FILE`, or open it in Chrome
 * DevTools or speedscope). Where the benchmark's clients run in the same process, the summary sets their share apart.
 * With BENCH_HEAP_PROFILE=DIR instead, it writes a sampling heap profile of the window's allocations (collected ones
 * included: what the garbage collector had to clear) to DIR/<label>.heapprofile, which DevTools opens.
 */
export async function profiled<T>(label: string, measure: () => Promise<T>): Promise<T> {
  const profile = await startProfile(label);
  try {
    return await measure();
  } finally {
    await profile?.stop();
  }
}

/**
 * Starts the profile `profiled` takes of a window (BENCH_CPU_PROFILE or BENCH_HEAP_PROFILE), or nothing without
 * either; `stop` writes it. The benchmark's processes (`bench-process.ts`) profile their own windows with it.
 */
export async function startProfile(label: string): Promise<{ stop(): Promise<void> } | undefined> {
  const cpu = process.env.BENCH_CPU_PROFILE;
  const heap = process.env.BENCH_HEAP_PROFILE;
  const dir = cpu ?? heap;
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  if (cpu) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
  } else {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  return {
    async stop() {
      const { profile } = cpu ? await session.post('Profiler.stop') : await session.post('HeapProfiler.stopSampling');
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${label}.${cpu ? 'cpuprofile' : 'heapprofile'}`), JSON.stringify(profile));
    },
  };
}

/** A customer created through the API with `body`, and the id of its first internal account. */
export async function customerAccount(
  api: {
    post(path: string, body: unknown): Promise<{ status: number; body: any }>;
    get(path: string): Promise<{ status: number; body: any }>;
  },
  body: Record<string, unknown>,
): Promise<{ id: string; accountId: string }> {
  const c = await expectStatus(api.post('/customers', body), 201, 'create customer');
  const accounts = await expectStatus(
    api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`),
    200,
    'list accounts',
  );
  return { id: c.id as string, accountId: accounts.data[0].id as string };
}

/** The body of a quote from one account to another, locked on the sending side. */
export const accountQuote = (from: string, to: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: from },
  destination: { destinationType: 'ACCOUNT', accountId: to },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});
