import { beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { Sqlite } from '#sqlite/driver.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { ProjectionRunner } from './runner/projection-runner.js';
import { allProjections, Collections } from './projections/index.js';
import type { Filter, ProjectionTransaction, Query } from './read-model-store.js';
import { SqliteReadModelStore } from './sqlite/read-model-store.js';
import { useTempDir } from '../../../test/support/temp-dir.js';

/**
 * The API's main queries, in the shape the application sends them (`listForPlatform` puts the
 * platform first and sorts by createdAt, newest first; the passkey check looks a credential id up
 * across platforms).
 */
const list = (filters: Query['filters']): Query => ({
  filters: [{ field: 'platformId', op: 'eq', value: 'Platform:1' }, ...(filters ?? [])],
  sortBy: 'createdAt',
  sortOrder: 'desc',
  limit: 20,
});
const eq = (field: string, value: unknown): Filter => ({ field, op: 'eq', value });
const ofCustomer: Filter = eq('customerId', 'Customer:1');
/** Name, collection, query, and the index it must search. */
type Row = [string, string, Query, string];
/** A list on one field's value, which searches the platform's index on that field by creation (`suffix`: more). */
const byField = (name: string, collection: string, field: string, value: unknown, suffix = ''): Row => [
  name,
  collection,
  list([eq(field, value)]),
  `by_platformId_${field}_createdAt${suffix}`,
];
const queries: Row[] = [
  [
    'customers by platform',
    Collections.customers,
    list([eq('isDeleted', false)]),
    'by_platformId_createdAt_flags_isDeleted',
  ],
  byField('customers by UMA address', Collections.customers, 'umaAddress', '$a@x'),
  [
    'customers by platform customer id',
    Collections.customers,
    list([eq('platformCustomerId', 'c-1'), eq('isDeleted', false)]),
    'by_platformId_platformCustomerId_createdAt_flags_isDeleted',
  ],
  [
    'customers by type',
    Collections.customers,
    list([eq('customerType', 'BUSINESS'), eq('isDeleted', false)]),
    'by_platformId_customerType_createdAt_flags_isDeleted',
  ],
  byField('transactions by platform and customer', Collections.transactions, 'customerId', 'Customer:1'),
  byField('transactions by status', Collections.transactions, 'status', 'FAILED'),
  [
    'transactions by reconciliation reference',
    Collections.transactions,
    list([eq('reconciliationInstructions.reference', 'TX-1')]),
    'by_platformId_reconciliationInstructions__reference_createdAt',
  ],
  byField('cards by customer', Collections.cards, 'customerId', 'Customer:1'),
  byField('transactions of a card', Collections.cardTransactions, 'cardId', 'Card:1'),
  [
    'transactions of a card by status',
    Collections.cardTransactions,
    list([eq('cardId', 'Card:1'), eq('status', 'SETTLED')]),
    'by_platformId_cardId_status_createdAt',
  ],
  byField('quotes by customer', Collections.quotes, 'customerId', 'Customer:1'),
  byField('quotes by status', Collections.quotes, 'status', 'FAILED'),
  byField('cards by state', Collections.cards, 'state', 'FROZEN'),
  byField('cards by platform card id', Collections.cards, 'platformCardId', 'c-1'),
  byField('internal accounts by customer', Collections.internalAccounts, 'customerId', 'Customer:1'),
  byField('internal accounts by type', Collections.internalAccounts, 'type', 'EMBEDDED_WALLET', '_covers_customerId'),
  byField('internal accounts by currency', Collections.internalAccounts, 'currency', 'EUR', '_covers_customerId'),
  byField(
    'external accounts by currency',
    Collections.externalAccounts,
    'currency',
    'EUR',
    '_covers_customerId_status',
  ),
  byField('webhook deliveries by status', Collections.webhookDeliveries, 'status', 'FAILED'),
  byField('webhook deliveries by type', Collections.webhookDeliveries, 'type', 'CUSTOMER.KYC_APPROVED'),
  byField('beneficial owners of a business', Collections.beneficialOwners, 'customerId', 'Customer:1'),
  byField('auth methods of an account', Collections.authMethods, 'accountId', 'InternalAccount:1'),
  [
    'auth methods by passkey credential id',
    Collections.authMethods,
    {
      filters: [eq('credentialId', 'cred-1'), eq('status', 'ACTIVE')],
      sortBy: 'createdAt',
      sortOrder: 'asc',
      limit: 1,
    },
    'by_credentialId_createdAt',
  ],
  [
    'failed rows of a bulk import, in line order',
    Collections.bulkImportErrors,
    {
      filters: [eq('jobId', 'Job:1')],
      sortBy: 'line',
      sortOrder: 'asc',
      limit: 1000,
    },
    'by_jobId_line',
  ],
  [
    'unfinished bulk imports (the worker’s sweep)',
    Collections.bulkImports,
    {
      filters: [eq('status', 'PROCESSING')],
      sortBy: 'createdAt',
      sortOrder: 'asc',
      limit: 1000,
    },
    'by_status_createdAt',
  ],
];

/**
 * Every step that reads the collection's table searches an index on a field's value: `SCAN docs_<collection>` reads
 * the whole collection.
 */
function searchesAnIndex(plan: string[]): boolean {
  const steps = plan.filter((detail) => /\bdocs_\w+\b/.test(detail));
  const searchesValues = /^SEARCH docs_\w+ USING (COVERING )?INDEX docs_\w+ \(<expr>=\?/;
  return steps.length > 0 && steps.every((detail) => searchesValues.test(detail));
}

describe('read-model indexes (SQLite, EXPLAIN QUERY PLAN)', () => {
  let store: SqliteReadModelStore;
  const dir = useTempDir('query-indexes-', () => store.close());
  beforeEach(() => {
    store = new SqliteReadModelStore(join(dir(), 'read-models.db'));
  });

  it.each(queries)(
    '%s uses its index once the projections declared theirs',
    async (_name, collection, query, index) => {
      await store.ensureIndexes(allProjections.flatMap((p) => p.indexes ?? []));
      const plan = store.explainFind(collection, query);
      expect({ plan, indexed: searchesAnIndex(plan) }).toEqual({ plan, indexed: true });
      // Both the page and its count search the index meant for them.
      const searches = plan.filter((detail) => detail.startsWith(`SEARCH docs_${collection} `));
      const name = `docs_${collection}_${index}`;
      expect(searches.every((detail) => detail.includes(`INDEX ${name} `))).toBe(true);
      expect(searches.length).toBeGreaterThanOrEqual(2);
    },
  );

  it('the count of a customer list, with a type or a creation range, reads the index alone (no document)', async () => {
    await store.ensureIndexes(allProjections.flatMap((p) => p.indexes ?? []));
    const live: Filter = eq('isDeleted', false);
    const before: Filter = { field: 'createdAt', op: 'lte', value: '2026-01-01T00:00:00.000Z' };
    const business: Filter = eq('customerType', 'BUSINESS');
    for (const filters of [[live], [business, live], [before, live], [business, before, live]]) {
      const plan = store.explainFind(Collections.customers, list(filters));
      const searches = plan.filter((detail) => detail.startsWith(`SEARCH docs_${Collections.customers} `));
      // The page reads its 21 documents; the count (planned last) only walks the index.
      expect({ filters, count: searches.at(-1) }).toEqual({
        filters,
        count: expect.stringContaining('USING COVERING INDEX'),
      });
    }
  });

  it('the count of an account list (the customers’ or the platform’s, active ones) reads the index alone', async () => {
    await store.ensureIndexes(allProjections.flatMap((p) => p.indexes ?? []));
    const owned = (value: boolean): Filter => ({ field: 'customerId', op: 'exists', value });
    const lists: [string, Filter[]][] = [
      [Collections.internalAccounts, [owned(true)]],
      [Collections.internalAccounts, [owned(false)]],
      [Collections.internalAccounts, [owned(true), eq('type', 'EMBEDDED_WALLET')]],
      [Collections.internalAccounts, [owned(true), eq('currency', 'EUR')]],
      [Collections.internalAccounts, [owned(true), ofCustomer]],
      [Collections.externalAccounts, [owned(true), eq('status', 'ACTIVE')]],
      [Collections.externalAccounts, [owned(true), eq('status', 'ACTIVE'), eq('currency', 'EUR')]],
      [Collections.externalAccounts, [owned(true), eq('status', 'ACTIVE'), ofCustomer]],
    ];
    for (const [collection, filters] of lists) {
      const count = store
        .explainFind(collection, list(filters))
        .filter((d) => d.startsWith(`SEARCH docs_${collection} `));
      expect({ filters, count: count.at(-1) }).toEqual({
        filters,
        count: expect.stringContaining('USING COVERING INDEX'),
      });
    }
  });

  it('an index a projection no longer declares is dropped', async () => {
    const db = new Sqlite(join(dir(), 'read-models.db'));
    db.exec(`CREATE TABLE IF NOT EXISTS docs_customers (id TEXT PRIMARY KEY, body TEXT NOT NULL)`);
    db.exec(`CREATE INDEX docs_customers_by_platformId_retired_createdAt ON docs_customers (id)`);
    db.close();
    await store.ensureIndexes(allProjections.flatMap((p) => p.indexes ?? []));
    const check = new Sqlite(join(dir(), 'read-models.db'), { readonly: true });
    const names = (check.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).all() as { name: string }[])
      .map((r) => r.name)
      .filter((name) => name.startsWith('docs_customers_'));
    check.close();
    expect(names).not.toContain('docs_customers_by_platformId_retired_createdAt');
    expect(names).toContain('docs_customers_by_platformId_customerType_createdAt_flags_isDeleted');
  });

  it('the passkey lookup is a scan without the declared indexes (the test can fail)', async () => {
    const [, collection, query] = queries.find(([name]) => name.includes('passkey'))!;
    expect(searchesAnIndex(store.explainFind(collection, query))).toBe(false);
  });

  it('a projection runner creates the declared indexes when it starts', async () => {
    const [, collection, query, index] = queries.find(([name]) => name.includes('passkey'))!;
    const events = new SqliteEventStore(join(dir(), 'events.db'));
    const runner = new ProjectionRunner(events, store, allProjections, { retryDelayMs: 0 });
    try {
      await runner.start();
      const plan = store.explainFind(collection, query);
      expect(plan.some((detail) => detail.includes(`INDEX docs_${collection}_${index} `))).toBe(true);
    } finally {
      await runner.stop();
      await events.close();
    }
  });

  /** Closes the store and opens one on a new file `name` that `sql` laid out as an older version did. */
  async function reopenOnOldLayout(name: string, sql: string): Promise<string> {
    await store.close();
    const file = join(dir(), name);
    const old = new Sqlite(file);
    old.exec(sql);
    old.close();
    store = new SqliteReadModelStore(file);
    return file;
  }

  it('a store of the shared-table layout is split into one table per collection, documents kept', async () => {
    const file = await reopenOnOldLayout(
      'shared.db',
      'CREATE TABLE docs (collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL);' +
        'CREATE UNIQUE INDEX docs_key ON docs (collection, id);' +
        "CREATE INDEX docs_quotes_by_createdAt ON docs (collection, json_extract(body, '$.createdAt'), id) " +
        "WHERE collection = 'quotes';" +
        `INSERT INTO docs VALUES ('quotes', 'q1', '{"id":"q1","createdAt":"2026-01-02"}');` +
        `INSERT INTO docs VALUES ('ledger', 'a', '{"id":"a","createdAt":"2026-01-01"}')`,
    );
    await store.ensureIndexes(allProjections.flatMap((p) => p.indexes ?? []));
    expect(await store.get('ledger', 'a')).toEqual({ id: 'a', createdAt: '2026-01-01' });
    expect((await store.find('quotes', { limit: 10 })).data).toEqual([{ id: 'q1', createdAt: '2026-01-02' }]);
    const db = new Sqlite(file, { readonly: true });
    const listed = db.prepare("SELECT type, name, tbl_name AS tbl FROM sqlite_master WHERE name LIKE 'docs%'");
    const objects = listed.all() as { type: string; name: string; tbl: string }[];
    db.close();
    expect(objects.filter((o) => o.name === 'docs' || o.tbl === 'docs')).toEqual([]);
    expect(objects).toEqual(
      expect.arrayContaining([
        { type: 'table', name: 'docs_quotes', tbl: 'docs_quotes' },
        { type: 'table', name: 'docs_ledger', tbl: 'docs_ledger' },
        { type: 'index', name: 'docs_quotes_by_platformId_customerId_createdAt', tbl: 'docs_quotes' },
      ]),
    );
    await expect(store.ensureIndexes([{ collection: "x' OR 1", fields: ['a'] }])).rejects.toThrow(TypeError);
  });

  it('creating the indexes is idempotent, and an index names only valid fields', async () => {
    const indexes = allProjections.flatMap((p) => p.indexes ?? []);
    await store.ensureIndexes(indexes);
    await store.ensureIndexes(indexes);
    await expect(store.ensureIndexes([{ collection: 'x', fields: ["a') --"] }])).rejects.toThrow(TypeError);
  });

  const indexNames = (file: string): string[] => {
    const db = new Sqlite(file, { readonly: true });
    const listed = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'docs_ledger'");
    const names = (listed.all() as { name: string }[]).map((r) => r.name).sort();
    db.close();
    return names;
  };
  const IDS = ['sqlite_autoindex_docs_ledger_1'];
  const IDS_AND_DEFAULTS = [...IDS, 'docs_ledger_by_platformId_createdAt'].sort();
  const put = (id: string) => async (tx: ProjectionTransaction) =>
    tx.put('ledger', { id, platformId: 'Platform:1', createdAt: '2026-01-01T00:00:00.000Z' });

  it('a collection gets its default indexes with its first write; a replay builds them once it ends', async () => {
    const file = join(dir(), 'read-models.db');
    await store.commitBatch('p', undefined, 1n, put('a'));
    expect(indexNames(file)).toEqual(IDS_AND_DEFAULTS);
    await store.reset('p', ['ledger']);
    expect(indexNames(file)).toEqual(IDS);
    await store.commitBatches([{ projection: 'p', expected: undefined, position: 2n }], put('b'), { replay: true });
    expect(indexNames(file)).toEqual(IDS);
    await store.commitBatches([{ projection: 'p', expected: 2n, position: 3n }], put('c'));
    expect(indexNames(file)).toEqual(IDS_AND_DEFAULTS);
    const plan = store.explainFind('ledger', list([]));
    expect(plan.every((d) => !/\bdocs_ledger\b/.test(d) || d.includes('docs_ledger_by_platformId_createdAt'))).toBe(
      true,
    );
  });

  it('a store of the clustered layout is split as well', async () => {
    await reopenOnOldLayout(
      'old.db',
      'CREATE TABLE docs (collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, ' +
        'PRIMARY KEY (collection, id)) WITHOUT ROWID;' +
        `INSERT INTO docs VALUES ('ledger', 'a', '{"id":"a","createdAt":"2026-01-01"}')`,
    );
    expect(await store.get('ledger', 'a')).toEqual({ id: 'a', createdAt: '2026-01-01' });
    await store.commitBatch('p', undefined, 1n, put('b'));
    expect((await store.find('ledger', { limit: 10 })).totalCount).toBe(2);
  });
});
