import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Sqlite } from '#sqlite/driver.js';
import { startService } from '../../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { OffsetClock } from '#domain/clock.js';
import type { EventMetadata } from '#event-store/event-store.js';
import { GENESIS_HASH, chainMetadata } from '#event-store/hash-chain.js';
import { adapterEnv, basicAuth, client, type Client } from '../../support/service.js';
import { signedRequest, walletSession, type WalletSession } from '../../support/wallet-session.js';
import { expectStatus, fmt, round, type Scenario } from '../scenario.js';

/** Events in the full log; `REPLAY_EVENTS` gives a smaller one for a quick run. Measured at a quarter and at all. */
const TOTAL = Number(process.env.REPLAY_EVENTS ?? 1_000_000);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

interface TemplateRow {
  id: string;
  stream: string;
  type: string;
  data: string;
  metadata: string;
}

/** Cards of customers with embedded-wallet accounts: issued, provisioned (the clock moved past the delay), frozen. */
async function scriptCards(api: Client, clock: OffsetClock, promoteDue: () => Promise<unknown>): Promise<void> {
  const cards = [] as { id: string; session: WalletSession }[];
  for (let i = 0; i < 2; i++) {
    const body = {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `rc-${randomUUID()}`,
      email: `r${i}@example.com`,
      currencies: ['USD'],
    };
    const customer = await expectStatus(api.post('/customers', body), 201, 'card customer');
    const session = await walletSession(api, customer.id, 'USD');
    const card = { customerId: customer.id, form: 'VIRTUAL', fundingSources: [session.accountId] };
    cards.push({ id: (await expectStatus(api.post('/cards', card), 201, 'card')).id, session });
  }
  clock.advance(CARD_ISSUANCE_DELAY_MS);
  await promoteDue();
  for (
    let tries = 0;
    (await expectStatus(api.get('/cards?state=ACTIVE'), 200, 'cards')).totalCount < cards.length;
    tries++
  ) {
    if (tries > 500) throw new Error('cards were not provisioned');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const state of ['FROZEN', 'ACTIVE']) {
    const { result } = await signedRequest(api, 'PATCH', `/cards/${cards[0].id}`, { state }, cards[0].session);
    if (result.status !== 200) throw new Error(`card ${state}: ${result.status} ${JSON.stringify(result.body)}`);
  }
}

/** A real history made over HTTP: customers with accounts, fundings, quotes executed between them. */
async function scriptHistory(api: Client): Promise<void> {
  const account = async () => {
    const body = { customerType: 'INDIVIDUAL', platformCustomerId: `r-${randomUUID()}`, currencies: ['USD'] };
    const c = await expectStatus(api.post('/customers', body), 201, 'customer');
    const path = `/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`;
    const accounts = await expectStatus(api.get(path), 200, 'accounts');
    return accounts.data[0].id as string;
  };
  const ids = [] as string[];
  for (let i = 0; i < 6; i++) ids.push(await account());
  for (const id of ids.slice(0, 3)) {
    await expectStatus(api.post(`/sandbox/internal-accounts/${id}/fund`, { amount: 1_000_000 }), 200, 'fund');
  }
  for (let i = 0; i < 6; i++) {
    const body = {
      source: { sourceType: 'ACCOUNT', accountId: ids[i % 3] },
      destination: { destinationType: 'ACCOUNT', accountId: ids[3 + (i % 3)] },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100 + i,
    };
    const quote = await expectStatus(api.post('/quotes', body, { 'Idempotency-Key': randomUUID() }), 201, 'quote');
    await expectStatus(
      api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': randomUUID() }),
      200,
      'execute',
    );
  }
}

/**
 * Grows the log to `target` events by copying the scripted history with fresh ids (uuids other than the platform's
 * are remapped per copy, so each copy is new customers, accounts, quotes...; the platform's own streams, such as
 * its ledger, continue). Written straight into the events table with the hash chain, in large transactions.
 */
type Heads = Map<string, { revision: number; hash: string }>;

function grow(file: string, template: TemplateRow[], shared: Set<string>, heads: Heads, target: number) {
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  const count = () => (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const copies = template.filter((r) => !r.stream.startsWith('platform-'));
  let total = count();
  const writeCopy = db.transaction((n: number) => {
    for (let c = 0; c < n && total < target; c++) {
      const map = new Map<string, string>();
      const remap = (text: string) =>
        text.replace(UUID, (u) => (shared.has(u) ? u : (map.get(u) ?? (map.set(u, randomUUID()), map.get(u)!))));
      for (const row of copies) {
        if (total >= target) break;
        const stream = remap(row.stream);
        const data = JSON.parse(remap(row.data)) as Record<string, unknown>;
        const head = heads.get(stream);
        const revision = head ? head.revision + 1 : 0;
        const prevHash = head ? head.hash : GENESIS_HASH;
        const metadata = chainMetadata(prevHash, {
          streamName: stream,
          revision: BigInt(revision),
          type: row.type,
          data,
          metadata: JSON.parse(remap(row.metadata)) as EventMetadata,
        });
        const at = new Date().toISOString();
        insert.run(remap(row.id), stream, revision, row.type, JSON.stringify(data), JSON.stringify(metadata), at);
        heads.set(stream, { revision, hash: metadata.hash as string });
        total += 1;
      }
    }
  });
  while (total < target) writeCopy(Math.max(1, Math.floor(20_000 / copies.length)));
  db.close();
}

/** `npm run cli -- read-models:rebuild` in its own process: wall time and that process's peak RSS. */
function rebuild(dataDir: string): { seconds: number; wallSeconds: number; rssMb: number } {
  const reportRss = "process.on('exit',()=>process.stderr.write('maxrss '+process.resourceUsage().maxRSS+'\\n'))";
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      // REPLAY_CPU_PROFILE=DIR writes a V8 CPU profile of each rebuild there (open it in Chrome DevTools or
      // speedscope).
      ...(process.env.REPLAY_CPU_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.REPLAY_CPU_PROFILE] : []),
      '--import',
      `data:text/javascript,${encodeURIComponent(reportRss)}`,
      resolve('dist/apps/api/src/cli.js'),
      'read-models:rebuild',
      '--json',
    ],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`read-models:rebuild exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const rss = /maxrss (\d+)/.exec(run.stderr);
  // The command's own timing of the rebuild (without process start-up), and the wall time of the whole process.
  const { ms } = JSON.parse(run.stdout) as { ms: number };
  return { seconds: ms / 1000, wallSeconds: seconds, rssMb: rss ? Number(rss[1]) / 1024 : NaN };
}

/** The reference: a bare better-sqlite3 scan of the same log in position order, folding every event into memory. */
function rawScanAndFold(file: string): { seconds: number; events: number } {
  const db = new Sqlite(file, { readonly: true });
  const started = performance.now();
  const perStream = new Map<string, { revision: number; type: string; amount: number }>();
  let events = 0;
  type Row = { stream: string; revision: number; type: string; data: string; metadata: string };
  const scan = db.prepare('SELECT stream, revision, type, data, metadata FROM events ORDER BY position');
  for (const row of scan.iterate() as Iterable<Row>) {
    const data = JSON.parse(row.data) as { amount?: unknown };
    JSON.parse(row.metadata);
    const state = perStream.get(row.stream) ?? { revision: -1, type: '', amount: 0 };
    state.revision = row.revision;
    state.type = row.type;
    if (typeof data.amount === 'number') state.amount += data.amount;
    perStream.set(row.stream, state);
    events += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { seconds, events };
}

export const replay: Scenario = {
  name: 'replay',
  description:
    `read-models:rebuild over a log of ${fmt(TOTAL)} events (customers, accounts, fundings, quotes, cards) ` +
    'vs a raw better-sqlite3 scan-and-fold of the same log',
  async run() {
    // REPLAY_KEEP=1 leaves the data directory (printed) for profiling a rebuild by hand.
    const dir = mkdtempSync(join(tmpdir(), 'bench-replay-'));
    try {
      const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...adapterEnv() });
      const clock = new OffsetClock();
      const service = await startService(config, { clock });
      try {
        const api = client(service.url, basicAuth(service.sandbox!.tokenId, service.sandbox!.clientSecret));
        await scriptHistory(api);
        await scriptCards(api, clock, () => service.infra.jobs.promoteDue());
      } finally {
        await service.close();
      }
      const file = join(dir, 'service.db');
      const db = new Sqlite(file, { readonly: true });
      const select = db.prepare('SELECT id, stream, revision, type, data, metadata FROM events ORDER BY position');
      const rows = select.all() as (TemplateRow & { revision: number })[];
      const template: TemplateRow[] = rows;
      const heads: Heads = new Map();
      for (const row of rows) {
        const { hash } = JSON.parse(row.metadata) as EventMetadata;
        heads.set(row.stream, { revision: row.revision, hash: String(hash) });
      }
      db.close();
      // The platform's identity stays: its streams (ledger, settings) are shared by every copy.
      const platformStreams = template.filter((r) => r.stream.startsWith('platform-'));
      const shared = new Set(platformStreams.flatMap((r) => r.stream.match(UUID) ?? []));
      const types = new Set(template.map((r) => r.type));
      const lines = [
        `template: ${template.length} events of ${types.size} types from a scripted HTTP history, ` +
          'copied with fresh ids',
      ];
      lines.push(
        '   events | service events/s (s) | raw events/s (s) | service/raw | peak RSS | log built in',
        '---------:|---------------------:|-----------------:|------------:|---------:|------------:',
      );
      const rss: number[] = [];
      const ratios: number[] = [];
      const figures: Record<string, number> = {};
      for (const size of [Math.floor(TOTAL / 4), TOTAL]) {
        const built = performance.now();
        grow(file, template, shared, heads, size);
        const buildSeconds = (performance.now() - built) / 1000;
        const rebuilt = rebuild(dir);
        const raw = rawScanAndFold(file);
        const replayRate = raw.events / rebuilt.seconds;
        const rawRate = raw.events / raw.seconds;
        rss.push(rebuilt.rssMb);
        ratios.push(replayRate / rawRate);
        Object.assign(figures, {
          [`events${size}ServicePerSecond`]: round(replayRate),
          [`events${size}RawPerSecond`]: round(rawRate),
          [`events${size}PeakRssMb`]: round(rebuilt.rssMb),
        });
        lines.push(
          `${fmt(raw.events).padStart(9)} | ${fmt(replayRate)} (${rebuilt.seconds.toFixed(1)} s) | ` +
            `${fmt(rawRate)} (${raw.seconds.toFixed(1)} s) | ${(replayRate / rawRate).toFixed(3)}x | ` +
            `${rebuilt.rssMb.toFixed(0)} MB | ${buildSeconds.toFixed(1)} s`,
        );
      }
      const growth = rss[1] / rss[0] - 1;
      const flat = Math.abs(growth) <= 0.2 ? 'yes' : 'NO';
      lines.push(
        `service/raw at ${fmt(TOTAL)} events: ${ratios[1].toFixed(3)}x (target at least 0.5x: ` +
          `${ratios[1] >= 0.5 ? 'met' : 'NOT met'}); peak RSS ${fmt(TOTAL)} vs ${fmt(TOTAL / 4)}: ` +
          `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% (flat within 20%: ${flat})`,
        'service: `read-models:rebuild` in its own process (rate from the time it reports, without process start-up; ' +
          'peak RSS of that process); raw: better-sqlite3 scan of the same log in position order, parsing every ' +
          "event's data and metadata and folding it per stream in memory",
      );
      if (process.env.REPLAY_KEEP) lines.push(`data kept in ${dir}`);
      return { lines, ratio: round(ratios[1], 3), figures };
    } finally {
      if (!process.env.REPLAY_KEEP) rmSync(dir, { recursive: true, force: true });
    }
  },
};
