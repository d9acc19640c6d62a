import { beforeAll, describe, expect, it } from '@jest/globals';
import { transactionSchemas } from '../../apps/api/src/docs/schemas/transactions.js';
import { type Customer, useMoneyService } from './money-support.js';

const START = Date.UTC(2026, 3, 1, 9);

describe('transactions over HTTP', () => {
  let ada: Customer;
  let bob: Customer;
  let ext: string;
  const ids: Record<string, string> = {};
  let middle = '';

  const list = async (query: string) => {
    const res = await api.get(`/transactions?${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const listIds = async (query: string) => (await list(query)).data.map((d: any) => d.id);

  const { t, api, clock, m } = useMoneyService({ start: START });
  beforeAll(async () => {
    ada = await m.customer(['USD'], { platformCustomerId: 'ada-tx' });
    bob = await m.customer(['USD'], { platformCustomerId: 'bob-tx', umaAddress: '$bob@sandbox.uma.local' });
    await m.fund(ada.accounts.USD, 100_000);
    ext = await m.external(ada.id, 'USD', '888');
    clock.advance(1_000);
    const q = (await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 1_000)).body;
    await api.post(`/quotes/${q.id}/execute`);
    ids.quote = q.transactionId;
    clock.advance(1_000);
    middle = clock.now().toISOString();
    clock.advance(1_000);
    ids.out = (
      await api.post('/transfer-out', {
        source: { accountId: ada.accounts.USD },
        destination: { accountId: ext },
        amount: 2_000,
      })
    ).body.id;
    clock.advance(1_000);
    ids.in = (
      await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$carol@else.example.com',
        receiverUmaAddress: '$bob@sandbox.uma.local',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 300,
      })
    ).body.id;
    clock.advance(1_000);
    ids.pendingQuote = (await m.accountQuote(bob.accounts.USD, ada.accounts.USD, 100)).body.transactionId;
  });

  it('returns a transaction with every documented field', async () => {
    const tx = await m.transaction(ids.quote);
    // The schema's required fields, and the optional ones a settled payment from a quote carries.
    const { required } = transactionSchemas.Transaction as { required: string[] };
    expect(Object.keys(tx).sort()).toEqual(
      [...required, 'reconciliationInstructions', 'rateDetails', 'quoteId', 'settledAt'].sort(),
    );
    expect(tx).toMatchObject({
      platformCustomerId: 'ada-tx',
      source: { sourceType: 'ACCOUNT', accountId: ada.accounts.USD, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: bob.accounts.USD, currency: 'USD' },
    });
    expect(Object.keys(tx.rateDetails).sort()).toEqual([
      'gridApiFixedFee',
      'gridApiMultiplier',
      'gridApiVariableFeeAmount',
      'gridApiVariableFeeRate',
    ]);
    expect((await api.get('/transactions/Transaction:00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.get('/transactions/nope')).status).toBe(400);
  });

  it('lists newest first with totals and pages with a cursor', async () => {
    const all = await list('limit=2');
    expect(all.totalCount).toBe(4);
    expect(all.data.map((d: any) => d.id)).toEqual([ids.pendingQuote, ids.in]);
    expect(all.hasMore).toBe(true);
    const next = await list(`limit=2&cursor=${encodeURIComponent(all.nextCursor)}`);
    expect(next.data.map((d: any) => d.id)).toEqual([ids.out, ids.quote]);
    expect(await listIds('sortOrder=asc')).toEqual([ids.quote, ids.out, ids.in, ids.pendingQuote]);
  });

  it('filters by every documented parameter', async () => {
    expect(await listIds(`customerId=${encodeURIComponent(bob.id)}`)).toEqual([ids.pendingQuote, ids.in]);
    expect(await listIds('platformCustomerId=ada-tx')).toEqual([ids.out, ids.quote]);
    expect(await listIds(`accountIdentifier=${encodeURIComponent(ext)}`)).toEqual([ids.out]);
    expect(await listIds(`accountIdentifier=${encodeURIComponent(bob.accounts.USD)}`)).toEqual([
      ids.pendingQuote,
      ids.in,
      ids.quote,
    ]);
    expect(await listIds(`accountIdentifier=${encodeURIComponent('$carol@else.example.com')}`)).toEqual([ids.in]);
    expect(await listIds('status=PENDING')).toEqual([ids.pendingQuote]);
    expect(await listIds('type=INCOMING')).toEqual([ids.in]);
    const reference = (await m.transaction(ids.out)).reconciliationInstructions.reference;
    expect(await listIds(`reference=${reference}`)).toEqual([ids.out]);
    expect(await listIds(`startDate=${encodeURIComponent(middle)}`)).toEqual([ids.pendingQuote, ids.in, ids.out]);
    expect(await listIds(`endDate=${encodeURIComponent(middle)}`)).toEqual([ids.quote]);
    for (const bad of [
      'status=DONE',
      'type=SIDEWAYS',
      'startDate=yesterday',
      'limit=0',
      'sortOrder=up',
      'customerId=ada',
    ]) {
      expect((await api.get(`/transactions?${bad}`)).status).toBe(400);
    }
  });

  it('lists quotes with status filters and keeps platforms apart', async () => {
    const quotes = await api.get('/quotes?status=COMPLETED');
    expect(quotes.body.data.map((q: any) => q.transactionId)).toEqual([ids.quote]);
    const other = await t.otherPlatform();
    expect((await other.api.get('/transactions')).body.totalCount).toBe(0);
    expect((await other.api.get(`/transactions/${ids.quote}`)).body.code).toBe('TRANSACTION_NOT_FOUND');
  });
});
