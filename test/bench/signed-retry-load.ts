import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { performance } from 'node:perf_hooks';
import { client, type Client } from '../support/service.js';
import { serveLoadProcess, startLoadProcess, type Measured, type TargetsMessage } from './bench-process.js';
import { NO_CHECK } from './scenario.js';

/** One wallet's resource as the clients' process gets it: its path and its session key pair (hex). */
export interface SignedRetryTarget {
  path: string;
  publicKey: string;
  privateKey: string;
}

interface Target {
  api: Client;
  path: string;
  stamper: ApiKeyStamper;
  enabled: boolean;
}

interface Prepared {
  path: string;
  body: { privateEnabled: boolean };
  headers: Record<string, string>;
}

/**
 * The signed-retry benchmark's clients, in a process of their own: step 1 and the stamp (Turnkey's `ApiKeyStamper`)
 * are prepared here, untimed, and step 2 is measured. Operations: `targets` (a server's wallets, by name), `sequential`
 * (one step 2 at a time for `ms`, each after its own step 1), `prepare` (`perTarget` challenges stamped ahead per
 * wallet), `concurrent` (the prepared step 2s, one in flight per wallet).
 */
export const startSignedRetryLoad = () => startLoadProcess(import.meta.url);

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

serveLoadProcess(import.meta.url, () => {
  const sets = new Map<string, Target[]>();
  const queues = new Map<string, Prepared[][]>();
  const targets = (name: string) => sets.get(name)!;
  return {
    targets: ({ name, baseUrl, auth, list }: TargetsMessage<SignedRetryTarget>) => {
      const api = client(baseUrl, auth, NO_CHECK);
      sets.set(
        name,
        list.map((t) => ({
          api,
          path: t.path,
          stamper: new ApiKeyStamper({ apiPublicKey: t.publicKey, apiPrivateKey: t.privateKey }),
          enabled: false,
        })),
      );
    },
    sequential: async ({ name, ms }: { name: string; ms: number }): Promise<Measured> => {
      const target = targets(name)[0];
      const latencies: number[] = [];
      const until = performance.now() + ms;
      while (performance.now() < until) latencies.push(await step2(target.api, await prepare(target)));
      return { ops: latencies.length, seconds: latencies.reduce((a, b) => a + b, 0) / 1000, latencies };
    },
    prepare: async ({ name, perTarget }: { name: string; perTarget: number }) => {
      const prepared = await Promise.all(
        targets(name).map(async (t) => {
          const q: Prepared[] = [];
          for (let i = 0; i < perTarget; i++) q.push(await prepare(t));
          return q;
        }),
      );
      queues.set(name, prepared);
    },
    concurrent: async ({ name }: { name: string }): Promise<Measured> => {
      const prepared = queues.get(name)!;
      queues.delete(name);
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        targets(name).map(async (t, i) => {
          for (const p of prepared[i]) latencies.push(await step2(t.api, p));
        }),
      );
      return { ops: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
    },
  };
});
