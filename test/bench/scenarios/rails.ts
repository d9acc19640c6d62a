import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { referenceFor } from '#domain/payments/transactions/transaction.js';
import { adapterEnv, type Client } from '../../support/service.js';
import { bankRunInChild } from '../rails-bank-process.js';
import {
  countWithStatus,
  filesIn,
  fundByPulls,
  OutboxWatch,
  processingDrained,
  productionPlatform,
  railCustomers,
  type RailCustomer,
  type RailFolders,
} from '../rails-setup.js';
import { accountQuote, expectStatus, fmt, percentile, profiled, round, type Scenario } from '../scenario.js';

/** Payouts written out and booked back (`RAILS_PAYOUTS` for a quicker run), from this many customers. */
const PAYOUTS = Number(process.env.RAILS_PAYOUTS ?? 10_000);
const CUSTOMERS = 16;
/** Clients creating the payouts at once. */
const CONCURRENCY = 64;
/** Clients of the traffic measured beside the rail's work: half list transactions, half pay between accounts. */
const LOAD_CLIENTS = Number(process.env.RAILS_LOAD_CLIENTS ?? 8);
/** How long the traffic is measured with no rail work, as the reference. */
const REFERENCE_MS = 5_000;
/** The worker reads the rail's inbox this often. */
const RAILS_POLL_MS = 100;
/** Each payout, in cents. */
const AMOUNT = 100;
const LONG_MS = 30 * 60_000;
/**
 * The bank answers at most this many transfers in one camt.054 (`RAILS_BANK_NOTIFICATION`): the rail records a file's
 * effects in one event, and one of more than about 5,600 bookings is over the event store's 1 MiB append.
 */
const PER_NOTIFICATION = Number(process.env.RAILS_BANK_NOTIFICATION ?? 5_000);

interface Load {
  reads: number[];
  writes: number[];
  seconds: number;
}

/** One payout: a quote to the customer's payee bank account, executed at once (PROCESSING until the bank books it). */
async function payout(api: Client, c: RailCustomer): Promise<string> {
  const quote = await expectStatus(
    api.post('/quotes', accountQuote(c.usd, c.payTo, AMOUNT, { immediatelyExecute: true }), {
      'Idempotency-Key': randomUUID(),
    }),
    201,
    'payout quote',
  );
  if (quote.status !== 'PROCESSING') throw new Error(`payout quote ${quote.id} is ${quote.status}`);
  return referenceFor(quote.transactionId);
}

/** Phase (a): the payouts over HTTP, while the outbox is scanned; answers their end-to-end ids and the times. */
async function payouts(api: Client, customers: RailCustomer[], watch: OutboxWatch) {
  const started = performance.now();
  const ids: string[] = [];
  let next = 0;
  let httpDone = false;
  const scanning = (async () => {
    while (!httpDone) {
      await watch.scan();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PAYOUTS) {
        const c = customers[next++ % customers.length];
        const t = performance.now();
        ids.push(await payout(api, c));
        latencies.push(performance.now() - t);
      }
    }),
  );
  const http = performance.now();
  httpDone = true;
  await scanning;
  const written = await watch.waitFor(ids, 100, LONG_MS);
  const files = [...watch.fileIds.keys()].filter((name) => name.startsWith('CT-')).length;
  return {
    ids,
    httpSeconds: (http - started) / 1000,
    outboxSeconds: (written - started) / 1000,
    files,
    latencies: latencies.sort((a, b) => a - b),
  };
}

/** Traffic beside the rail until `stop`: half the clients list transactions, half pay between two customers. */
async function traffic(api: Client, customers: RailCustomer[], stop: () => boolean): Promise<Load> {
  const load: Load = { reads: [], writes: [], seconds: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LOAD_CLIENTS }, async (_, i) => {
      const from = customers[i % customers.length];
      const to = customers[(i + 1) % customers.length];
      while (!stop()) {
        const t = performance.now();
        if (i % 2 === 0) {
          await expectStatus(api.get('/transactions?limit=20'), 200, 'list transactions');
          load.reads.push(performance.now() - t);
        } else {
          await expectStatus(
            api.post('/quotes', {
              source: { sourceType: 'ACCOUNT', accountId: from.usd },
              destination: { destinationType: 'ACCOUNT', accountId: to.usd },
              lockedCurrencySide: 'SENDING',
              lockedCurrencyAmount: 1,
              immediatelyExecute: true,
            }),
            201,
            'internal quote',
          );
          load.writes.push(performance.now() - t);
        }
      }
    }),
  );
  load.seconds = (performance.now() - started) / 1000;
  load.reads.sort((a, b) => a - b);
  load.writes.sort((a, b) => a - b);
  return load;
}

/** Phase (b): the bank answers what is in the outbox; the rail reads the answers back until nothing is PROCESSING. */
async function bookings(api: Client, customers: RailCustomer[], folders: RailFolders) {
  let done = false;
  const started = performance.now();
  const during = traffic(api, customers, () => done);
  try {
    const bank = await bankRunInChild(folders, PER_NOTIFICATION);
    let inboxEmpty = 0;
    let reportsTaken = 0;
    const inboxWatch = (async () => {
      for (;;) {
        const names = await filesIn(folders.inbox);
        if (!reportsTaken && !names.some((n) => n.includes('.pain.002.'))) reportsTaken = performance.now();
        if (names.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      inboxEmpty = performance.now();
    })();
    const completed = await processingDrained(api, 100, LONG_MS);
    done = true;
    await inboxWatch;
    return {
      bank,
      bankSeconds: bank.ms / 1000,
      inboxSeconds: (inboxEmpty - started) / 1000,
      reportsSeconds: (reportsTaken - started) / 1000,
      completedSeconds: (completed - started) / 1000,
      during: await during,
    };
  } finally {
    done = true;
    await during;
  }
}

const perSecond = (ops: number[], seconds: number) => (seconds > 0 ? ops.length / seconds : 0);
const trafficLine = (label: string, l: Load) =>
  `${label.padEnd(34)} ${fmt(perSecond(l.reads, l.seconds)).padStart(5)} lists/s (p99 ` +
  `${(percentile(l.reads, 0.99) ?? 0).toFixed(0)} ms) + ${fmt(perSecond(l.writes, l.seconds)).padStart(4)} internal ` +
  `quotes/s (p99 ${(percentile(l.writes, 0.99) ?? 0).toFixed(0)} ms) over ${l.seconds.toFixed(1)} s`;

export const rails: Scenario = {
  name: 'rails',
  description:
    `${fmt(PAYOUTS)} payouts over HTTP (${CONCURRENCY} clients, ${CUSTOMERS} customers) on a production platform's ` +
    'USD bank rail: written into pain.001 outbox files, booked by the bank simulator (camt.054) and read back ' +
    `until COMPLETED; the service's traffic (${LOAD_CLIENTS} clients) meanwhile, against the same with no rail work`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-rails-'));
    const service = await startService(
      loadConfig({
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        RAILS_POLL_MS: String(RAILS_POLL_MS),
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
        ...adapterEnv(),
      }),
    );
    try {
      const { api, folders } = await productionPlatform(service, dir);
      const customers = await railCustomers(api, CUSTOMERS);
      await fundByPulls(api, customers, folders, Math.ceil(PAYOUTS / CUSTOMERS) * AMOUNT * 2 + 1_000_000);
      const watch = new OutboxWatch(folders.outbox);
      const out = await profiled('rails-payouts', () => payouts(api, customers, watch));
      // The reference starts once the read models hold everything phase (a) wrote.
      await service.infra.projections.waitForPosition(await service.infra.eventStore.headPosition(), 60_000);
      let referenceDone = false;
      const stopReference = setTimeout(() => (referenceDone = true), REFERENCE_MS);
      const reference = await traffic(api, customers, () => referenceDone);
      clearTimeout(stopReference);
      const back = await profiled('rails-bookings', () => bookings(api, customers, folders));
      const quarantined = await filesIn(join(folders.inbox, 'quarantine'));
      if (quarantined.length > 0) throw new Error(`the rail quarantined ${quarantined.join(', ')}`);
      const failed = await countWithStatus(api, 'FAILED');
      if (failed > 0) throw new Error(`${failed} transactions FAILED`);
      return report(out, back, reference);
    } finally {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

function report(
  out: Awaited<ReturnType<typeof payouts>>,
  back: Awaited<ReturnType<typeof bookings>>,
  reference: Load,
): { lines: string[]; ratio: number; figures: Record<string, number> } {
  const ops = (l: Load) => perSecond([...l.reads, ...l.writes], l.seconds);
  const ratio = ops(reference) > 0 ? ops(back.during) / ops(reference) : 0;
  const lines = [
    `payouts created over HTTP: ${fmt(PAYOUTS)} in ${out.httpSeconds.toFixed(1)} s ` +
      `(${fmt(PAYOUTS / out.httpSeconds)}/s, p50 ${percentile(out.latencies, 0.5).toFixed(0)} ms, ` +
      `p99 ${percentile(out.latencies, 0.99).toFixed(0)} ms)`,
    `(a) all ${fmt(PAYOUTS)} end-to-end ids in outbox files: ${out.outboxSeconds.toFixed(1)} s from the first ` +
      `request (${fmt(PAYOUTS / out.outboxSeconds)} payouts/s), in ${fmt(out.files)} pain.001 files`,
    `(b) bank simulator run: ${back.bankSeconds.toFixed(1)} s (${back.bank.taken} files taken, ` +
      `${back.bank.written.length} answers); status reports taken: ${back.reportsSeconds.toFixed(1)} s, ` +
      `the whole inbox: ${back.inboxSeconds.toFixed(1)} s; ` +
      `all ${fmt(PAYOUTS)} COMPLETED: ${back.completedSeconds.toFixed(1)} s from the bank's run ` +
      `(${fmt(PAYOUTS / back.completedSeconds)} bookings/s)`,
    trafficLine('(c) traffic, no rail work', reference),
    trafficLine('    traffic during (b)', back.during),
    `    during (b) / no rail work: ${ratio.toFixed(2)}x`,
  ];
  const figures = {
    payouts: PAYOUTS,
    httpSeconds: round(out.httpSeconds),
    outboxSeconds: round(out.outboxSeconds),
    outboxFiles: out.files,
    payoutsPerSecond: round(PAYOUTS / out.outboxSeconds),
    bankSeconds: round(back.bankSeconds),
    answerFiles: back.bank.written.length,
    statusReportsTakenSeconds: round(back.reportsSeconds),
    completedSeconds: round(back.completedSeconds),
    bookingsPerSecond: round(PAYOUTS / back.completedSeconds),
    referenceOpsPerSecond: round(ops(reference)),
    duringOpsPerSecond: round(ops(back.during)),
  };
  return { lines, ratio: round(ratio, 3), figures };
}
