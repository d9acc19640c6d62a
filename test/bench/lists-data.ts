import { randomUUID } from 'node:crypto';
import { Sqlite } from '#sqlite/driver.js';
import type { Client } from '../support/service.js';
import { walletHolder } from '../support/wallet-session.js';
import { expectStatus } from './scenario.js';

/**
 * The data of the lists benchmark: one scripted payment and card made over HTTP, whose read-model documents are then
 * copied straight into the read-model tables, with ids, keys, times and the filtered fields varied.
 */

export type Doc = Record<string, unknown> & { id: string };

/** Transactions, quotes and the like are spread over this many customers (a customer's filter matches size / it). */
export const CUSTOMERS_WITH_PAYMENTS = 1000;

const BASE = Date.parse('2020-01-01T00:00:00.000Z');
/** The i-th copy's creation time: one a second, so a size's documents span its own range. */
export const at = (i: number) => new Date(BASE + i * 1000).toISOString();

/** A UUID-shaped id for the i-th copy (unique, and recognisably a bench document). */
export function uuidOf(i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** One in ten copies has the rare value of a filtered field (a type, a currency, a status, a state). */
const rare = (i: number, offset = 0) => i % 10 === offset;

/**
 * A wallet holder (USD and EUR accounts, an embedded wallet) pays another customer through a quote and gets a
 * virtual card: the read models then hold one document of each kind to copy.
 */
export async function script(api: Client): Promise<void> {
  const payer = await walletHolder(api, { name: `payer-${randomUUID()}`, currencies: ['USD', 'EUR'] });
  const payee = await expectStatus(
    api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `payee-${randomUUID()}` }),
    201,
    'create customer',
  );
  const accounts = await expectStatus(
    api.get(`/customers/internal-accounts?customerId=${payee.id}`),
    200,
    'list accounts',
  );
  await expectStatus(api.post(`/sandbox/internal-accounts/${payer.usd}/fund`, { amount: 1_000_000 }), 200, 'fund');
  const quote = await expectStatus(
    api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: payer.usd },
      destination: { destinationType: 'ACCOUNT', accountId: accounts.data[0].id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
    }),
    201,
    'create quote',
  );
  await expectStatus(api.post(`/quotes/${quote.id}/execute`, undefined, {}), 200, 'execute quote');
  const card = { customerId: payer.customerId, form: 'VIRTUAL', fundingSources: [payer.usd, payer.wallet.accountId] };
  await expectStatus(api.post('/cards', card), 201, 'create card');
  for (const list of ['/transactions', '/quotes', '/cards'])
    await expectStatus(api.get(`${list}?limit=1`), 200, `list ${list}`);
}

/** The documents copied: one of each kind, and an internal account of each type and currency. */
export interface Templates {
  customer: Doc;
  transaction: Doc;
  quote: Doc;
  card: Doc;
  usdAccount: Doc;
  eurAccount: Doc;
  walletAccount: Doc;
}

export function readTemplates(file: string): Templates {
  const db = new Sqlite(file, { readonly: true });
  try {
    const one = (table: string, where = '1 = 1') => {
      const row = db.prepare(`SELECT body FROM ${table} WHERE ${where} LIMIT 1`).get() as { body: string } | undefined;
      if (!row) throw new Error(`the scripted data left no document in ${table} where ${where}`);
      return JSON.parse(row.body) as Doc;
    };
    const account = (where: string) =>
      one('docs_internal_accounts', `json_extract(body, '$.customerId') IS NOT NULL AND ${where}`);
    return {
      customer: one('docs_customers'),
      transaction: one('docs_transactions'),
      quote: one('docs_quotes'),
      card: one('docs_cards'),
      usdAccount: account(
        `json_extract(body, '$.type') = 'INTERNAL_FIAT' AND json_extract(body, '$.currency') = 'USD'`,
      ),
      eurAccount: account(
        `json_extract(body, '$.type') = 'INTERNAL_FIAT' AND json_extract(body, '$.currency') = 'EUR'`,
      ),
      walletAccount: account(`json_extract(body, '$.type') = 'EMBEDDED_WALLET'`),
    };
  } finally {
    db.close();
  }
}

/** The i-th copy of each collection's document. */
function copies(t: Templates, i: number): Record<string, Doc> {
  const customerId = `Customer:${uuidOf(i)}`;
  const payer = i % CUSTOMERS_WITH_PAYMENTS;
  const payerId = `Customer:${uuidOf(payer)}`;
  const times = { createdAt: at(i), updatedAt: at(i) };
  const business = rare(i);
  const account = rare(i) ? t.walletAccount : rare(i, 1) ? t.eurAccount : t.usdAccount;
  return {
    customers: {
      ...t.customer,
      id: customerId,
      platformCustomerId: `bench-${i}`,
      umaAddress: `$bench-${i}@sandbox.uma.local`,
      customerType: business ? 'BUSINESS' : 'INDIVIDUAL',
      ...(business ? { businessInfo: { legalName: `Bench ${i} Ltd` } } : {}),
      ...times,
    },
    transactions: {
      ...t.transaction,
      id: `Transaction:${uuidOf(i)}`,
      customerId: payerId,
      platformCustomerId: `bench-${payer}`,
      status: rare(i) ? 'FAILED' : 'COMPLETED',
      reconciliationInstructions: { reference: `TX-BENCH-${i}` },
      ...times,
      settledAt: at(i),
    },
    internal_accounts: { ...account, id: `InternalAccount:${uuidOf(i)}`, customerId, ...times },
    quotes: {
      ...t.quote,
      id: `Quote:${uuidOf(i)}`,
      customerId: payerId,
      status: rare(i) ? 'FAILED' : 'COMPLETED',
      ...times,
    },
    cards: {
      ...t.card,
      id: `Card:${uuidOf(i)}`,
      customerId,
      platformCardId: `bench-card-${i}`,
      state: rare(i) ? 'FROZEN' : 'ACTIVE',
      ...times,
    },
  };
}

/** Collections the copies go to (tables `docs_<collection>`; indexes in place: the service created them). */
export const GROWN = ['customers', 'transactions', 'internal_accounts', 'quotes', 'cards'];

/** Writes copies `from` up to `size` into every grown collection of the read-model file. */
export function grow(file: string, templates: Templates, from: number, size: number): void {
  const db = new Sqlite(file);
  const insert = Object.fromEntries(
    GROWN.map((c) => [c, db.prepare(`INSERT INTO docs_${c} (id, body) VALUES (?, ?)`)] as const),
  );
  const write = db.transaction((start: number, end: number) => {
    for (let i = start; i < end; i++)
      for (const [collection, doc] of Object.entries(copies(templates, i)))
        insert[collection].run(doc.id, JSON.stringify(doc));
  });
  for (let start = from; start < size; start += 20_000) write(start, Math.min(size, start + 20_000));
  db.close();
}
