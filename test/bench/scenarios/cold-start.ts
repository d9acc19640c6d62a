import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Sqlite } from '#sqlite/driver.js';
import type { EventMetadata } from '#event-store/event-store.js';
import { chainMetadata } from '#event-store/hash-chain.js';
import { startChildService, type ChildService } from '../../support/child-service.js';
import type { Client } from '../../support/service.js';
import { signedRequest, walletSession, type WalletSession } from '../../support/wallet-session.js';
import { expectStatus, fmt, percentile, round, type Scenario } from '../scenario.js';

/** Stream sizes; `COLD_START_LEDGER_EVENTS` / `COLD_START_WALLET_EVENTS` give smaller ones for a quick run. */
const LEDGER_EVENTS = Number(process.env.COLD_START_LEDGER_EVENTS ?? 1_000_000);
const WALLET_EVENTS = Number(process.env.COLD_START_WALLET_EVENTS ?? 100_000);
const DAY = 24 * 3600 * 1000;
/** Restarts from the snapshots whose figures are reported (their median). */
const RESTARTS = Number(process.env.COLD_START_RESTARTS ?? 3);

/**
 * The service as restarted in production behind a separate worker: API only, so the projections and the webhook
 * dispatcher catching up over the events written straight into the log do not compete with the measured command.
 */
const API_ONLY = { RUN_WORKER: 'false', READ_YOUR_WRITES_TIMEOUT_MS: '0', LOG_LEVEL: 'log' };
const SESSION = { WALLET_SESSION_LIFETIME_SECONDS: String(7 * 24 * 3600) };

interface Fixture {
  accountId: string;
  session: WalletSession;
  ledgerStream: string;
  walletStream: string;
}

/** A customer with an EMBEDDED_WALLET account, a verified session, one funding and one signed operation. */
async function script(api: Client): Promise<Omit<Fixture, 'ledgerStream' | 'walletStream'>> {
  const body = { customerType: 'INDIVIDUAL', platformCustomerId: `cs-${randomUUID()}`, email: 'cold@example.com' };
  const customer = await expectStatus(api.post('/customers', body), 201, 'customer');
  const session = await walletSession(api, customer.id, 'USD');
  await expectStatus(api.post(`/sandbox/internal-accounts/${session.accountId}/fund`, { amount: 1_000 }), 200, 'fund');
  await signed(api, session, true);
  return { accountId: session.accountId, session };
}

async function signed(api: Client, session: WalletSession, privateEnabled: boolean): Promise<void> {
  const path = `/internal-accounts/${session.accountId}`;
  const { challenge, result } = await signedRequest(api, 'PATCH', path, { privateEnabled }, session);
  if (challenge.status !== 202 || result.status !== 200)
    throw new Error(`signed PATCH answered ${challenge.status} / ${result.status}: ${JSON.stringify(result.body)}`);
}

/**
 * Appends `count` events to a stream straight into the events table, with the hash chain, in large transactions:
 * `next(i)` gives the i-th event's type and data.
 */
function grow(file: string, stream: string, count: number, next: (i: number) => { type: string; data: object }) {
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  type Row = { revision: number; metadata: string };
  const last = db
    .prepare('SELECT revision, metadata FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
    .get(stream) as Row;
  const { platformId, actor, correlationId, hash } = JSON.parse(last.metadata) as EventMetadata;
  const base: EventMetadata = { platformId, actor, correlationId };
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  let revision = last.revision;
  let prevHash = String(hash);
  const at = new Date().toISOString();
  let made = 0;
  const write = db.transaction((n: number) => {
    for (let i = 0; i < n; i++) {
      const { type, data } = next(made++);
      revision += 1;
      const metadata = chainMetadata(prevHash, {
        streamName: stream,
        revision: BigInt(revision),
        type,
        data,
        metadata: base,
      });
      prevHash = String(metadata.hash);
      insert.run(randomUUID(), stream, revision, type, JSON.stringify(data), JSON.stringify(metadata), at);
    }
  });
  for (let left = count; left > 0; left -= 20_000) write(Math.min(left, 20_000));
  db.close();
}

/** The platform's ledger: transfers from its USD settlement account, a third of them pending and then posted. */
function growLedger(file: string, stream: string, accountId: string, count: number) {
  const db = new Sqlite(file, { readonly: true });
  const opened = db
    .prepare(`SELECT data FROM events WHERE stream = ? AND type = 'LedgerAccountOpened'`)
    .all(stream) as { data: string }[];
  db.close();
  const settlement = opened.map((r) => JSON.parse(r.data)).find((a) => a.allowNegative && a.currency === 'USD');
  if (!settlement) throw new Error(`no USD settlement account in ${stream}`);
  let pending = '';
  const createdAt = new Date().toISOString();
  grow(file, stream, count, (i) => {
    const id = `Transfer:${randomUUID()}`;
    const transfer = { id, debitAccountId: settlement.id, creditAccountId: accountId, amount: '1', currency: 'USD' };
    if (i % 3 === 2) return { type: 'PendingTransferPosted', data: { id, pendingId: pending, amount: '1', createdAt } };
    if (i % 3 === 1) pending = id;
    const data = { ...transfer, pending: i % 3 === 1, code: 'SANDBOX_FUNDING', createdAt };
    return { type: 'TransferCreated', data };
  });
}

/** The wallet: signed operations (a challenge, then its consumption) spread over the past year. */
function growWallet(file: string, stream: string, f: Fixture, count: number) {
  const scope = { accountId: f.accountId, platformId: '' };
  const db = new Sqlite(file, { readonly: true });
  const first = db.prepare('SELECT data FROM events WHERE stream = ? AND revision = 0').get(stream) as { data: string };
  db.close();
  scope.platformId = (JSON.parse(first.data) as { platformId: string }).platformId;
  const from = Date.now() - 366 * DAY;
  let requestId = '';
  grow(file, stream, count, (i) => {
    const t = new Date(from + Math.floor((i * 365 * DAY) / count)).toISOString();
    if (i % 2 === 1)
      return {
        type: 'SignedRetryConsumed',
        data: { ...scope, requestId, sessionId: f.session.id, consumedAt: t },
      };
    requestId = `Request:${randomUUID()}`;
    const expiresAt = new Date(Date.parse(t) + 300_000).toISOString();
    const payloadToSign = JSON.stringify({ requestId, operation: 'PATCH /internal-accounts', expiresAt });
    const target = { intent: 'EXTERNAL', operation: 'PATCH /internal-accounts', targetId: f.accountId, payloadToSign };
    return { type: 'SignedRetryChallengeIssued', data: { ...scope, requestId, ...target, issuedAt: t, expiresAt } };
  });
}

interface Restart {
  startMs: number;
  ledgerMs: number;
  ledgerWarmMs: number;
  walletMs: number;
  walletWarmMs: number;
  /** What the service logged. */
  output: string;
}

/** Starts the service, then times its first ledger command (a funding) and first signed wallet operation. */
async function restart(
  dir: string,
  f: Fixture,
  env: Record<string, string>,
  flip: () => boolean,
  before: () => Promise<unknown> = async () => undefined,
): Promise<Restart> {
  const started = performance.now();
  const service: ChildService = await startChildService(dir, { ...API_ONLY, ...SESSION, ...env }, 600_000);
  try {
    const startMs = performance.now() - started;
    const timed = async (work: () => Promise<unknown>) => {
      const t = performance.now();
      await work();
      return performance.now() - t;
    };
    const fund = () =>
      expectStatus(service.api.post(`/sandbox/internal-accounts/${f.accountId}/fund`, { amount: 1 }), 200, 'fund');
    // A process's first request compiles the request path (routing, authentication, validation) whatever it does:
    // one read goes first, so the figures below are what loading a long stream adds to a command.
    await expectStatus(service.api.get(`/internal-accounts/${f.accountId}`), 200, 'warm-up read');
    const ledgerMs = await timed(fund);
    const ledgerWarmMs = await timed(fund);
    const walletMs = await timed(() => signed(service.api, f.session, flip()));
    const walletWarmMs = await timed(() => signed(service.api, f.session, flip()));
    await before();
    return { startMs, ledgerMs, ledgerWarmMs, walletMs, walletWarmMs, output: service.output() };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nservice output:\n${service.output().slice(-3000)}`, { cause: error });
  } finally {
    await service.kill('SIGTERM');
  }
}

type SnapshotRow = { stream: string; revision: number; bytes: number };

/** Waits (bounded) until both streams have a snapshot taken after their injected events. */
async function snapshotsOf(file: string, f: Fixture, min: Record<string, number>): Promise<SnapshotRow[]> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const db = new Sqlite(file, { readonly: true });
    const rows = db
      .prepare(
        `SELECT stream, revision, length(state) + coalesce(binary_bytes, 0) AS bytes
         FROM snapshots WHERE stream IN (?, ?)`,
      )
      .all(f.ledgerStream, f.walletStream) as SnapshotRow[];
    db.close();
    if (rows.length === 2 && rows.every((r) => r.revision >= min[r.stream])) return rows;
    if (Date.now() > deadline) throw new Error(`snapshots not written: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The reference: better-sqlite3 reading one stream's rows after a revision, parsing each event's data and metadata. */
function rawRead(file: string, stream: string, after: number): { ms: number; events: number; snapshotMs: number } {
  const db = new Sqlite(file, { readonly: true });
  let t = performance.now();
  const rows = db
    .prepare('SELECT data, metadata FROM events WHERE stream = ? AND revision > ? ORDER BY revision')
    .all(stream, after) as { data: string; metadata: string }[];
  for (const row of rows) {
    JSON.parse(row.data);
    JSON.parse(row.metadata);
  }
  const ms = performance.now() - t;
  t = performance.now();
  // The snapshot as the store reads it: its row, its JSON state parsed, its binary part's file (if any) opened
  // (a restored ledger reads it by range, as its commands look transfers up).
  const snapshot = db.prepare('SELECT state, binary_file FROM snapshots WHERE stream = ?').get(stream) as
    { state: string; binary_file: string | null } | undefined;
  if (snapshot) JSON.parse(snapshot.state);
  if (snapshot?.binary_file) closeSync(openSync(join(`${file}-snapshots`, snapshot.binary_file), 'r'));
  const snapshotMs = performance.now() - t;
  db.close();
  return { ms, events: rows.length, snapshotMs };
}

export const coldStart: Scenario = {
  name: 'cold-start',
  description:
    `first commands after a restart on a ledger of ${fmt(LEDGER_EVENTS)} events and a wallet of ` +
    `${fmt(WALLET_EVENTS)} events, folding whole streams vs from snapshots, and raw better-sqlite3 reads`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cold-start-'));
    const file = join(dir, 'service.db');
    try {
      const setup = await startChildService(dir, SESSION);
      let scripted: Awaited<ReturnType<typeof script>>;
      try {
        scripted = await script(setup.api);
      } finally {
        await setup.kill('SIGTERM');
      }
      const db = new Sqlite(file, { readonly: true });
      const streamOf = (type: string) =>
        (db.prepare('SELECT stream FROM events WHERE type = ? LIMIT 1').get(type) as { stream: string }).stream;
      const f: Fixture = {
        ...scripted,
        ledgerStream: streamOf('LedgerAccountOpened'),
        walletStream: streamOf('SessionIssued'),
      };
      db.close();
      const built = performance.now();
      growLedger(file, f.ledgerStream, f.accountId, LEDGER_EVENTS);
      growWallet(file, f.walletStream, f, WALLET_EVENTS);
      const buildSeconds = (performance.now() - built) / 1000;
      let enabled = true;
      const flip = () => (enabled = !enabled);

      const whole = await restart(dir, f, { SNAPSHOT_EVERY: '0' }, flip);
      // A first run with snapshots folds the streams whole once and snapshots them after its first commands.
      const min = { [f.ledgerStream]: LEDGER_EVENTS, [f.walletStream]: WALLET_EVENTS };
      let snapshots: SnapshotRow[] = [];
      const first = await restart(dir, f, {}, flip, async () => (snapshots = await snapshotsOf(file, f, min)));
      // The service logs an encoding that held it for 100 ms or more.
      const encoded = new RegExp(`snapshot of ${f.ledgerStream} at revision \\d+: \\d+ bytes encoded in (\\d+) ms`);
      const encodeMs = Number(encoded.exec(first.output)?.[1] ?? NaN);
      // The restart from snapshots is timed RESTARTS times and each figure is their median: one first command is
      // one sample, and a disk sync or a scavenge in it moves it by tens of milliseconds on this machine.
      const restarts: Restart[] = [];
      for (let i = 0; i < RESTARTS; i++) restarts.push(await restart(dir, f, {}, flip));
      const median = (pick: (r: Restart) => number) =>
        percentile(
          restarts.map(pick).sort((a, b) => a - b),
          0.5,
        );
      const snapshotted = {
        ledgerMs: median((r) => r.ledgerMs),
        ledgerWarmMs: median((r) => r.ledgerWarmMs),
        walletMs: median((r) => r.walletMs),
        walletWarmMs: median((r) => r.walletWarmMs),
        startMs: median((r) => r.startMs),
      };
      const each = (pick: (r: Restart) => number) => restarts.map((r) => fmt(pick(r))).join(' / ');
      const ledgerSnapshot = snapshots.find((s) => s.stream === f.ledgerStream)!;
      const walletSnapshot = snapshots.find((s) => s.stream === f.walletStream)!;
      const rawLedger = rawRead(file, f.ledgerStream, ledgerSnapshot.revision);
      const rawWallet = rawRead(file, f.walletStream, walletSnapshot.revision);
      const rawLedgerWhole = rawRead(file, f.ledgerStream, -1);
      const rawWalletWhole = rawRead(file, f.walletStream, -1);

      const ms = (n: number) => `${fmt(n)} ms`;
      const lines = [
        `streams written straight into the log in ${buildSeconds.toFixed(1)} s; service restarted API-only ` +
          '(RUN_WORKER=false, READ_YOUR_WRITES_TIMEOUT_MS=0) as a child process',
        'first command after a restart | folding whole (SNAPSHOT_EVERY=0) | from a snapshot | second command',
        '---|---:|---:|---:',
        `ledger: sandbox funding (${fmt(LEDGER_EVENTS)} events) | ${ms(whole.ledgerMs)} | ` +
          `${ms(snapshotted.ledgerMs)} | ${ms(snapshotted.ledgerWarmMs)}`,
        `wallet: signed PATCH, both steps (${fmt(WALLET_EVENTS)} events) | ${ms(whole.walletMs)} | ` +
          `${ms(snapshotted.walletMs)} | ${ms(snapshotted.walletWarmMs)}`,
        `start to listening | ${ms(whole.startMs)} | ${ms(snapshotted.startMs)} |`,
        `from a snapshot: median of ${RESTARTS} restarts; each restart's first ledger command ` +
          `${each((r) => r.ledgerMs)} ms, first wallet operation ${each((r) => r.walletMs)} ms`,
        `snapshots: ledger ${(ledgerSnapshot.bytes / 1e6).toFixed(1)} MB at revision ${fmt(ledgerSnapshot.revision)} ` +
          `(encoded in ${ms(encodeMs)}, the process held meanwhile), ` +
          `wallet ${(walletSnapshot.bytes / 1e3).toFixed(1)} kB at revision ${fmt(walletSnapshot.revision)}`,
        `raw (better-sqlite3 rows + JSON.parse of data and metadata): ledger tail of ${fmt(rawLedger.events)} events ` +
          `${ms(rawLedger.ms)}, snapshot row ${ms(rawLedger.snapshotMs)}, whole stream ${ms(rawLedgerWhole.ms)}; ` +
          `wallet tail of ${fmt(rawWallet.events)} events ${ms(rawWallet.ms)}, snapshot row ` +
          `${ms(rawWallet.snapshotMs)}, whole stream ${ms(rawWalletWhole.ms)}`,
      ];
      const rawLedgerMs = rawLedger.ms + rawLedger.snapshotMs;
      const figures = {
        ledgerEvents: LEDGER_EVENTS,
        walletEvents: WALLET_EVENTS,
        ledgerWholeMs: round(whole.ledgerMs),
        ledgerSnapshotMs: round(snapshotted.ledgerMs),
        ledgerSnapshotEachMs: restarts.map((r) => round(r.ledgerMs)).join(' / '),
        ledgerWarmMs: round(snapshotted.ledgerWarmMs),
        walletWholeMs: round(whole.walletMs),
        walletSnapshotMs: round(snapshotted.walletMs),
        walletWarmMs: round(snapshotted.walletWarmMs),
        ledgerSnapshotMb: round(ledgerSnapshot.bytes / 1e6, 2),
        ledgerSnapshotEncodeMs: encodeMs,
        walletSnapshotKb: round(walletSnapshot.bytes / 1e3, 2),
        rawLedgerTailMs: round(rawLedger.ms),
        rawLedgerSnapshotMs: round(rawLedger.snapshotMs),
        rawLedgerWholeMs: round(rawLedgerWhole.ms),
        rawWalletTailMs: round(rawWallet.ms),
        rawWalletWholeMs: round(rawWalletWhole.ms),
      };
      // Service over raw: the raw snapshot row and tail read against the first ledger command from a snapshot.
      return { lines, ratio: round(rawLedgerMs / snapshotted.ledgerMs, 3), figures };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
