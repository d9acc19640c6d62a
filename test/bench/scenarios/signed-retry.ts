import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { createECDH, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { adapterEnv, basicAuth, client, type Client } from '../../support/service.js';
import { startRawSignedRetryServer } from '../raw-signed-retry.js';
import { fmt, NO_CHECK, percentile, profiled, round, type Scenario } from '../scenario.js';

/** Time budget per measurement; the whole scenario stays well under 30 s. */
const SEQUENTIAL_MS = 3_000;
const CONCURRENT_MS = 3_000;
const WALLETS = 16;

interface Prepared {
  path: string;
  body: { privateEnabled: boolean };
  headers: Record<string, string>;
}

/** One signed-retry target: how to get a fresh challenge and how to stamp it. */
interface Target {
  api: Client;
  path: string;
  stamper: ApiKeyStamper;
  enabled: boolean;
}

interface Measured {
  ops: number;
  seconds: number;
  latencies: number[];
}

/** Step 1 (untimed) and the client's stamp (untimed): what step 2 then sends. */
async function prepare(target: Target): Promise<Prepared> {
  target.enabled = !target.enabled;
  const body = { privateEnabled: target.enabled };
  const challenge = await target.api.patch(target.path, body);
  if (challenge.status !== 202)
    throw new Error(`step 1 answered ${challenge.status}: ${JSON.stringify(challenge.body)}`);
  const { stampHeaderValue } = await target.stamper.stamp(challenge.body.payloadToSign);
  return {
    path: target.path,
    body,
    headers: { 'Service-Wallet-Signature': stampHeaderValue, 'Request-Id': challenge.body.requestId },
  };
}

async function step2(api: Client, prepared: Prepared): Promise<number> {
  const started = performance.now();
  const res = await api.patch(prepared.path, prepared.body, prepared.headers);
  const elapsed = performance.now() - started;
  if (res.status !== 200 || res.body.privateEnabled !== prepared.body.privateEnabled)
    throw new Error(`step 2 answered ${res.status}: ${JSON.stringify(res.body)}`);
  return elapsed;
}

/** (a) one step 2 at a time, each with a fresh challenge. */
async function sequential(target: Target): Promise<Measured> {
  const latencies: number[] = [];
  const until = performance.now() + SEQUENTIAL_MS;
  while (performance.now() < until) latencies.push(await step2(target.api, await prepare(target)));
  return { ops: latencies.length, seconds: latencies.reduce((a, b) => a + b, 0) / 1000, latencies };
}

/**
 * (b) one in-flight step 2 per wallet across many wallets; challenges are prepared ahead, outside the clock (and
 * outside the profile: `label` names the measured window's profile, see `profiled`).
 */
async function concurrent(targets: Target[], perTarget: number, label: string): Promise<Measured> {
  const queues = await Promise.all(
    targets.map(async (t) => {
      const q: Prepared[] = [];
      for (let i = 0; i < perTarget; i++) q.push(await prepare(t));
      return q;
    }),
  );
  const measure = async (): Promise<Measured> => {
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      targets.map(async (t, i) => {
        for (const p of queues[i]) latencies.push(await step2(t.api, p));
      }),
    );
    return { ops: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
  };
  return profiled(label, measure);
}

/** The service: in-process on a temporary embedded data directory, wallets opened and verified over HTTP. */
async function serviceTargets(dir: string): Promise<{ targets: Target[]; close(): Promise<void> }> {
  const service = await startService(
    loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...adapterEnv() }),
  );
  const api = client(service.url, basicAuth(service.sandbox!.tokenId, service.sandbox!.clientSecret), NO_CHECK);
  const targets: Target[] = [];
  for (let i = 0; i < WALLETS; i++) {
    const customer = await api.post('/customers', {
      platformCustomerId: `bench-${i}`,
      customerType: 'INDIVIDUAL',
      email: `bench${i}@example.com`,
    });
    const account = await api.post('/customers/internal-accounts', {
      customerId: customer.body.id,
      type: 'EMBEDDED_WALLET',
      currency: 'USDC',
    });
    const credential = (await api.get(`/auth/credentials?accountId=${encodeURIComponent(account.body.id)}`)).body
      .data[0];
    const key = generateP256KeyPair();
    const session = await api.post(`/auth/credentials/${credential.id}/verify`, {
      type: 'EMAIL_OTP',
      otp: '000000',
      clientPublicKey: key.publicKeyUncompressed,
    });
    if (session.status !== 200) throw new Error(`verify answered ${session.status}`);
    const privateKey = decryptCredentialBundle(session.body.encryptedSessionSigningKey, key.privateKey);
    targets.push({
      api,
      path: `/internal-accounts/${account.body.id}`,
      stamper: stamperFor(privateKey),
      enabled: false,
    });
  }
  return { targets, close: () => service.close() };
}

/** A stamper for a decrypted session key (its compressed public key derived with node:crypto). */
function stamperFor(privateKeyHex: string): ApiKeyStamper {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKeyHex, 'hex'));
  return new ApiKeyStamper({ apiPublicKey: ecdh.getPublicKey('hex', 'compressed'), apiPrivateKey: privateKeyHex });
}

async function rawTargets(): Promise<{ targets: Target[]; close(): Promise<void> }> {
  const raw = await startRawSignedRetryServer();
  const api = client(`${raw.origin}/2025-10-13`, undefined, NO_CHECK);
  const targets: Target[] = [];
  for (let i = 0; i < WALLETS; i++) {
    const key = generateP256KeyPair();
    const account = `InternalAccount:${randomUUID()}`;
    raw.register(`/2025-10-13/internal-accounts/${account}`, key.publicKey, { id: account, privateEnabled: false });
    targets.push({
      api,
      path: `/internal-accounts/${account}`,
      stamper: new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }),
      enabled: false,
    });
  }
  return { targets, close: raw.close };
}

function describe(label: string, m: Measured): string {
  const sorted = [...m.latencies].sort((a, b) => a - b);
  return (
    `${label.padEnd(44)} ${fmt(m.ops / m.seconds).padStart(7)} step-2/s  p50 ` +
    `${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${percentile(sorted, 0.99).toFixed(2)} ms  ` +
    `(${m.ops} in ${m.seconds.toFixed(1)} s)`
  );
}

export const signedRetry: Scenario = {
  name: 'signed-retry',
  description:
    'signed-retry step 2 (stamp verification + privateEnabled toggle, fresh challenge each): the ' +
    'service vs a raw node:http + node:crypto server',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-signed-retry-'));
    const svc = await serviceTargets(dir);
    const raw = await rawTargets();
    try {
      const a = await profiled('signed-retry-sequential', () => sequential(svc.targets[0]));
      const b = await sequential(raw.targets[0]);
      // Each side gets about CONCURRENT_MS of step 2s at twice its sequential rate: the same count for both left the
      // raw server a window of a few hundred milliseconds, too short for a steady rate.
      const perWallet = (m: Measured) =>
        Math.max(5, Math.ceil(((m.ops / m.seconds) * 2 * (CONCURRENT_MS / 1000)) / WALLETS));
      const c = await concurrent(svc.targets, perWallet(a), 'signed-retry-concurrent');
      const d = await concurrent(raw.targets, perWallet(b), 'signed-retry-raw-concurrent');
      const rate = (m: Measured) => m.ops / m.seconds;
      const lines = [
        describe('(a) service, sequential', a),
        describe('(b) raw node:http, sequential', b),
        describe(`(c) service, ${WALLETS} wallets concurrently`, c),
        describe(`(d) raw node:http, ${WALLETS} wallets concurrently`, d),
        `(a)/(b) = ${(rate(a) / rate(b)).toFixed(3)}   (c)/(d) = ${(rate(c) / rate(d)).toFixed(3)}`,
        'the service also authenticates the platform, appends durably (synchronous=FULL) and waits ' +
          'for its read models; the raw server keeps state in memory',
      ];
      const p99 = (m: Measured) =>
        percentile(
          [...m.latencies].sort((x, y) => x - y),
          0.99,
        );
      const figures = {
        serviceSequentialPerSecond: round(rate(a)),
        rawSequentialPerSecond: round(rate(b)),
        serviceConcurrentPerSecond: round(rate(c)),
        rawConcurrentPerSecond: round(rate(d)),
        sequentialRatio: round(rate(a) / rate(b), 3),
        serviceConcurrentP99Ms: round(p99(c), 2),
        rawConcurrentP99Ms: round(p99(d), 2),
      };
      return { lines, ratio: round(rate(c) / rate(d), 3), figures };
    } finally {
      await raw.close();
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
