import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Sqlite } from '#sqlite/driver.js';
import type { NewEvent } from '#event-store/event-store.js';
import { SCHEMA } from '#event-store/sqlite/event-rows.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { fmt, round, type Scenario } from '../scenario.js';

/** Time budget per measurement; the whole scenario stays well under 30 s. */
const SEQUENTIAL_MS = 2_500;
const CONCURRENT_MS = 3_000;
const RAW_MS = 2_500;
const CONCURRENCY = 64;

/** A payload the size of a real ledger event. */
function ledgerEvent(n: number): NewEvent {
  return {
    type: 'TransferCreated',
    data: {
      id: `Transfer:${randomUUID()}`,
      debitAccountId: `InternalAccount:${randomUUID()}`,
      creditAccountId: `InternalAccount:${randomUUID()}`,
      amount: String(1_000 + n),
      currency: 'USD',
      pending: false,
      code: 'SANDBOX_FUNDING',
      createdAt: new Date().toISOString(),
    },
    metadata: { platformId: `Platform:${randomUUID()}`, actor: 'bench', correlationId: randomUUID() },
  };
}

interface Measured {
  events: number;
  seconds: number;
}

const rate = (m: Measured) => m.events / m.seconds;

/** (a) One request at a time, each awaiting its acknowledgement. */
async function sequential(file: string): Promise<Measured> {
  const store = new SqliteEventStore(file);
  const started = performance.now();
  let events = 0;
  while (performance.now() - started < SEQUENTIAL_MS) {
    await store.appendToStream(`bench-${randomUUID()}`, [ledgerEvent(events)], { expectedRevision: 'no_stream' });
    events += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return { events, seconds };
}

/** (b) Many appenders, each awaiting its acknowledgement before the next append to its own stream. */
async function concurrent(file: string): Promise<Measured & { batch: number }> {
  const store = new SqliteEventStore(file);
  const started = performance.now();
  let events = 0;
  const appender = async () => {
    const stream = `bench-${randomUUID()}`;
    let expected: bigint | 'no_stream' = 'no_stream';
    while (performance.now() - started < CONCURRENT_MS) {
      expected = (await store.appendToStream(stream, [ledgerEvent(events)], { expectedRevision: expected }))
        .nextExpectedRevision;
      events += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, appender));
  const seconds = (performance.now() - started) / 1000;
  const stats = store.stats();
  await store.close();
  return { events, seconds, batch: stats.appends / stats.transactions };
}

/** A bare better-sqlite3 database with the same schema and durability as the embedded store. */
function rawDatabase(file: string) {
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);
  const insert = db.prepare(
    'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const rows = (count: number, offset: number) =>
    Array.from({ length: count }, (_, i) => {
      const e = ledgerEvent(offset + i);
      return [
        randomUUID(),
        `bench-${randomUUID()}`,
        0,
        e.type,
        JSON.stringify(e.data),
        JSON.stringify(e.metadata),
        new Date().toISOString(),
      ] as const;
    });
  const write = db.transaction((batch: ReturnType<typeof rows>) => {
    for (const row of batch) insert.run(...row);
  });
  return { db, rows, write };
}

/** (c) and (d): raw inserts in transactions of `batchSize` rows, building the same payloads as (a) and (b). */
function raw(file: string, batchSize: number, maxEvents: number): Measured {
  const { db, rows, write } = rawDatabase(file);
  let events = 0;
  const started = performance.now();
  while (performance.now() - started < RAW_MS && events < maxEvents) {
    write.immediate(rows(batchSize, events));
    events += batchSize;
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { events, seconds };
}

export const eventAppend: Scenario = {
  name: 'event-append',
  description:
    'embedded event store appends (WAL, synchronous=FULL): sequential, group commit, raw better-sqlite3 references',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-event-append-'));
    try {
      const a = await sequential(join(dir, 'a.db'));
      const b = await concurrent(join(dir, 'b.db'));
      const batch = Math.max(1, Math.round(b.batch));
      const c = raw(join(dir, 'c.db'), batch, b.events);
      const d = raw(join(dir, 'd.db'), 1, Number.POSITIVE_INFINITY);
      const line = (label: string, m: Measured, detail: string) =>
        `${label.padEnd(50)} ${fmt(rate(m)).padStart(8)} events/s  (${m.events} events in ` +
        `${m.seconds.toFixed(1)} s${detail})`;
      const lines = [
        line('(a) embedded, 1 event per request, sequential', a, ''),
        line(
          `(b) embedded, group commit, ${CONCURRENCY} concurrent appenders`,
          b,
          `, ${b.batch.toFixed(1)} appends per transaction`,
        ),
        line(`(c) raw better-sqlite3, ${batch} rows per transaction`, c, ''),
        line('(d) raw better-sqlite3, 1 row per transaction', d, ''),
        `(b)/(c) = ${(rate(b) / rate(c)).toFixed(2)}  (group commit against raw inserts in ` +
          `transactions of the same size)`,
        `(b)/(d) = ${(rate(b) / rate(d)).toFixed(2)}  (group commit against one transaction per row)`,
      ];
      const figures = {
        sequentialPerSecond: round(rate(a)),
        groupCommitPerSecond: round(rate(b)),
        rawBatchedPerSecond: round(rate(c)),
        rawOneRowPerSecond: round(rate(d)),
        appendsPerTransaction: round(b.batch),
      };
      return { lines, ratio: round(rate(b) / rate(c), 3), figures };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
