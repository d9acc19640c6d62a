import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { verifyChain } from '#event-store/hash-chain.js';
import { Sqlite } from '#sqlite/driver.js';
import { startRawPaymentsServer, type RawPaymentsServer } from './raw-payments.js';

const AUTH = 'Basic raw';

interface EventRow {
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

describe('the guarded raw payments reference', () => {
  let dir: string;
  let raw: RawPaymentsServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'raw-payments-'));
    raw = await startRawPaymentsServer(dir, AUTH, { guarded: true });
  });

  afterEach(async () => {
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (path: string, key: string, body?: unknown) => {
    const response = await fetch(`${raw.origin}${path}`, {
      method: 'POST',
      headers: { authorization: AUTH, 'idempotency-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  const pay = async (from: string, to: string, amount: number, keys: [string, string]) => {
    const quote = await post('/quotes', keys[0], {
      source: { accountId: from },
      destination: { accountId: to },
      lockedCurrencyAmount: amount,
    });
    expect(quote.status).toBe(201);
    const executed = await post(`/quotes/${quote.body.id}/execute`, keys[1]);
    expect(executed).toMatchObject({ status: 200, body: { status: 'COMPLETED' } });
    return executed.body as { id: string; transactionId: string };
  };

  it('records each payment as hash-chained events, the transaction document, and clears its deadline', async () => {
    const [from, to] = [raw.openAccount(1_000), raw.openAccount(0)];
    const first = await pay(from, to, 300, ['k1', 'k2']);
    await pay(from, to, 200, ['k3', 'k4']);

    const db = new Sqlite(join(dir, 'raw-payments-guarded.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT stream, revision, type, data, metadata FROM events ORDER BY position').all();
      const events = (rows as EventRow[]).map((row) => ({
        streamName: row.stream,
        revision: BigInt(row.revision),
        type: row.type,
        data: JSON.parse(row.data) as unknown,
        metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      }));
      const stream = (name: string) => events.filter((e) => e.streamName === name);
      expect(stream(`quote-${first.id}`).map((e) => e.type)).toEqual(['QuoteCreated', 'QuoteExecuted']);
      expect(stream(`transaction-${first.transactionId}`).map((e) => e.type)).toEqual([
        'TransactionCreated',
        'TransactionStatusChanged',
      ]);
      expect(stream('ledger-raw').map((e) => [e.revision, (e.data as { amount: string }).amount])).toEqual([
        [0n, '300'],
        [1n, '200'],
      ]);
      for (const name of new Set(events.map((e) => e.streamName))) expect(verifyChain(stream(name))).toBeUndefined();

      const transaction = db
        .prepare('SELECT body FROM docs WHERE collection = ? AND id = ?')
        .get('transactions', first.transactionId) as { body: string };
      expect(JSON.parse(transaction.body)).toMatchObject({ status: 'COMPLETED', quoteId: first.id });
      expect(db.prepare('SELECT count(*) AS n FROM timers').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    expect(raw.totals()).toEqual({ balances: 1_000, entries: 0 });
  });

  it("keeps a quote's deadline until it is executed", async () => {
    const [from, to] = [raw.openAccount(1_000), raw.openAccount(0)];
    const quote = await post('/quotes', 'k1', {
      source: { accountId: from },
      destination: { accountId: to },
      lockedCurrencyAmount: 5,
    });

    const db = new Sqlite(join(dir, 'raw-payments-guarded.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT id, due_at AS dueAt FROM timers').all()).toEqual([
        { id: `deadline:${quote.body.id}`, dueAt: Date.parse(quote.body.expiresAt) },
      ]);
    } finally {
      db.close();
    }
  });

  it('answers a repeated key with its first response, and refuses it with another request', async () => {
    const [from, to] = [raw.openAccount(1_000), raw.openAccount(0)];
    const input = { source: { accountId: from }, destination: { accountId: to }, lockedCurrencyAmount: 5 };
    const first = await post('/quotes', 'k1', input);

    expect(await post('/quotes', 'k1', input)).toEqual(first);
    expect(await post('/quotes', 'k1', { ...input, lockedCurrencyAmount: 6 })).toMatchObject({
      status: 422,
      body: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
  });
});
