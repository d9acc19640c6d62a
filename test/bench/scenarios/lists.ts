import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startChildService } from '../../support/child-service.js';
import { client, type Client } from '../../support/service.js';
import { at, CUSTOMERS_WITH_PAYMENTS, grow, readTemplates, script, uuidOf } from '../lists-data.js';
import { expectStatus, fmt, NO_CHECK, percentile, round, type Scenario } from '../scenario.js';

/** Collection sizes (of each listed collection); `LISTS_SIZES=1000,10000` gives a quick run. */
const SIZES = (process.env.LISTS_SIZES ?? '10000,100000,1000000').split(',').map(Number);
/** Requests per case and size (sequential, one client). */
const REQUESTS = Number(process.env.LISTS_REQUESTS ?? 2000);
/** Requests per case in the warm-up round after each restart (not measured). */
const WARM_UP = 20;
interface Case {
  name: string;
  /** The path of one request (given the size), or a function that finds it (a cursor is fetched first). */
  path: (size: number, api: Client) => Promise<string>;
}

const mid = (size: number) => Math.floor(size / 2);
const ACCOUNTS = '/customers/internal-accounts';
/** A customer with payments (transactions, quotes) in the middle of the collection. */
const payer = (size: number) => `Customer:${uuidOf(mid(size) % CUSTOMERS_WITH_PAYMENTS)}`;
const direct = (f: (size: number) => string) => async (size: number) => f(size);
/** The second page of a list that starts halfway through the collection: a cursor deep in it. */
const deep = (list: string, before: string) => async (size: number, api: Client) => {
  const query = `${list}?limit=20&${before}=${at(mid(size))}`;
  const first = await expectStatus(api.get(query), 200, 'deep page');
  if (!first.nextCursor) throw new Error(`${list}: no cursor halfway through`);
  return `${query}&cursor=${first.nextCursor}`;
};

const CASES: Case[] = [
  { name: 'customers, first page', path: direct(() => '/customers?limit=20') },
  { name: 'customers, platformCustomerId', path: direct((n) => `/customers?platformCustomerId=bench-${mid(n)}`) },
  { name: 'customers, customerType=BUSINESS', path: direct(() => '/customers?customerType=BUSINESS&limit=20') },
  { name: 'customers, createdAfter', path: direct((n) => `/customers?createdAfter=${at(mid(n))}&limit=20`) },
  { name: 'customers, deep cursor', path: deep('/customers', 'createdBefore') },
  { name: 'transactions, first page', path: direct(() => '/transactions?limit=20') },
  {
    name: 'transactions, customerId',
    path: direct((n) => `/transactions?customerId=${payer(n)}&limit=20`),
  },
  { name: 'transactions, status=FAILED', path: direct(() => '/transactions?status=FAILED&limit=20') },
  { name: 'transactions, reference', path: direct((n) => `/transactions?reference=TX-BENCH-${mid(n) + 1}`) },
  { name: 'transactions, deep cursor', path: deep('/transactions', 'endDate') },
  { name: 'accounts, first page', path: direct(() => `${ACCOUNTS}?limit=20`) },
  { name: 'accounts, customerId', path: direct((n) => `${ACCOUNTS}?customerId=Customer:${uuidOf(mid(n))}`) },
  { name: 'accounts, type=EMBEDDED_WALLET', path: direct(() => `${ACCOUNTS}?type=EMBEDDED_WALLET&limit=20`) },
  { name: 'accounts, currency=EUR', path: direct(() => `${ACCOUNTS}?currency=EUR&limit=20`) },
  { name: 'quotes, first page', path: direct(() => '/quotes?limit=20') },
  { name: 'quotes, customerId', path: direct((n) => `/quotes?customerId=${payer(n)}&limit=20`) },
  { name: 'quotes, status=FAILED', path: direct(() => '/quotes?status=FAILED&limit=20') },
  { name: 'cards, first page', path: direct(() => '/cards?limit=20') },
  { name: 'cards, customerId', path: direct((n) => `/cards?customerId=Customer:${uuidOf(mid(n))}&limit=20`) },
  { name: 'cards, state=FROZEN', path: direct(() => '/cards?state=FROZEN&limit=20') },
  { name: 'cards, platformCardId', path: direct((n) => `/cards?platformCardId=bench-card-${mid(n)}`) },
];

async function measure(api: Client, size: number, c: Case): Promise<{ p50: number; p99: number; total: number }> {
  const path = await c.path(size, api);
  let total = 0;
  for (let i = 0; i < 10; i++) total = (await expectStatus(api.get(path), 200, c.name)).totalCount;
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    await expectStatus(api.get(path), 200, c.name);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), total };
}

/** The resident set of a process, in MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) / 1024;
}

/**
 * Seconds after its last request at which a process counts as idle: the service runs a full collection once its
 * event loop has been quiet for `IDLE_GC_AFTER_MS` (10 s by default). Left to V8's memory reducer (seen 10 to more
 * than 60 s into idleness on this benchmark), the old generation kept the pages its last collections emptied.
 */
const IDLE_AFTER_S = 20;

/** The resident set 2 s after the last request (timers settled) and once the process is idle, in MB. */
async function restingRssMb(pid: number): Promise<{ after2s: number; idle: number }> {
  const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await wait(2);
  const after2s = rssMb(pid);
  await wait(IDLE_AFTER_S - 2);
  return { after2s, idle: rssMb(pid) };
}

export const lists: Scenario = {
  name: 'lists',
  description:
    `GET /customers, /transactions, /customers/internal-accounts, /quotes and /cards at ${SIZES.map(fmt).join(', ')} ` +
    'documents each: first page, common filters and a deep cursor page, totalCount included',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-lists-'));
    try {
      const setup = await startChildService(dir);
      try {
        await script(setup.api);
      } finally {
        await setup.kill('SIGTERM');
      }
      const file = join(dir, 'read-models.db');
      const templates = readTemplates(file);

      const results = new Map<string, { p50: number; p99: number; total: number }[]>();
      const idleRss: number[] = [];
      const busyRss: number[] = [];
      let built = 0;
      for (const size of SIZES) {
        grow(file, templates, built, size);
        built = size;
        // The service as it runs by default: one process with the API and the worker (projections caught up: the
        // documents were written straight into the read models).
        const service = await startChildService(dir, {}, 600_000);
        try {
          // A freshly started process compiles its code paths on the first requests: one warm-up round over every
          // case first, so the case measured first is not the one that pays for it. The warm-up's answers are checked
          // against the OpenAPI document; the measured requests are not (the check would run in this process).
          for (const c of CASES)
            for (let i = 0; i < WARM_UP; i++)
              await expectStatus(service.api.get(await c.path(size, service.api)), 200, c.name);
          for (const c of CASES) {
            const list = results.get(c.name) ?? [];
            list.push(await measure(client(service.url, service.auth, NO_CHECK), size, c));
            results.set(c.name, list);
          }
          const rss = await restingRssMb(service.process.pid!);
          busyRss.push(rss.after2s);
          idleRss.push(rss.idle);
        } finally {
          await service.kill('SIGTERM');
        }
      }

      const lines = [
        `p50 / p99 in ms (one client, ${REQUESTS} requests per case and size); totalCount as answered`,
        `case | ${SIZES.map((s) => `${fmt(s)} p50 / p99 (totalCount)`).join(' | ')} | p99 largest / smallest`,
        `---|${SIZES.map(() => '---:').join('|')}|---:`,
      ];
      const figures: Record<string, number> = {};
      let worst = 0;
      for (const c of CASES) {
        const r = results.get(c.name)!;
        const growth = r[r.length - 1].p99 / r[0].p99;
        worst = Math.max(worst, growth);
        const key = c.name.replace(/[^A-Za-z]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase());
        r.forEach((m, i) => {
          figures[`${key}${SIZES[i]}P99Ms`] = round(m.p99, 2);
        });
        figures[`${key}P99Growth`] = round(growth, 2);
        lines.push(
          `${c.name} | ${r.map((m) => `${m.p50.toFixed(2)} / ${m.p99.toFixed(2)} (${fmt(m.total)})`).join(' | ')} | ` +
            `${growth.toFixed(2)}x`,
        );
      }
      figures.worstP99Growth = round(worst, 2);
      SIZES.forEach((size, i) => {
        figures[`rss2sAfter${size}Mb`] = round(busyRss[i]);
        figures[`idleRss${size}Mb`] = round(idleRss[i]);
      });
      const largest = idleRss[idleRss.length - 1];
      const bySize = (mb: number[]) => SIZES.map((s, i) => `${fmt(mb[i])} MB at ${fmt(s)}`).join(', ');
      lines.push(
        `RSS of the single-process service (API and worker) 2 s after its lists were read: ${bySize(busyRss)}; ` +
          `idle (${IDLE_AFTER_S} s after): ${bySize(idleRss)} ` +
          `(target under 200 MB at ${fmt(SIZES[SIZES.length - 1])}: ${largest < 200 ? 'met' : 'NOT met'})`,
      );
      lines.push(
        `worst p99 growth from ${fmt(SIZES[0])} to ${fmt(SIZES[SIZES.length - 1])}: ${worst.toFixed(2)}x ` +
          `(target at most 2x: ${worst <= 2 ? 'met' : 'NOT met'}); totalCount exact where a count is kept, ` +
          'else at most 10,000',
      );
      return { lines, ratio: null, figures };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
