import { randomUUID } from 'node:crypto';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { client } from '../../support/service.js';
import { walletSession } from '../../support/wallet-session.js';
import {
  cpuText,
  warmUntilSteady,
  warmupReport,
  withServerCpu,
  type BenchProcess,
  type Measured,
  type ServerMeasured,
} from '../bench-process.js';
import { startCardsLoad, type CardTarget } from '../cards-load.js';
import { guardedAuth, startRawSignedRetryProcess, type RawSignedRetryOptions } from '../raw-signed-retry.js';
import { startServiceProcess } from '../service-process.js';
import { fmt, NO_CHECK, percentile, round, withLoad, type Scenario } from '../scenario.js';

/**
 * Freeze/unfreeze round trips on cards, both signed-retry steps with real stamps, many cards at once (one virtual
 * user per card), the clients in a process of their own (`test/bench/cards-load.ts`) and the service in another.
 * Reference in the same run, in a process of its own: a bare node:http server that keeps card states in memory and
 * does the same work per request (issue and store a payloadToSign, verify the stamp over it with node:crypto and a
 * cached key, consume the requestId, flip the state), with nothing durable; and the same server keeping the service's
 * guarantees (`guarded`: authenticated, every step an event chained by hash, synced before its reply). The same
 * clients, stamps and concurrency drive each; each server's CPU time per round trip is read from its own process.
 */
const CONCURRENCY = 32;
const DURATION_MS = 5_000;
/** A warm-up window (see warmUntilSteady). */
const WARMUP_WINDOW_MS = 1_000;

/** The service's cards: ACTIVE, each owned by its own wallet session (the key pair goes to the clients' process). */
async function serviceCards(service: BenchProcess<{ url: string; auth: string }>): Promise<CardTarget[]> {
  const api = client(service.ready.url, service.ready.auth, NO_CHECK);
  const cards: CardTarget[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const customer = await api.post('/customers', {
      platformCustomerId: `bench-${i}`,
      customerType: 'INDIVIDUAL',
      fullName: 'Bench Holder',
      email: `bench${i}@example.com`,
      currencies: ['USD'],
    });
    const session = await walletSession(api, customer.body.id, 'USD');
    const card = await api.post('/cards', {
      customerId: customer.body.id,
      form: 'VIRTUAL',
      fundingSources: [session.accountId],
    });
    if (card.status !== 201) throw new Error(`card: ${JSON.stringify(card.body)}`);
    cards.push({ id: card.body.id, publicKey: session.publicKey, privateKey: session.privateKey });
  }
  await service.call('advance', CARD_ISSUANCE_DELAY_MS);
  await service.call('promoteDue');
  const deadline = Date.now() + 10_000;
  while ((await api.get('/cards?state=ACTIVE')).body.totalCount < CONCURRENCY) {
    if (Date.now() > deadline) throw new Error('cards were not provisioned');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return cards;
}

/** Windows of load until the server's CPU per round trip is steady, then the measured window with it. */
async function measured(load: BenchProcess<unknown>, server: BenchProcess<unknown>, name: string) {
  const warmup = await warmUntilSteady(server, () => load.call<Measured>('drive', { name, ms: WARMUP_WINDOW_MS }));
  const window = await withServerCpu(server, `cards-${name}`, () =>
    load.call<Measured>('drive', { name, ms: DURATION_MS }),
  );
  return { ...window, warmup };
}

/** A reference server (`raw`, or `guarded` with `options`) in its own process, on copies of the service's cards. */
async function referenceSide(
  load: BenchProcess<unknown>,
  cards: CardTarget[],
  name: string,
  options: RawSignedRetryOptions,
): Promise<ServerMeasured & { warmup: number[] }> {
  const reference = await startRawSignedRetryProcess(options);
  try {
    const list = cards.map((c) => ({ ...c, id: `Card:${randomUUID()}` }));
    await reference.call(
      'register',
      list.map((c) => ({
        path: `/cards/${c.id}`,
        sessionPublicKey: c.publicKey,
        state: { id: c.id, state: 'ACTIVE' },
      })),
    );
    const auth = options.guarded ? options.auth : undefined;
    await load.call('targets', { name, baseUrl: reference.ready.origin, auth, list });
    return await measured(load, reference, name);
  } finally {
    await reference.close();
  }
}

const pct = (m: Measured, p: number) =>
  percentile(
    [...m.latencies].sort((a, b) => a - b),
    p,
  );

function line(label: string, m: ServerMeasured): string {
  return (
    `${label.padEnd(34)} ${(m.ops / m.seconds).toFixed(0).padStart(6)} round trips/s  ` +
    `${((m.ops * 4) / m.seconds).toFixed(0).padStart(6)} requests/s  signed op p50 ` +
    `${pct(m, 0.5).toFixed(1)} ms, p99 ${pct(m, 0.99).toFixed(1)} ms  ${cpuText(m, 'round trip')}  ` +
    `(${m.ops} in ${m.seconds.toFixed(1)} s)`
  );
}

export const cardsFreezeUnfreeze: Scenario = {
  name: 'cards-freeze',
  description:
    `card freeze/unfreeze round trips, both signed-retry steps with real stamps, ${CONCURRENCY} cards at once, ` +
    'clients in a process of their own: the service (its own process) vs a raw node:http + node:crypto reference',
  run: () =>
    withLoad('bench-cards-', startCardsLoad, async (load, dir) => {
      const service = await startServiceProcess(dir);
      let ours: ServerMeasured & { warmup: number[] };
      let cards: CardTarget[];
      try {
        cards = await serviceCards(service);
        await load.call('targets', {
          name: 'service',
          baseUrl: service.ready.url,
          auth: service.ready.auth,
          list: cards,
        });
        ours = await measured(load, service, 'service');
      } finally {
        await service.close();
      }
      const raw = await referenceSide(load, cards, 'raw', {});
      const guarded = await referenceSide(load, cards, 'guarded', { guarded: true, dir, auth: guardedAuth() });
      const perSecond = (m: Measured) => m.ops / m.seconds;
      const cpuRatio = raw.cpuPerOpMicros / ours.cpuPerOpMicros;
      const guardedRatio = guarded.cpuPerOpMicros / ours.cpuPerOpMicros;
      const warmups = warmupReport(
        `warm-up until steady, server CPU per round trip by ${WARMUP_WINDOW_MS / 1000} s window`,
        ours.warmup,
        raw.warmup,
      );
      const lines = [
        line('service (embedded stores)', ours),
        line('raw node:http + node:crypto', raw),
        line('raw with the guarantees', guarded),
        `service/raw throughput = ${(perSecond(ours) / perSecond(raw)).toFixed(2)}; p99 ratio = ` +
          `${(pct(ours, 0.99) / pct(raw, 0.99)).toFixed(1)}x; CPU per round trip, raw/service = ${cpuRatio.toFixed(3)}`,
        `raw with the service's guarantees: CPU per round trip ${fmt(guarded.cpuPerOpMicros)} µs, ` +
          `${(guarded.cpuPerOpMicros / raw.cpuPerOpMicros).toFixed(2)}x the raw's; guarded/service ` +
          `${guardedRatio.toFixed(3)}; raw/guarded ${(raw.cpuPerOpMicros / guarded.cpuPerOpMicros).toFixed(3)}`,
        warmups.line,
        'a round trip = freeze + unfreeze = 2 signed operations = 4 HTTP requests; clients and stamping ' +
          '(node:crypto) in a process of their own, each server in its own',
      ];
      const figures = {
        serviceRoundTripsPerSecond: round(perSecond(ours)),
        serviceP50Ms: round(pct(ours, 0.5)),
        serviceP99Ms: round(pct(ours, 0.99)),
        serviceCpuPerOpMicros: round(ours.cpuPerOpMicros),
        serviceKernelCpuPerOpMicros: round(ours.kernelCpuPerOpMicros),
        rawRoundTripsPerSecond: round(perSecond(raw)),
        rawP50Ms: round(pct(raw, 0.5)),
        rawP99Ms: round(pct(raw, 0.99)),
        rawCpuPerOpMicros: round(raw.cpuPerOpMicros),
        rawKernelCpuPerOpMicros: round(raw.kernelCpuPerOpMicros),
        guardedRoundTripsPerSecond: round(perSecond(guarded)),
        guardedCpuPerOpMicros: round(guarded.cpuPerOpMicros),
        guardedKernelCpuPerOpMicros: round(guarded.kernelCpuPerOpMicros),
        guardedCpuRatio: round(guardedRatio, 3),
        throughputRatio: round(perSecond(ours) / perSecond(raw), 3),
        ...warmups.figures,
      };
      return { lines, ratio: round(cpuRatio, 3), figures };
    }),
};
