import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { createECDH, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from '../../support/service.js';
import {
  cpuText,
  warmUntilSteady,
  warmupReport,
  withServerCpu,
  type BenchProcess,
  type Measured,
  type ServerMeasured,
} from '../bench-process.js';
import { guardedAuth, startRawSignedRetryProcess } from '../raw-signed-retry.js';
import { startServiceProcess } from '../service-process.js';
import { startSignedRetryLoad, type SignedRetryTarget } from '../signed-retry-load.js';
import { fmt, NO_CHECK, percentile, round, type Scenario } from '../scenario.js';

/** Time budget per measurement; the whole scenario stays well under 30 s. */
const SEQUENTIAL_MS = 3_000;
const CONCURRENT_MS = 3_000;
const WALLETS = 16;
/** A warm-up window (see warmUntilSteady). */
const WARMUP_WINDOW_MS = 1_000;

/** The service's wallets, opened and verified over HTTP: each account's path and its session key pair. */
async function serviceWallets(url: string, auth: string): Promise<SignedRetryTarget[]> {
  const api = client(url, auth, NO_CHECK);
  const targets: SignedRetryTarget[] = [];
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
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
    targets.push({
      path: `/internal-accounts/${account.body.id}`,
      publicKey: ecdh.getPublicKey('hex', 'compressed'),
      privateKey,
    });
  }
  return targets;
}

/** The raw server's wallets: a resource per wallet registered in its process with a fresh key pair. */
async function rawWallets(raw: BenchProcess<{ origin: string }>): Promise<SignedRetryTarget[]> {
  const targets = Array.from({ length: WALLETS }, () => {
    const key = generateP256KeyPair();
    return {
      path: `/internal-accounts/InternalAccount:${randomUUID()}`,
      publicKey: key.publicKey,
      privateKey: key.privateKey,
    };
  });
  await raw.call(
    'register',
    targets.map((t) => ({
      path: `/2025-10-13${t.path}`,
      sessionPublicKey: t.publicKey,
      state: { id: t.path.split('/').pop(), privateEnabled: false },
    })),
  );
  return targets;
}

const sortedLatencies = (m: Measured) => [...m.latencies].sort((x, y) => x - y);

function describe(label: string, m: Measured): string {
  const sorted = sortedLatencies(m);
  const cpu = 'cpuPerOpMicros' in m ? `  ${cpuText(m as ServerMeasured, 'step 2')}` : '';
  return (
    `${label.padEnd(44)} ${fmt(m.ops / m.seconds).padStart(7)} step-2/s  p50 ` +
    `${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${percentile(sorted, 0.99).toFixed(2)} ms${cpu}  ` +
    `(${m.ops} in ${m.seconds.toFixed(1)} s)`
  );
}

/** One side's figures: sequential, then WALLETS at once (its server's CPU time measured over that window). */
async function measureSide(
  load: BenchProcess<unknown>,
  server: BenchProcess<unknown>,
  name: string,
): Promise<{ sequential: Measured; concurrent: ServerMeasured; warmup: number[] }> {
  const sequential = await load.call<Measured>('sequential', { name, ms: SEQUENTIAL_MS });
  // About `ms` of step 2s at twice the side's sequential rate: the same count for both left the raw server a window of
  // a few hundred milliseconds, too short for a steady rate.
  const prepare = (ms: number) => () =>
    load.call('prepare', {
      name,
      perTarget: Math.max(5, Math.ceil(((sequential.ops / sequential.seconds) * 2 * (ms / 1000)) / WALLETS)),
    });
  const concurrently = () => load.call<Measured>('concurrent', { name });
  const warmup = await warmUntilSteady(server, concurrently, prepare(WARMUP_WINDOW_MS));
  await prepare(CONCURRENT_MS)();
  const concurrent = await withServerCpu(server, `signed-retry-${name}-concurrent`, concurrently);
  return { sequential, concurrent, warmup };
}

export const signedRetry: Scenario = {
  name: 'signed-retry',
  description:
    'signed-retry step 2 (stamp verification + privateEnabled toggle, fresh challenge each), clients in a process ' +
    'of their own: the service (its own process) vs a raw node:http + node:crypto server (its own process)',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-signed-retry-'));
    const service = await startServiceProcess(dir);
    const raw = await startRawSignedRetryProcess();
    const auth = guardedAuth();
    const guardedServer = await startRawSignedRetryProcess({ guarded: true, dir, auth });
    const load = await startSignedRetryLoad();
    try {
      const { url } = service.ready;
      const list = await serviceWallets(url, service.ready.auth);
      await load.call('targets', { name: 'service', baseUrl: url, auth: service.ready.auth, list });
      const rawBase = `${raw.ready.origin}/2025-10-13`;
      await load.call('targets', { name: 'raw', baseUrl: rawBase, list: await rawWallets(raw) });
      const guardedBase = `${guardedServer.ready.origin}/2025-10-13`;
      await load.call('targets', {
        name: 'guarded',
        baseUrl: guardedBase,
        auth,
        list: await rawWallets(guardedServer),
      });
      const ours = await measureSide(load, service, 'service');
      const theirs = await measureSide(load, raw, 'raw');
      const guarded = await measureSide(load, guardedServer, 'guarded');
      const rate = (m: Measured) => m.ops / m.seconds;
      const cpuRatio = theirs.concurrent.cpuPerOpMicros / ours.concurrent.cpuPerOpMicros;
      const [serviceCpu, rawCpu, guardedCpu] = [ours, theirs, guarded].map((side) => side.concurrent.cpuPerOpMicros);
      const warmups = warmupReport(
        `warm-up with ${WALLETS} wallets until steady, server CPU per step 2 by window of about ` +
          `${WARMUP_WINDOW_MS / 1000} s`,
        ours.warmup,
        theirs.warmup,
      );
      const lines = [
        describe('(a) service, sequential', ours.sequential),
        describe('(b) raw node:http, sequential', theirs.sequential),
        describe(`(c) service, ${WALLETS} wallets concurrently`, ours.concurrent),
        describe(`(d) raw node:http, ${WALLETS} wallets concurrently`, theirs.concurrent),
        describe(`(e) raw with the guarantees, ${WALLETS} wallets`, guarded.concurrent),
        `(a)/(b) = ${(rate(ours.sequential) / rate(theirs.sequential)).toFixed(3)}   (c)/(d) = ` +
          `${(rate(ours.concurrent) / rate(theirs.concurrent)).toFixed(3)}   CPU per step 2, raw/service = ` +
          `${cpuRatio.toFixed(3)}`,
        `raw with the service's guarantees (authenticated, each step an event chained by hash, synced before its ` +
          `reply): CPU per step 2 ${fmt(guardedCpu)} µs, ${(guardedCpu / rawCpu).toFixed(2)}x the raw's; ` +
          `guarded/service ${(guardedCpu / serviceCpu).toFixed(3)}; raw/guarded ${(rawCpu / guardedCpu).toFixed(3)}`,
        warmups.line,
        'the service also authenticates the platform, appends durably (synchronous=FULL) and waits ' +
          'for its read models; the raw server keeps state in memory',
      ];
      const p = (m: Measured, q: number) => round(percentile(sortedLatencies(m), q), 2);
      const figures = {
        serviceSequentialPerSecond: round(rate(ours.sequential)),
        rawSequentialPerSecond: round(rate(theirs.sequential)),
        sequentialRatio: round(rate(ours.sequential) / rate(theirs.sequential), 3),
        serviceConcurrentPerSecond: round(rate(ours.concurrent)),
        serviceConcurrentP50Ms: p(ours.concurrent, 0.5),
        serviceConcurrentP99Ms: p(ours.concurrent, 0.99),
        serviceCpuPerOpMicros: round(ours.concurrent.cpuPerOpMicros),
        serviceKernelCpuPerOpMicros: round(ours.concurrent.kernelCpuPerOpMicros),
        rawConcurrentPerSecond: round(rate(theirs.concurrent)),
        rawConcurrentP50Ms: p(theirs.concurrent, 0.5),
        rawConcurrentP99Ms: p(theirs.concurrent, 0.99),
        rawCpuPerOpMicros: round(theirs.concurrent.cpuPerOpMicros),
        rawKernelCpuPerOpMicros: round(theirs.concurrent.kernelCpuPerOpMicros),
        guardedConcurrentPerSecond: round(rate(guarded.concurrent)),
        guardedCpuPerOpMicros: round(guardedCpu),
        guardedKernelCpuPerOpMicros: round(guarded.concurrent.kernelCpuPerOpMicros),
        guardedCpuRatio: round(guardedCpu / serviceCpu, 3),
        throughputRatio: round(rate(ours.concurrent) / rate(theirs.concurrent), 3),
        ...warmups.figures,
      };
      return { lines, ratio: round(cpuRatio, 3), figures };
    } finally {
      await load.close();
      await guardedServer.close();
      await raw.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
