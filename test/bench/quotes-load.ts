import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { client, type Client } from '../support/service.js';
import { serveLoadProcess, startLoadProcess, type Measured } from './bench-process.js';
import { accountQuote, expectStatus, NO_CHECK } from './scenario.js';

/** A payer's and a payee's account. */
export interface Pair {
  from: string;
  to: string;
}

/**
 * The payments benchmark's clients, in a process of their own. Operations: `targets` (a server's base URL,
 * Authorization header and pairs, by name), `measure` (`clients` clients paying for `ms`, client i on pair i; an
 * operation is one payment: quote create + execute).
 */
export const startQuotesLoad = () => startLoadProcess(import.meta.url);

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

async function measure(api: Client, pairs: Pair[], clients: number, ms: number): Promise<Measured> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      while (performance.now() - started < ms) latencies.push(await payOnce(api, pairs[i % pairs.length]));
    }),
  );
  return { ops: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

serveLoadProcess(import.meta.url, () => {
  const sets = new Map<string, { api: Client; pairs: Pair[] }>();
  return {
    targets: ({ name, baseUrl, auth, pairs }: { name: string; baseUrl: string; auth: string; pairs: Pair[] }) =>
      void sets.set(name, { api: client(baseUrl, auth, NO_CHECK), pairs }),
    measure: ({ name, clients, ms }: { name: string; clients: number; ms: number }) =>
      measure(sets.get(name)!.api, sets.get(name)!.pairs, clients, ms),
  };
});
