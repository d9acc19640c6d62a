import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Sqlite } from '#sqlite/driver.js';
import { requestBody } from '../support/request-body.js';
import { LOG_SCHEMA, guardedLog, perTurn, requestHashOf, type GuardedLog } from './raw-guarded-log.js';
import { isMain, serveBenchProcess, startBenchProcess, type BenchProcess } from './bench-process.js';

export interface RawPaymentsServer {
  /** Origin, e.g. http://127.0.0.1:1234; routes are `/quotes` and `/quotes/{id}/execute`. */
  origin: string;
  /** Opens an account with `balance` (smallest unit) and returns its id. */
  openAccount(balance: number): string;
  /** Sum of all balances and of all ledger entries (both must stay what the accounts were opened with). */
  totals(): { balances: number; entries: number };
  close(): Promise<void>;
}

/** Who the guarded reference's events are recorded as. */
const ACTOR = 'Token:raw';

const SCHEMA = `
CREATE TABLE accounts (id TEXT PRIMARY KEY, currency TEXT NOT NULL, balance INTEGER NOT NULL);
CREATE TABLE quotes (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE entries (id INTEGER PRIMARY KEY, transfer TEXT NOT NULL, account TEXT NOT NULL, amount INTEGER NOT NULL);
CREATE TABLE idempotency (
  key TEXT PRIMARY KEY, request_hash TEXT, status INTEGER NOT NULL, body TEXT NOT NULL
);
`;

interface Reply {
  status: number;
  body: string;
}

/** What the reference keeps beyond the payment's own rows: `guarded` adds the service's guarantees (`guardedLog`). */
export interface RawPaymentsOptions {
  guarded?: boolean;
}

interface Quote {
  id: string;
  status: 'PENDING' | 'COMPLETED';
  source: { sourceType: 'ACCOUNT'; accountId: string; currency: string };
  destination: { destinationType: 'ACCOUNT'; accountId: string; currency: string };
  sendingAmount: { amount: number; currency: string };
  receivingAmount: { amount: number; currency: string };
  exchangeRate: number;
  fees: number;
  createdAt: string;
  expiresAt: string;
  transactionId?: string;
}

/**
 * The raw reference of the payments benchmark: a bare node:http server with one better-sqlite3 file (WAL,
 * `synchronous=FULL`, as the service's event log) doing what a payment needs and nothing else. `POST /quotes`
 * checks both accounts and stores a priced quote; `POST /quotes/{id}/execute` checks the payer's balance, writes a
 * balanced pair of ledger entries, moves both balances and completes the quote. Each request's Idempotency-Key
 * stores its answer in the same transaction. Requests that arrive together are committed together (one
 * transaction and one sync per turn of the event loop), so the reference is not bound by a sync per payment. No
 * framework, no validation library, no events, no read models. `guarded` keeps the service's guarantees in the same
 * transaction besides (see `guardedLog`): a quote's creation and execution, the transaction and the ledger transfer as
 * hash-chained events, the transaction as a document, the quote's deadline as a timer, each key's request hash.
 */
export async function startRawPaymentsServer(
  dir: string,
  auth: string,
  { guarded = false }: RawPaymentsOptions = {},
): Promise<RawPaymentsServer> {
  const db = new Sqlite(join(dir, guarded ? 'raw-payments-guarded.db' : 'raw-payments.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);
  if (guarded) db.exec(LOG_SCHEMA);
  const log = guarded ? guardedLog(db, 'Platform:raw') : undefined;
  const statements = {
    account: db.prepare<[string], { id: string; currency: string; balance: number }>(
      'SELECT id, currency, balance FROM accounts WHERE id = ?',
    ),
    open: db.prepare('INSERT INTO accounts (id, currency, balance) VALUES (?, ?, ?)'),
    move: db.prepare('UPDATE accounts SET balance = balance + ? WHERE id = ?'),
    entry: db.prepare('INSERT INTO entries (transfer, account, amount) VALUES (?, ?, ?)'),
    quote: db.prepare<[string], { body: string }>('SELECT body FROM quotes WHERE id = ?'),
    saveQuote: db.prepare(
      'INSERT INTO quotes (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
    ),
    replay: db.prepare<[string], { requestHash: string | null; status: number; body: string }>(
      'SELECT request_hash AS requestHash, status, body FROM idempotency WHERE key = ?',
    ),
    remember: db.prepare('INSERT INTO idempotency (key, request_hash, status, body) VALUES (?, ?, ?, ?)'),
  };
  const error = (status: number, code: string): Reply => ({ status, body: JSON.stringify({ status, code }) });

  const createQuote = (body: string): Reply => {
    let input: {
      source?: { accountId?: unknown };
      destination?: { accountId?: unknown };
      lockedCurrencyAmount?: unknown;
    };
    try {
      input = JSON.parse(body);
    } catch {
      return error(400, 'INVALID_INPUT');
    }
    const amount = input.lockedCurrencyAmount;
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0) return error(400, 'INVALID_INPUT');
    const from =
      typeof input.source?.accountId === 'string' ? statements.account.get(input.source.accountId) : undefined;
    const to =
      typeof input.destination?.accountId === 'string'
        ? statements.account.get(input.destination.accountId)
        : undefined;
    if (!from || !to) return error(404, 'ACCOUNT_NOT_FOUND');
    const now = new Date();
    const quote: Quote = {
      id: `Quote:${randomUUID()}`,
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: from.id, currency: from.currency },
      destination: { destinationType: 'ACCOUNT', accountId: to.id, currency: to.currency },
      sendingAmount: { amount: amount as number, currency: from.currency },
      receivingAmount: { amount: amount as number, currency: to.currency },
      exchangeRate: 1,
      fees: 0,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 5 * 60_000).toISOString(),
    };
    const text = JSON.stringify(quote);
    statements.saveQuote.run(quote.id, text);
    if (log) {
      log.append(`quote-${quote.id}`, [{ type: 'QuoteCreated', data: { ...quote } }], ACTOR);
      log.setTimer(`deadline:${quote.id}`, Date.parse(quote.expiresAt));
    }
    return { status: 201, body: text };
  };

  const execute = (id: string): Reply => {
    const row = statements.quote.get(id);
    if (!row) return error(404, 'QUOTE_NOT_FOUND');
    const quote = JSON.parse(row.body) as Quote;
    if (quote.status !== 'PENDING') return error(409, 'QUOTE_ALREADY_EXECUTED');
    const amount = quote.sendingAmount.amount;
    const payer = statements.account.get(quote.source.accountId)!;
    if (payer.balance < amount) return error(422, 'INSUFFICIENT_BALANCE');
    const transfer = `Transaction:${randomUUID()}`;
    statements.entry.run(transfer, quote.source.accountId, -amount);
    statements.entry.run(transfer, quote.destination.accountId, amount);
    statements.move.run(-amount, quote.source.accountId);
    statements.move.run(amount, quote.destination.accountId);
    const done: Quote = { ...quote, status: 'COMPLETED', transactionId: transfer };
    const text = JSON.stringify(done);
    statements.saveQuote.run(id, text);
    if (log) recordExecution(log, done, transfer);
    return { status: 200, body: text };
  };

  /** One request's work inside the turn's transaction: the stored answer of its key, or its own. */
  const handle = (method: string, url: string, key: string | undefined, body: string): Reply => {
    if (!key) return error(400, 'IDEMPOTENCY_KEY_REQUIRED');
    const stored = statements.replay.get(`${method} ${url} ${key}`);
    const requestHash = log ? requestHashOf(method, url, body) : null;
    if (stored && stored.requestHash !== requestHash) return error(422, 'IDEMPOTENCY_KEY_REUSED');
    if (stored) return { status: stored.status, body: stored.body };
    let reply: Reply;
    const executeMatch = /^\/quotes\/([^/]+)\/execute$/.exec(url);
    if (method === 'POST' && url === '/quotes') reply = createQuote(body);
    else if (method === 'POST' && executeMatch) reply = execute(decodeURIComponent(executeMatch[1]));
    else return error(404, 'NOT_FOUND');
    if (reply.status < 500) statements.remember.run(`${method} ${url} ${key}`, requestHash, reply.status, reply.body);
    return reply;
  };

  const commit = perTurn(db);

  const server = createServer(async (req, res) => {
    const body = await requestBody(req);
    if (req.headers.authorization !== auth) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"status":401,"code":"UNAUTHORIZED"}');
      return;
    }
    const key = req.headers['idempotency-key'];
    let reply: Reply;
    commit(
      () => (reply = handle(req.method ?? '', req.url ?? '', typeof key === 'string' ? key : undefined, body)),
      () => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    openAccount(balance) {
      const id = `InternalAccount:${randomUUID()}`;
      statements.open.run(id, 'USD', balance);
      return id;
    },
    totals() {
      const balances = (db.prepare('SELECT coalesce(sum(balance), 0) AS n FROM accounts').get() as { n: number }).n;
      const entries = (db.prepare('SELECT coalesce(sum(amount), 0) AS n FROM entries').get() as { n: number }).n;
      return { balances, entries };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          db.close();
          resolve();
        });
      }),
  };
}

/**
 * A quote's execution as events: the quote's, the transaction's (created and completed, each with the whole
 * transaction, as the service records it) and the platform ledger's balanced transfer; the transaction's document;
 * the quote's deadline timer cleared.
 */
function recordExecution(log: GuardedLog, quote: Quote, transactionId: string): void {
  const at = new Date().toISOString();
  const transaction = {
    id: transactionId,
    status: 'COMPLETED',
    type: 'OUTGOING',
    source: quote.source,
    destination: quote.destination,
    sentAmount: quote.sendingAmount,
    receivedAmount: quote.receivingAmount,
    exchangeRate: quote.exchangeRate,
    fees: quote.fees,
    quoteId: quote.id,
    createdAt: at,
    updatedAt: at,
    settledAt: at,
  };
  const { accountId: from } = quote.source;
  const { accountId: to } = quote.destination;
  log.append(`quote-${quote.id}`, [{ type: 'QuoteExecuted', data: { quoteId: quote.id, transactionId, at } }], ACTOR);
  log.append(
    `transaction-${transactionId}`,
    [
      { type: 'TransactionCreated', data: { ...transaction, status: 'PROCESSING' } },
      { type: 'TransactionStatusChanged', data: { transaction } },
    ],
    ACTOR,
  );
  const amount = String(quote.sendingAmount.amount);
  const transfer = { id: transactionId, debitAccountId: from, creditAccountId: to, amount, currency: 'USD' };
  log.append('ledger-raw', [{ type: 'TransferCreated', data: { ...transfer, code: 'PAYMENT', createdAt: at } }], ACTOR);
  log.putDoc('transactions', transactionId, transaction);
  log.clearTimer(`deadline:${quote.id}`);
}

/**
 * The raw server in a process of its own, as the service runs in the benchmarks, on a file in `dir` and accepting the
 * Authorization header `auth`: `openAccounts` takes a list of balances and answers their accounts' ids, `totals` as
 * above, and `cpu` (see `bench-process.ts`) its CPU time.
 */
export const startRawPaymentsProcess = (dir: string, auth: string, options: RawPaymentsOptions = {}) =>
  startBenchProcess<{ origin: string }>(import.meta.url, { dir, auth, options }) as Promise<
    BenchProcess<{ origin: string }>
  >;

if (isMain(import.meta.url)) {
  serveBenchProcess(async ({ dir, auth, options }: { dir: string; auth: string; options: RawPaymentsOptions }) => {
    const raw = await startRawPaymentsServer(dir, auth, options);
    return {
      ready: { origin: raw.origin },
      handlers: {
        openAccounts: (balances: number[]) => balances.map((balance) => raw.openAccount(balance)),
        totals: () => raw.totals(),
      },
      close: raw.close,
    };
  });
}
