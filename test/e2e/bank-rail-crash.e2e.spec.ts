import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { streams } from '#domain/primitives.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { readPain001 } from '#rails/iso20022/index.js';
import { startChildService, startChildWorker, type ChildWorker } from '../support/child-service.js';
import { useDataDir } from '../support/fixture.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { poll } from '../support/poll.js';
import { basicAuth, client } from '../support/service.js';
import { filesIn, RailDriver, type RailCustomer } from './bank-rail-support.js';

/** A worker killed on purpose answers within this; the next one takes over a dead one's job leases (30 s) after. */
const WAIT_MS = 90_000;
const PAYOUTS = [2_000, 3_000, 4_500];
const FUNDS = 20_000;

/** `npm run cli -- <args>` on a data directory (the build is current: jest runs after it). */
function cli(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [resolve('dist/apps/api/src/cli.js'), ...args], {
    env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A production platform's rail on a data directory of its own: an API process (no worker duties) that stays up, and
 * worker processes that the test starts, kills with SIGKILL (FAULT_INJECT) and starts again.
 */
function useRailProcesses(prefix: string) {
  const running: ChildWorker[] = [];
  const dataDir = useDataDir(prefix, async () => {
    for (const p of running.splice(0).reverse()) await p.kill();
  });
  let platformId = '';
  let rail: RailDriver;
  const worker = async (env: Record<string, string> = {}) => {
    const started = await startChildWorker(dataDir, { RAILS_POLL_MS: '20', ...env });
    running.push(started);
    return started;
  };
  return {
    dataDir,
    get platformId() {
      return platformId;
    },
    get rail() {
      return rail;
    },
    worker,
    /** A production platform created from the CLI, the API process, a worker, and the platform's USD rail. */
    async start(): Promise<ChildWorker> {
      const created = cli(dataDir, 'platform:create', '--name', 'Rail Crash', '--json');
      expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
      const credentials = JSON.parse(created.stdout) as { platformId: string; tokenId: string; clientSecret: string };
      platformId = credentials.platformId;
      const service = await startChildService(dataDir, { RUN_WORKER: 'false' });
      running.push(service);
      const first = await worker();
      const api = client(service.url, basicAuth(credentials.tokenId, credentials.clientSecret));
      await poll(
        async () => (await api.get('/config')).status,
        (status) => status === 200,
        { what: 'the platform token to be known', timeoutMs: WAIT_MS },
      );
      rail = await RailDriver.configure(api, join(dataDir, 'bank-state.json'), WAIT_MS);
      return first;
    },
    /** Stops every process (SIGTERM), so that the data directory can be read whole. */
    async stopAll() {
      for (const p of running.splice(0).reverse()) await p.kill('SIGTERM');
    },
  };
}

/** Waits for a worker started with FAULT_INJECT to kill itself. */
async function killedItself(worker: ChildWorker): Promise<void> {
  if (worker.process.exitCode === null && worker.process.signalCode === null)
    await new Promise<void>((done) => worker.process.once('exit', () => done()));
  expect(worker.process.signalCode).toBe('SIGKILL');
}

/** The events of the platform's USD rail stream, read from the data directory (other processes may be writing). */
async function railStream(dataDir: string, platformId: string): Promise<{ type: string; data: any }[]> {
  const store = new SqliteEventStore(join(dataDir, 'service.db'));
  try {
    return await store.readStream(streams.bankRail(platformId, 'USD'));
  } finally {
    await store.close();
  }
}

/** The ledger balanced, the rail stream's events by type, and `audit verify` passing from the CLI. */
async function verifyDataDir(dataDir: string, platformId: string) {
  const store = new SqliteEventStore(join(dataDir, 'service.db'));
  let events: { type: string; data: any }[];
  try {
    await expectBalancedLedger(store, platformId);
    events = await store.readStream(streams.bankRail(platformId, 'USD'));
  } finally {
    await store.close();
  }
  const audit = cli(dataDir, 'audit', 'verify', '--json');
  const findings = audit.stderr.split('\n').filter((l) => l.startsWith('finding'));
  expect({ status: audit.status, findings }).toEqual({ status: 0, findings: [] });
  expect(JSON.parse(audit.stdout)).toMatchObject({ ok: true, findings: [] });
  return (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
}

/** A customer funded with FUNDS, and its payouts of PAYOUTS to an external account the bank books, PROCESSING. */
async function payouts(rail: RailDriver): Promise<{ customer: RailCustomer; ids: string[]; endToEndIds: string[] }> {
  const customer = await rail.funded(FUNDS);
  const destination = await rail.external(customer.id, '201');
  const ids: string[] = [];
  for (const amount of PAYOUTS) ids.push((await rail.payout(customer.usd, destination, amount)).transactionId);
  const endToEndIds: string[] = [];
  for (const id of ids) endToEndIds.push((await rail.transaction(id)).reconciliationInstructions.reference);
  return { customer, ids, endToEndIds };
}

/** Runs the bank until every payout is COMPLETED (files written late are taken by a later run). */
async function bookedByTheBank(rail: RailDriver, ids: string[]): Promise<void> {
  await poll(
    async () => {
      await rail.bank();
      return Promise.all(ids.map(async (id) => (await rail.transaction(id)).status));
    },
    (statuses) => statuses.every((s) => s === 'COMPLETED'),
    { what: 'every payout COMPLETED', timeoutMs: WAIT_MS, intervalMs: 50 },
  );
}

describe('bank rail: a worker killed after writing a pain.001, before recording it', () => {
  const p = useRailProcesses('payments-rail-crash-file-');

  it('sends each payout in exactly one message; the bank books each once; each completes once', async () => {
    const first = await p.start();
    const customer = await p.rail.funded(FUNDS);
    const destination = await p.rail.external(customer.id, '201');
    await first.kill('SIGTERM');
    // No worker runs: the payouts wait, PROCESSING, until the worker that dies takes them.
    const ids: string[] = [];
    for (const amount of PAYOUTS) ids.push((await p.rail.payout(customer.usd, destination, amount)).transactionId);
    const faulty = await p.worker({ FAULT_INJECT: 'rail-file-written' });
    await killedItself(faulty);
    const [crashed, ...others] = (await p.rail.outboxFiles()).filter((f) => f.name.startsWith('CT-'));
    expect(others).toEqual([]);
    const crashedIn = readPain001(crashed.xml).payments.flatMap((x) => x.transfers.map((t) => t.endToEndId));
    expect(crashedIn.length).toBeGreaterThan(0);

    await p.worker();
    const endToEndIds: string[] = [];
    for (const id of ids) endToEndIds.push((await p.rail.transaction(id)).reconciliationInstructions.reference);
    for (const endToEndId of endToEndIds) await p.rail.outboxHolds(endToEndId);
    await bookedByTheBank(p.rail, ids);
    expect(await p.rail.balance(customer.usd)).toBe(FUNDS - PAYOUTS.reduce((a, b) => a + b, 0));

    // Each payout in one message; a message written again is the same bytes.
    const messages = new Map<string, Set<string>>();
    const bytes = new Map<string, Set<string>>();
    for (const file of (await p.rail.outboxFiles()).filter((f) => /(^|\/)CT-/.test(f.name))) {
      const pain = readPain001(file.xml);
      bytes.set(pain.messageId, (bytes.get(pain.messageId) ?? new Set()).add(file.xml));
      for (const t of pain.payments.flatMap((x) => x.transfers))
        messages.set(t.endToEndId, (messages.get(t.endToEndId) ?? new Set()).add(pain.messageId));
    }
    expect(endToEndIds.map((id) => [id, messages.get(id)?.size])).toEqual(endToEndIds.map((id) => [id, 1]));
    expect([...bytes.values()].map((contents) => contents.size)).toEqual([...bytes.keys()].map(() => 1));
    const bank = JSON.parse(await readFile(p.rail.folders.state, 'utf8'));
    const booked = bank.booked.flatMap((b: any) => b.entry.details.map((d: any) => d.endToEndId));
    expect(endToEndIds.map((id) => booked.filter((b: string) => b === id).length)).toEqual(endToEndIds.map(() => 1));

    await p.stopAll();
    const events = await verifyDataDir(p.dataDir, p.platformId);
    const bookings = events('BankFileReceived')
      .flatMap((d) => d.file.effects)
      .filter((e: any) => e.action === 'BOOK')
      .map((e: any) => e.endToEndId);
    expect(endToEndIds.map((id) => bookings.filter((b: string) => b === id).length)).toEqual(endToEndIds.map(() => 1));
    expect(events('BankFileQuarantined')).toEqual([]);
    // The file the worker died after writing was recorded as written once, by the next worker, with the same name.
    const created = events('BankFileCreated').map((d) => d.file.messageId as string);
    const recorded = events('BankFileWritten').map((d) => d.messageId as string);
    expect(recorded.sort()).toEqual([...new Set(created)].sort());
    expect(created).toContain(crashed.name.replace(/\.xml$/, ''));
    expect(crashedIn.every((id) => endToEndIds.includes(id))).toBe(true);
  }, 240_000);
});

describe.each(['rail-inbox-recorded', 'rail-inbox-halfway'])(
  'bank rail: a worker killed while taking a notification (%s)',
  (fault) => {
    const p = useRailProcesses(`payments-rail-crash-${fault}-`);

    it('applies every booking once after a restart, and archives the file into processed/', async () => {
      let worker = await p.start();
      const { customer, ids, endToEndIds } = await payouts(p.rail);
      for (const endToEndId of endToEndIds) await p.rail.outboxHolds(endToEndId);
      // The bank's answers go aside; its status reports are taken first, its notification by the worker that dies.
      const aside = join(p.dataDir, 'aside');
      await mkdir(aside, { recursive: true });
      const { written } = await p.rail.bank({ ...p.rail.folders, inbox: aside });
      const [notification] = written.filter((n) => n.includes('.camt.054.'));
      for (const name of written.filter((n) => n !== notification))
        await rename(join(aside, name), join(p.rail.folders.inbox, name));
      await p.rail.inboxEmpty(WAIT_MS);
      await worker.kill('SIGTERM');
      worker = await p.worker({ FAULT_INJECT: fault });
      await rename(join(aside, notification), join(p.rail.folders.inbox, notification));
      await killedItself(worker);
      expect(await filesIn(p.rail.folders.inbox)).toEqual([notification]);
      // Recorded with its effects, not applied.
      const atCrash = await railStream(p.dataDir, p.platformId);
      expect(atCrash.filter((e) => e.type === 'BankFileReceived').map((e) => e.data.file.fileName)).toContain(
        notification,
      );
      const sha256 = atCrash.find((e) => e.data.file?.fileName === notification)!.data.file.sha256;
      expect(atCrash.filter((e) => e.type === 'BankFileApplied' && e.data.sha256 === sha256)).toEqual([]);

      await p.worker();
      await p.rail.inboxEmpty(WAIT_MS);
      for (const id of ids) await p.rail.settles(id, 'COMPLETED');
      expect(await p.rail.archived('processed')).toEqual(expect.arrayContaining(written));
      expect(await p.rail.archived('quarantine')).toEqual([]);
      expect(await p.rail.balance(customer.usd)).toBe(FUNDS - PAYOUTS.reduce((a, b) => a + b, 0));

      await p.stopAll();
      const events = await verifyDataDir(p.dataDir, p.platformId);
      const received = events('BankFileReceived').filter((d) => d.file.fileName === notification);
      expect(received.map((d) => d.file.effects.map((e: any) => `${e.endToEndId} ${e.action}`).sort())).toEqual([
        endToEndIds.map((id) => `${id} BOOK`).sort(),
      ]);
      expect(events('BankFileApplied').filter((d) => d.sha256 === received[0].file.sha256)).toHaveLength(1);
      expect(events('BankFileQuarantined')).toEqual([]);
    }, 240_000);
  },
);
