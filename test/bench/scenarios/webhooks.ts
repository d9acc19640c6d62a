import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService, type RunningService } from '../../../apps/api/src/service.js';
import { CreateCustomerCommand } from '#application/customers/customer-commands.js';
import { FundInternalAccountCommand } from '#application/payments/ledger/fund-commands.js';
import { CreatePlatformCommand } from '#application/platforms/platform-commands.js';
import type { Actor } from '#application/tokens.js';
import { ConfigureWebhooksCommand } from '#application/webhooks/webhook-commands.js';
import { loadConfig } from '#config/config.js';
import { streams } from '#domain/primitives.js';
import { Collections } from '#read-models/projections/collections.js';
import { startChildWorker, type ChildWorker } from '../../support/child-service.js';
import { startRedis } from '../../support/redis-server.js';
import { adapterEnv } from '../../support/service.js';
import { startRemoteReceiver, type RemoteReceiver } from '../receiver-process.js';
import { fmt, profiled, round, type Scenario } from '../scenario.js';

/** Platforms, each with its own ledger stream (one ledger serializes its transfers). */
const PLATFORMS = 8;
const CONCURRENCY = 64;
/** A burst of BURST fundings, then PACED_RATE a second for PACED_SECONDS (env overrides for a quick run). */
const BURST = Number(process.env.WEBHOOKS_BURST ?? 10_000);
const PACED_RATE = Number(process.env.WEBHOOKS_PACED_RATE ?? 1_000);
const PACED_SECONDS = Number(process.env.WEBHOOKS_PACED_SECONDS ?? 10);
/** How often the process's resident set is sampled while the burst is appended and delivered. */
const RSS_SAMPLE_MS = 100;

interface Target {
  actor: Actor;
  accountId: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function setUp(service: RunningService, receiverUrl: string): Promise<Target[]> {
  const bus = service.app.get(CommandBus);
  const targets: Target[] = [];
  for (let i = 0; i < PLATFORMS; i++) {
    const { platformId } = await bus.execute(
      new CreatePlatformCommand({ name: `bench-${i}`, sandbox: true, umaDomain: 'bench.example.com' }, 'bench'),
    );
    const actor: Actor = { platformId, actor: 'bench', correlationId: `bench-${i}` };
    await bus.execute(new ConfigureWebhooksCommand(receiverUrl, actor));
    const customerId: string = await bus.execute(
      new CreateCustomerCommand({ platformCustomerId: `bench-${i}`, customerType: 'INDIVIDUAL' }, actor),
    );
    // Projected by this process, or by the worker process in the topology: waited for.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const accounts = await service.infra.readModels.find(Collections.internalAccounts, {
        filters: [{ field: 'customerId', op: 'eq', value: customerId }],
        limit: 1,
        sortOrder: 'asc',
      });
      if (accounts.data.length > 0) {
        targets.push({ actor, accountId: accounts.data[0].id });
        break;
      }
      if (Date.now() > deadline) throw new Error(`no internal account was projected for ${customerId}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return targets;
}

/** Append time of every transfer into the targets, keyed by account and the balance it left (amount 1 each). */
async function appendTimes(service: RunningService, targets: Target[]): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const { actor, accountId } of targets) {
    let balance = 0;
    for (const event of await service.infra.eventStore.readStream(streams.ledger(actor.platformId))) {
      if (event.type === 'TransferCreated' && event.data.creditAccountId === accountId)
        times.set(`${accountId}#${++balance}`, event.recordedAt.getTime());
    }
  }
  return times;
}

/** Delivery delay of each webhook (its first receipt minus the transfer's append). */
function delays(receiver: RemoteReceiver, times: Map<string, number>, from: number): number[] {
  const out: number[] = [];
  for (const { accountId, amount, receivedAt } of receiver.receipts) {
    const appended = times.get(`${accountId}#${amount}`);
    if (appended !== undefined && appended >= from) out.push(receivedAt - appended);
  }
  return out.sort((a, b) => a - b);
}

async function waitForDeliveries(receiver: RemoteReceiver, count: number, timeoutMs: number): Promise<number> {
  await receiver.waitFor(count, timeoutMs);
  return receiver.receipts.reduce((latest, { receivedAt }) => Math.max(latest, receivedAt), 0);
}

/** CPU time a process has used (user and system), in µs; undefined where /proc does not say (not Linux). */
function processCpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the line (11 and 12 after the command's name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * The scenario on one job queue: BullMQ on a Redis of its own, or the embedded SQLite queue (the default). With
 * `topology`, the production topology: this process appends the fundings as an API process does (`RUN_WORKER=false`),
 * and a worker process on the same data directory projects, dispatches and delivers.
 */
const webhookScenario = (jobs: 'bullmq' | 'sqlite', topology = false): Scenario => ({
  name: topology ? 'webhooks-topology' : jobs === 'bullmq' ? 'webhooks' : 'webhooks-embedded',
  description:
    `events -> signed webhooks delivered through ${jobs === 'bullmq' ? 'BullMQ' : 'the embedded job queue'} to a ` +
    `receiver in another process (${PLATFORMS} platforms, embedded event store and read models` +
    `${topology ? '; the fundings appended in this process, a worker process delivering' : ''})`,
  async run() {
    const redis = jobs === 'bullmq' ? await startRedis() : undefined;
    if (jobs === 'bullmq' && !redis)
      throw new Error('redis-server is not on PATH: the webhook scenario needs it for BullMQ');
    const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
    const receiver = await startRemoteReceiver();
    let service: RunningService | undefined;
    let worker: ChildWorker | undefined;
    try {
      // What the service and, in the topology, the worker process share (the worker logs at its default level: it says
      // there when it is ready).
      const shared: Record<string, string> = {
        JOBS: jobs,
        ...(redis ? { REDIS_URL: redis.url } : {}),
        SANDBOX: 'false',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', // the local receiver
        ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}),
      };
      const config = loadConfig({
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        ...shared,
        ...(topology ? { RUN_WORKER: 'false' } : {}),
        ...adapterEnv(),
      });
      service = await startService(config);
      if (topology) worker = await startChildWorker(dir, shared);
      const targets = await setUp(service, receiver.url);
      const bus = service.app.get(CommandBus);
      const fund = (i: number) =>
        bus.execute(new FundInternalAccountCommand(targets[i % PLATFORMS].accountId, 1n, targets[i % PLATFORMS].actor));

      // (a) A burst: as many fundings as the service takes, CONCURRENCY at a time. Memory is sampled meanwhile:
      // a backlog of deliveries must wait in the queue (Redis or the queue's file), not in the process.
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), RSS_SAMPLE_MS);
      const burstStart = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < BURST) await fund(next++);
        }),
      );
      const appendedBy = Date.now();
      const burstDone = await waitForDeliveries(receiver, BURST, 300_000);
      clearInterval(sampler);
      const burstDelays = delays(receiver, await appendTimes(service, targets), burstStart);

      // (b) A steady rate well below saturation: the delay a single event sees.
      const pacedStart = Date.now();
      const paced = PACED_RATE * PACED_SECONDS;
      const elu = performance.eventLoopUtilization();
      const cpu = process.cpuUsage();
      const workerCpu = worker && processCpuMicros(worker.process.pid!);
      await profiled('webhooks-paced', async () => {
        const pending: Promise<unknown>[] = [];
        for (let i = 0; i < paced; i++) {
          const due = pacedStart + (i * 1000) / PACED_RATE;
          if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
          pending.push(fund(BURST + i));
        }
        await Promise.all(pending);
        await waitForDeliveries(receiver, BURST + paced, 300_000);
      });
      // How busy the paced phase kept the event loop's thread, and the process's CPU time per webhook (all threads).
      const pacedElu = performance.eventLoopUtilization(elu).utilization;
      const { user, system } = process.cpuUsage(cpu);
      const cpuPerWebhookUs = (user + system) / paced;
      const workerCpuNow = worker && processCpuMicros(worker.process.pid!);
      const workerCpuPerWebhookUs =
        workerCpu !== undefined && workerCpuNow !== undefined ? (workerCpuNow - workerCpu) / paced : undefined;
      const pacedDelays = delays(receiver, await appendTimes(service, targets), pacedStart);

      const duplicates = receiver.requests() - receiver.receipts.length;
      const line = (label: string, d: number[]) =>
        `${label.padEnd(44)} delay append->delivery p50 ${fmt(percentile(d, 50))} ms, p99 ` +
        `${fmt(percentile(d, 99))} ms, max ${fmt(d[d.length - 1])} ms (${d.length} webhooks)`;
      const lines = [
        `(a) burst of ${BURST}: appended at ${fmt(BURST / ((appendedBy - burstStart) / 1000))} ` +
          `events/s, delivered at ${fmt(BURST / ((burstDone - burstStart) / 1000))} webhooks/s (all ` +
          `${BURST} in ${((burstDone - burstStart) / 1000).toFixed(1)} s)`,
        line('(a) burst', burstDelays),
        `(a) resident set of the process (service and load together): ${fmt(rssBefore / 2 ** 20)} MB ` +
          `before the burst, peak ${fmt(rssPeak / 2 ** 20)} MB while it was appended and delivered`,
        line(`(b) paced at ${PACED_RATE} events/s for ${PACED_SECONDS} s`, pacedDelays),
        `(b) event loop busy ${(pacedElu * 100).toFixed(0)}% of the paced phase; process CPU ` +
          `${fmt(cpuPerWebhookUs)} µs per webhook (all threads, the load's own fundings included)` +
          (workerCpuPerWebhookUs === undefined ? '' : `; the worker process's ${fmt(workerCpuPerWebhookUs)} µs`),
        `every delivery signed (ECDSA P-256 + Standard Webhooks); ${duplicates} duplicate deliveries; ` +
          `paced p99 under 100 ms: ${percentile(pacedDelays, 99) < 100 ? 'met' : 'NOT met'}`,
      ];
      const figures = {
        burstDeliveredPerSecond: round(BURST / ((burstDone - burstStart) / 1000)),
        burstP99Ms: round(percentile(burstDelays, 99)),
        burstRssBeforeMb: round(rssBefore / 2 ** 20),
        burstRssPeakMb: round(rssPeak / 2 ** 20),
        pacedRatePerSecond: PACED_RATE,
        pacedP50Ms: round(percentile(pacedDelays, 50)),
        pacedP99Ms: round(percentile(pacedDelays, 99)),
        pacedEventLoopBusy: round(pacedElu, 3),
        pacedCpuPerWebhookUs: round(cpuPerWebhookUs),
        ...(workerCpuPerWebhookUs === undefined ? {} : { pacedWorkerCpuPerWebhookUs: round(workerCpuPerWebhookUs) }),
        duplicates,
      };
      return { lines, ratio: null, figures };
    } finally {
      await worker?.kill('SIGTERM');
      await service?.close();
      await receiver.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export const webhookDelivery = webhookScenario('bullmq');
export const webhookDeliveryEmbedded = webhookScenario('sqlite');
export const webhookDeliveryTopology = webhookScenario('sqlite', true);
