import { createECDH, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { OffsetClock } from '#domain/clock.js';
import { adapterEnv, basicAuth, client, type Client } from '../../support/service.js';
import { signedRequest, walletSession, type WalletSession } from '../../support/wallet-session.js';
import { startRawSignedRetryServer } from '../raw-signed-retry.js';
import { NO_CHECK, profiled, round, type Scenario } from '../scenario.js';

/**
 * Freeze/unfreeze round trips on cards, both signed-retry steps with real stamps, many cards at
 * once (one virtual user per card). Reference in the same run: a bare node:http server that keeps
 * card states in memory and does the same work per request (issue and store a payloadToSign,
 * verify the stamp over it with node:crypto and a cached key, consume the requestId, flip the
 * state), with nothing durable. The same client, stamper and concurrency drive both.
 */
const CONCURRENCY = 32;
const DURATION_MS = 5_000;
const WARMUP_MS = 500;

interface Measured {
  roundTrips: number;
  seconds: number;
  /** Latency of one signed operation (challenge, stamp, retry), ms. */
  latencies: number[];
}

interface Target {
  api: Client;
  cards: { id: string; session: Pick<WalletSession, 'stamp' | 'publicKey'> }[];
}

async function drive(target: Target): Promise<Measured> {
  const latencies: number[] = [];
  let roundTrips = 0;
  let measuring = false;
  let started = 0;
  const signed = async (cardId: string, state: string, session: Pick<WalletSession, 'stamp'>) => {
    const t0 = performance.now();
    const { challenge, result } = await signedRequest(target.api, 'PATCH', `/cards/${cardId}`, { state }, session);
    if (challenge.status !== 202 || result.status !== 200 || result.body.state !== state) {
      throw new Error(`${state}: ${challenge.status}/${result.status} ${JSON.stringify(result.body)}`);
    }
    if (measuring) latencies.push(performance.now() - t0);
  };
  const warmupEnds = performance.now() + WARMUP_MS;
  const user = async (card: Target['cards'][number]) => {
    for (;;) {
      const now = performance.now();
      if (!measuring && now >= warmupEnds) {
        measuring = true;
        started = now;
      }
      if (measuring && now - started >= DURATION_MS) return;
      await signed(card.id, 'FROZEN', card.session);
      await signed(card.id, 'ACTIVE', card.session);
      if (measuring) roundTrips += 1;
    }
  };
  await Promise.all(target.cards.map(user));
  return { roundTrips, seconds: (performance.now() - started) / 1000, latencies };
}

/**
 * The same stamp `ApiKeyStamper` makes (the e2e tests use it), signed with node:crypto: the
 * stamper's JavaScript ECDSA costs about 1.4 ms per stamp and would make the in-process client,
 * not the servers, the bottleneck of both measurements.
 */
function nodeStamper(
  session: Pick<WalletSession, 'publicKey' | 'privateKey'>,
): (payloadToSign: string) => Promise<string> {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(session.privateKey, 'hex'));
  const point = ecdh.getPublicKey();
  const b64 = (bytes: Buffer) => bytes.toString('base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: b64(ecdh.getPrivateKey()),
      x: b64(point.subarray(1, 33)),
      y: b64(point.subarray(33)),
    },
    format: 'jwk',
  });
  return async (payloadToSign) => {
    const signature = sign('sha256', Buffer.from(payloadToSign, 'utf8'), { key, dsaEncoding: 'der' }).toString('hex');
    return Buffer.from(
      JSON.stringify({ publicKey: session.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature }),
    ).toString('base64url');
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/**
 * The service, in-process on a fresh embedded data directory, with ACTIVE cards each owned by its own wallet session.
 */
async function serviceTarget(dataDir: string) {
  const clock = new OffsetClock();
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...adapterEnv() }),
    { clock },
  );
  const api = client(service.url, basicAuth(service.sandbox!.tokenId, service.sandbox!.clientSecret), NO_CHECK);
  const cards: Target['cards'] = [];
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
    cards.push({ id: card.body.id, session: { publicKey: session.publicKey, stamp: nodeStamper(session) } });
  }
  clock.advance(CARD_ISSUANCE_DELAY_MS);
  await service.infra.jobs.promoteDue();
  const deadline = Date.now() + 10_000;
  while ((await api.get('/cards?state=ACTIVE')).body.totalCount < CONCURRENCY) {
    if (Date.now() > deadline) throw new Error('cards were not provisioned');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { target: { api, cards }, close: () => service.close() };
}

/** The raw reference of the wallet-auth bench, holding one in-memory card per session. */
async function referenceTarget(sessions: Pick<WalletSession, 'stamp' | 'publicKey'>[]) {
  const raw = await startRawSignedRetryServer();
  const cards = sessions.map((session) => {
    const id = `Card:${randomUUID()}`;
    raw.register(`/cards/${id}`, session.publicKey, { id, state: 'ACTIVE' });
    return { id, session };
  });
  return { target: { api: client(raw.origin, undefined, NO_CHECK), cards }, close: raw.close };
}

export const cardsFreezeUnfreeze: Scenario = {
  name: 'cards-freeze',
  description:
    `card freeze/unfreeze round trips, both signed-retry steps with real stamps, ` +
    `${CONCURRENCY} cards at once, against a raw node:http + node:crypto reference`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cards-'));
    try {
      const service = await serviceTarget(dir);
      let ours: Measured;
      let sessions: Pick<WalletSession, 'stamp' | 'publicKey'>[];
      try {
        ours = await profiled('cards', () => drive(service.target));
        sessions = service.target.cards.map((c) => c.session);
      } finally {
        await service.close();
      }
      const reference = await referenceTarget(sessions);
      let raw: Measured;
      try {
        raw = await profiled('cards-raw', () => drive(reference.target));
      } finally {
        await reference.close();
      }
      const line = (label: string, m: Measured) =>
        `${label.padEnd(34)} ${(m.roundTrips / m.seconds).toFixed(0).padStart(6)} round trips/s  ` +
        `${((m.roundTrips * 4) / m.seconds).toFixed(0).padStart(6)} requests/s  signed op p50 ` +
        `${percentile(m.latencies, 50).toFixed(1)} ms, p99 ` +
        `${percentile(m.latencies, 99).toFixed(1)} ms  (${m.roundTrips} in ${m.seconds.toFixed(1)} s)`;
      const lines = [
        line('service (embedded stores)', ours),
        line('raw node:http + node:crypto', raw),
        `service/raw throughput = ` +
          `${(ours.roundTrips / ours.seconds / (raw.roundTrips / raw.seconds)).toFixed(2)}; p99 ` +
          `ratio = ${(percentile(ours.latencies, 99) / percentile(raw.latencies, 99)).toFixed(1)}x`,
        'a round trip = freeze + unfreeze = 2 signed operations = 4 HTTP requests; client, stamping ' +
          '(node:crypto) and server share one process in both',
      ];
      const perSecond = (m: Measured) => m.roundTrips / m.seconds;
      const figures = {
        serviceRoundTripsPerSecond: round(perSecond(ours)),
        rawRoundTripsPerSecond: round(perSecond(raw)),
        serviceP99Ms: round(percentile(ours.latencies, 99)),
        rawP99Ms: round(percentile(raw.latencies, 99)),
      };
      return { lines, ratio: round(perSecond(ours) / perSecond(raw), 3), figures };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
