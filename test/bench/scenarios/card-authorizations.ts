import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { processorSignature } from '#domain/cards/card-processor.js';
import { startChildService } from '../../support/child-service.js';
import { client, type Client } from '../../support/service.js';
import { walletSession } from '../../support/wallet-session.js';
import { startDecisionReceiverProcess } from '../decision-receiver-process.js';
import { startRawCardProcessor } from '../raw-card-processor.js';
import {
  customerAccount,
  expectStatus,
  fmt,
  NO_CHECK,
  percentile,
  profiled,
  round,
  type Scenario,
} from '../scenario.js';

/**
 * Inbound card processor AUTHORIZATION messages (`POST /card-processor/messages`, HMAC-signed), COUNT of them on
 * CARDS cards at CONCURRENCY at once, each on a card drawn at random (several in flight on one card now and then: they
 * wait for its lock), against the service as a child process with the load in this process. Twice: without a
 * decision endpoint (the rules decide), and with the platform's CARD_AUTHORIZATION.REQUEST endpoint on loopback (a
 * receiver in a process of its own that approves at once), in alternating phases on one service; the raw reference
 * in the same run (`test/bench/raw-card-processor.ts`) gets the same messages, with and without its decision call.
 */
const COUNT = Number(process.env.CARD_AUTH_COUNT ?? 3_000);
const CARDS = Number(process.env.CARD_AUTH_CARDS ?? 64);
const CONCURRENCY = 32;
const WARMUP = 200;
/** Phases without and with the endpoint, alternating; COUNT and WARMUP are shared out between them. */
const ROUNDS = 2;
const AMOUNT = 100;
/** Enough for every authorization of the run on any one card. */
const FUNDS = 10_000_000;
const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };

interface Measured {
  count: number;
  seconds: number;
  /** Latency of each measured message, sorted ascending, ms. */
  latencies: number[];
  /** Answers other than APPROVED by decline reason (every card has the funds: a STAND_IN is a missed deadline). */
  declined: Record<string, number>;
  /** Requests the decision endpoint answered during the run, when there was one. */
  asked?: number;
}

/** The processor's POST of one AUTHORIZATION, signed with `secret`; its answer's decision. */
function processor(api: Client, platformId: string, secret: string) {
  return async (cardId: string, networkTransactionId: string): Promise<string> => {
    const raw = JSON.stringify({
      type: 'AUTHORIZATION',
      networkTransactionId,
      cardId,
      amount: AMOUNT,
      currency: 'USD',
      merchant,
    });
    const at = Math.floor(Date.now() / 1000);
    const res = await api.post('/card-processor/messages', raw, {
      'content-type': 'application/json',
      'x-processor-platform': platformId,
      'x-processor-signature': `t=${at},v1=${processorSignature(secret, at, raw)}`,
    });
    if (res.status !== 200) throw new Error(`a processor message answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.decision === 'APPROVED' ? 'APPROVED' : String(res.body.declineReason);
  };
}

/** A small deterministic generator (xorshift32): the same cards drawn in every run. */
function draws(seed: number) {
  let x = seed;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

/** `warmup` messages, then `count` measured ones, CONCURRENCY at a time, each on a card drawn at random. */
async function drive(
  send: (cardId: string, ntid: string) => Promise<string>,
  cards: string[],
  label: string,
  { count, warmup }: { count: number; warmup: number },
): Promise<Measured> {
  const draw = draws(0x2545f491);
  const run = `${label}-${randomUUID().slice(0, 8)}`;
  const batch = async (n: number, latencies?: number[]) => {
    let next = 0;
    const declined: Record<string, number> = {};
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) {
          const i = next++;
          const started = performance.now();
          const decision = await send(cards[draw(cards.length)], `${run}-${latencies ? 'm' : 'w'}-${i}`);
          latencies?.push(performance.now() - started);
          if (decision !== 'APPROVED') declined[decision] = (declined[decision] ?? 0) + 1;
        }
      }),
    );
    return declined;
  };
  await batch(warmup);
  const latencies: number[] = [];
  const started = performance.now();
  const declined = await profiled(`card-authorizations-${label}`, () => batch(count, latencies));
  const seconds = (performance.now() - started) / 1000;
  return { count, seconds, latencies: latencies.sort((a, b) => a - b), declined };
}

/** Two measurements as one: their counts, times and latencies (sorted) together. */
const merged = (a: Measured, b: Measured): Measured => {
  const declined = { ...a.declined };
  for (const [reason, n] of Object.entries(b.declined)) declined[reason] = (declined[reason] ?? 0) + n;
  const latencies = [...a.latencies, ...b.latencies].sort((x, y) => x - y);
  return { count: a.count + b.count, seconds: a.seconds + b.seconds, latencies, declined };
};

/** CARDS funded customers' ACTIVE cards on the sandbox platform of a child service. */
async function fundedCards(api: Client): Promise<string[]> {
  const cards: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < CARDS) {
        const i = next++;
        const holder = { platformCustomerId: `card-auth-${i}`, customerType: 'INDIVIDUAL', currencies: ['USD'] };
        const { id, accountId } = await customerAccount(api, {
          ...holder,
          fullName: 'Bench Holder',
          email: `card-auth-${i}@example.com`,
        });
        await expectStatus(api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: FUNDS }), 200, 'fund');
        await walletSession(api, id, 'USD'); // a cardholder needs a wallet: its sessions authorize card changes
        const card = { customerId: id, form: 'VIRTUAL', fundingSources: [accountId] };
        cards.push((await expectStatus(api.post('/cards', card), 201, 'create card')).id as string);
      }
    }),
  );
  // The sandbox issuer provisions a card after a delay on the platform's clock (real time here): waited for.
  const deadline = Date.now() + 60_000;
  while ((await api.get('/cards?state=ACTIVE&limit=1')).body.totalCount < CARDS) {
    if (Date.now() > deadline) throw new Error('the cards were not provisioned within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return cards;
}

/**
 * One child service: cards and the processor's secret, then ROUNDS rounds of a phase without a decision endpoint
 * and a phase with one (registered and removed by PATCH /config), so that the service's growing streams and a busy
 * moment of the machine fall on both alike.
 */
async function serviceRuns(decisionUrl: string): Promise<{ rules: Measured; endpoint: Measured }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-card-auth-'));
  // The default log level, as deployed (each request's line included).
  const service = await startChildService(dir, {}, 60_000);
  try {
    const api = client(service.url, service.auth, NO_CHECK);
    const cards = await fundedCards(api);
    const { platformId } = JSON.parse(readFileSync(join(dir, 'sandbox-credentials.json'), 'utf8')) as {
      platformId: string;
    };
    const secret = (await expectStatus(api.post('/config/card-processor/secret', {}), 200, 'secret'))
      .cardProcessorSecret;
    const send = processor(client(service.url, undefined, NO_CHECK), platformId, secret);
    const phase = { count: COUNT / ROUNDS, warmup: WARMUP / ROUNDS };
    const endpoints = (on: boolean) => ({
      decisionEndpoints: on
        ? [{ type: 'CARD_AUTHORIZATION.REQUEST', url: decisionUrl, defaultDecision: 'DECLINE' }]
        : [],
    });
    let rules: Measured | undefined;
    let endpoint: Measured | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      await expectStatus(api.patch('/config', endpoints(false)), 200, 'no decision endpoint');
      const r = await drive(send, cards, 'rules', phase);
      rules = rules ? merged(rules, r) : r;
      await expectStatus(api.patch('/config', endpoints(true)), 200, 'decision endpoint');
      const e = await drive(send, cards, 'endpoint', phase);
      endpoint = endpoint ? merged(endpoint, e) : e;
    }
    return { rules: rules!, endpoint: endpoint! };
  } finally {
    await service.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same messages to the raw reference (its own process and file), with its decision call when `decisionUrl`. */
async function rawRun(decisionUrl?: string): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-card-auth-raw-'));
  const secret = `cpsec_${randomUUID()}`;
  const cards = Array.from({ length: CARDS }, () => `Card:${randomUUID()}`);
  const raw = await startRawCardProcessor({
    dir,
    secret,
    cards: cards.map((cardId) => ({ cardId, available: FUNDS })),
    ...(decisionUrl ? { decisionUrl } : {}),
  });
  try {
    const api = client(raw.origin, undefined, NO_CHECK);
    const label = decisionUrl ? 'raw-endpoint' : 'raw';
    return await drive(processor(api, 'Platform:raw', secret), cards, label, { count: COUNT, warmup: WARMUP });
  } finally {
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const perSecond = (m: Measured) => m.count / m.seconds;
const line = (label: string, m: Measured) =>
  `${label.padEnd(40)} ${fmt(perSecond(m)).padStart(6)} answered/s  p50 ${round(percentile(m.latencies, 0.5))} ms, ` +
  `p99 ${round(percentile(m.latencies, 0.99))} ms  (${fmt(m.count)} in ${m.seconds.toFixed(1)} s` +
  `${m.asked === undefined ? '' : `, the endpoint asked ${fmt(m.asked)} times`}` +
  `${Object.entries(m.declined)
    .map(([reason, n]) => `, ${n} DECLINED ${reason}`)
    .join('')})`;

const figuresOf = (key: string, m: Measured) => ({
  [`${key}PerSecond`]: round(perSecond(m)),
  [`${key}P50Ms`]: round(percentile(m.latencies, 0.5)),
  [`${key}P99Ms`]: round(percentile(m.latencies, 0.99)),
  [`${key}Declined`]: Object.values(m.declined).reduce((a, b) => a + b, 0),
});

export const cardAuthorizations: Scenario = {
  name: 'card-authorizations',
  description:
    `inbound card processor AUTHORIZATION messages (HMAC-signed), ${fmt(COUNT)} on ${CARDS} cards, ${CONCURRENCY} ` +
    'at once, without and with a platform decision endpoint on loopback, the service a child process, against a ' +
    'raw node:http + better-sqlite3 reference',
  async run() {
    const receiver = await startDecisionReceiverProcess();
    try {
      const { rules, endpoint } = await serviceRuns(receiver.url);
      endpoint.asked = (await receiver.answered()) - WARMUP;
      const raw = await rawRun();
      const rawEndpoint = await rawRun(receiver.url);
      if (endpoint.asked !== COUNT) throw new Error(`the decision endpoint was asked ${endpoint.asked} times`);
      const lines = [
        line('service, no decision endpoint', rules),
        line('service, decision endpoint (loopback)', endpoint),
        line('raw node:http + better-sqlite3', raw),
        line('raw, with its decision call', rawEndpoint),
        `service/raw throughput = ${(perSecond(rules) / perSecond(raw)).toFixed(2)} without an endpoint, ` +
          `${(perSecond(endpoint) / perSecond(rawEndpoint)).toFixed(2)} with one; the endpoint costs the service ` +
          `${round((1 - perSecond(endpoint) / perSecond(rules)) * 100)}% of its throughput`,
        `the service: one child process, ${ROUNDS} rounds of a phase without and one with the endpoint; the raw ` +
          'reference: one process per run; the load (fetch and the HMAC signing) in the benchmark’s process',
      ];
      const figures = {
        ...figuresOf('service', rules),
        ...figuresOf('serviceEndpoint', endpoint),
        ...figuresOf('raw', raw),
        ...figuresOf('rawEndpoint', rawEndpoint),
        count: COUNT,
        cards: CARDS,
        concurrency: CONCURRENCY,
      };
      return { lines, ratio: round(perSecond(rules) / perSecond(raw), 3), figures };
    } finally {
      await receiver.close();
    }
  },
};
