import { beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { cardholder, type Cardholder } from '../support/card-fixture.js';
import { money } from './money-support.js';
import type { Client } from '../support/service.js';
import { useTestService } from '../support/fixture.js';
import { signedRequest } from '../support/wallet-session.js';

const START = Date.UTC(2026, 2, 2, 9);
const HOUR = 3_600_000;
// Wallet sessions last 15 minutes: the freeze and the unfreeze both happen within one.
const MINUTES = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const q = encodeURIComponent;

/** The same client, every request tagged with a correlation id (what the audit trail must show). */
const correlated = (api: Client, correlationId: string): Client => {
  const request: Client['request'] = (method, path, body, headers = {}) =>
    api.request(method, path, body, { ...headers, 'x-correlation-id': correlationId });
  return {
    ...api,
    request,
    get: (p, h) => request('GET', p, undefined, h),
    post: (p, b, h) => request('POST', p, b, h),
    patch: (p, b, h) => request('PATCH', p, b, h),
    delete: (p, h) => request('DELETE', p, undefined, h),
  };
};

describe('audit: histories and point-in-time state from the event log', () => {
  const clock = new ManualClock(START);
  let holder: Cardholder;
  let t1: number;
  let t2: number;

  const t = useTestService({ clock });
  const api = t.api;
  beforeAll(async () => {
    holder = await cardholder(t, api, clock, 'audit-holder');
    clock.advance(2 * MINUTES);
    t1 = clock.now().getTime();
    const path = `/cards/${holder.cardId}`;
    const { wallet } = holder;
    const frozen = await signedRequest(correlated(api, 'freeze-1'), 'PATCH', path, { state: 'FROZEN' }, wallet);
    expect(frozen.result.status).toBe(200);
    clock.advance(6 * MINUTES);
    t2 = clock.now().getTime();
    const unfrozen = await signedRequest(correlated(api, 'unfreeze-1'), 'PATCH', path, { state: 'ACTIVE' }, wallet);
    expect(unfrozen.result.status).toBe(200);
  });

  const state = (resource: string, id: string, at: number | string) =>
    api.get(`/audit/${resource}/${q(id)}/state?asOf=${q(typeof at === 'number' ? iso(at) : at)}`);

  it('shows a card FROZEN between its freeze and its unfreeze', async () => {
    expect((await state('cards', holder.cardId, t1 - 1)).body.state).toBe('ACTIVE');
    const between = await state('cards', holder.cardId, t1 + 3 * MINUTES);
    expect(between.status).toBe(200);
    expect(between.body).toMatchObject({ id: holder.cardId, state: 'FROZEN', updatedAt: iso(t1) });
    expect((await state('cards', holder.cardId, t2)).body.state).toBe('ACTIVE');
    // The live resource and the state as of now are one and the same rendering.
    const live = (await api.get(`/cards/${q(holder.cardId)}`)).body;
    expect((await state('cards', holder.cardId, clock.now().getTime())).body).toEqual(live);
    expect((await state('cards', holder.cardId, START - HOUR)).status).toBe(404);
  });

  it('lists a card’s events in order with actor, correlation id and no secrets', async () => {
    const history = await api.get(`/audit/cards/${q(holder.cardId)}/history?limit=100`);
    expect(history.status).toBe(200);
    const { data } = history.body;
    expect(history.body).toMatchObject({ hasMore: false, totalCount: data.length });
    expect(data.map((e: any) => e.revision)).toEqual(data.map((_: unknown, i: number) => i));
    const token = expect.stringMatching(/^ApiToken:/);
    expect(data[0]).toMatchObject({ type: 'CardCreated', actor: token, changes: { issuanceSeed: '[REDACTED]' } });
    const changes = data.filter((e: any) => e.type === 'CardStateChanged' && e.correlationId?.includes('freeze-1'));
    expect(changes.map((e: any) => [e.changes.card.state, e.correlationId, e.occurredAt])).toEqual([
      ['FROZEN', 'freeze-1', iso(t1)],
      ['ACTIVE', 'unfreeze-1', iso(t2)],
    ]);
    expect(changes[0].actor).toMatch(/^ApiToken:/);
    const [created] = await t.service.infra.eventStore.readStream(`card-${holder.cardId.split(':')[1]}`);
    expect(JSON.stringify(data)).not.toContain(String(created.data.issuanceSeed));

    // Paging walks the same events in the same order.
    const seen: any[] = [];
    let cursor: string | undefined;
    do {
      const after = cursor ? `&cursor=${q(cursor)}` : '';
      const page = await api.get(`/audit/cards/${q(holder.cardId)}/history?limit=2${after}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(data);
  });

  it('gives an account’s balance as of a past instant as the sum of its postings up to then', async () => {
    const before = clock.now().getTime();
    clock.advance(HOUR);
    expect((await api.post(`/sandbox/internal-accounts/${holder.usd}/fund`, { amount: 2_500 })).status).toBe(200);
    const postings = (await api.get(`/audit/internal-accounts/${q(holder.usd)}/history?limit=100`)).body.data;
    expect(postings.length).toBeGreaterThanOrEqual(3);
    // Holds do not move the posted balance; settled and posted amounts do, by direction.
    const signed = (p: any) =>
      p.posting.kind === 'PENDING' || p.posting.kind === 'VOIDED'
        ? 0
        : p.posting.direction === 'CREDIT'
          ? p.posting.amount
          : -p.posting.amount;
    let running = 0;
    for (const p of postings) expect(p.balance).toBe((running += signed(p)));
    const upTo = postings.filter((p: any) => Date.parse(p.occurredAt ?? p.recordedAt) <= before);
    expect(upTo.length).toBeLessThan(postings.length);
    const past = await state('internal-accounts', holder.usd, before);
    expect(past.status).toBe(200);
    expect(past.body.balance.amount).toBe(upTo.reduce((sum: number, p: any) => sum + signed(p), 0));
    expect(past.body.balance.amount).toBe(10_000 - 500);
    const accounts = (await api.get(`/customers/internal-accounts?customerId=${q(holder.customerId)}`)).body.data;
    const live = accounts.find((a: any) => a.id === holder.usd);
    expect((await state('internal-accounts', holder.usd, clock.now().getTime())).body).toEqual(live);
    expect(live.balance.amount).toBe(10_000 - 500 + 2_500);
  });

  it('lists a customer’s events and shows the customer as it was', async () => {
    const history = await api.get(`/audit/customers/${q(holder.customerId)}/history`);
    expect(history.status).toBe(200);
    const actor = expect.stringMatching(/^ApiToken:/);
    expect(history.body.data[0]).toMatchObject({ type: 'CustomerCreated', actor, correlationId: expect.any(String) });
    const live = (await api.get(`/customers/${q(holder.customerId)}`)).body;
    expect((await state('customers', holder.customerId, clock.now().getTime())).body).toEqual(live);
  });

  it('follows a transaction in its quote stream and one in its own stream', async () => {
    const m = money(t);
    // A sender of its own: the holder's balance is another test's subject.
    const ada = await m.funded(10_000);
    const bob = await m.customer(['USD'], { umaAddress: '$bob-audit@sandbox.uma.local' });
    clock.advance(MINUTES);
    const quote = (await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 1_000)).body;
    const quoted = clock.now().getTime();
    const beforeExecution = await m.transaction(quote.transactionId);
    clock.advance(MINUTES);
    expect((await correlated(api, 'execute-1').post(`/quotes/${quote.id}/execute`)).status).toBe(200);
    const id = quote.transactionId;
    const live = await m.eventually(id, 'COMPLETED');
    const history = (await api.get(`/audit/transactions/${q(id)}/history?limit=100`)).body.data;
    expect(history.slice(0, 2).map((e: any) => e.type)).toEqual(['QuoteCreated', 'TransactionCreated']);
    expect(history.some((e: any) => e.correlationId === 'execute-1' && e.actor?.startsWith('ApiToken:'))).toBe(true);
    expect((await state('transactions', id, quoted)).body).toEqual(beforeExecution);
    expect(live.status).not.toBe(beforeExecution.status);
    expect((await state('transactions', id, clock.now().getTime())).body).toEqual(live);
    // Its ledger legs: a hold on the sender posted in full, then the credit to the receiver; nothing left held.
    const legs = (await api.get(`/audit/transactions/${q(id)}/ledger`)).body.data.map((e: any) => e.leg);
    expect(legs.map((l: any) => l.kind)).toContain('POSTED');
    const moved = (account: string) =>
      legs
        .filter((l: any) => l.kind !== 'PENDING')
        .reduce(
          (sum: number, l: any) =>
            sum + (l.creditAccountId === account ? l.amount : 0) - (l.debitAccountId === account ? l.amount : 0),
          0,
        );
    expect(moved(ada.accounts.USD)).toBe(-1_000 - (live.fees ?? 0));
    expect(legs.every((l: any) => l.debitAccountId !== l.creditAccountId && l.currency === 'USD')).toBe(true);
    const other = await t.otherPlatform();
    expect((await other.api.get(`/audit/transactions/${q(id)}/ledger`)).status).toBe(404);

    clock.advance(MINUTES);
    const incoming = await api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$carol@else.example.com',
      receiverUmaAddress: '$bob-audit@sandbox.uma.local',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 300,
    });
    expect(incoming.status).toBe(200);
    const own = (await api.get(`/audit/transactions/${q(incoming.body.id)}/history`)).body.data;
    expect(own[0]).toMatchObject({ type: 'TransactionCreated', changes: { transaction: { id: incoming.body.id } } });
    const now = (await state('transactions', incoming.body.id, clock.now().getTime())).body;
    expect(now).toEqual(await m.transaction(incoming.body.id));
  });

  it('answers 404 to another platform and 400 to a bad asOf, cursor or limit', async () => {
    const other = await t.otherPlatform();
    for (const path of [
      `/audit/cards/${q(holder.cardId)}/history`,
      `/audit/customers/${q(holder.customerId)}/history`,
      `/audit/internal-accounts/${q(holder.usd)}/history`,
      `/audit/cards/${q(holder.cardId)}/state?asOf=${q(iso(t2))}`,
      `/audit/internal-accounts/${q(holder.usd)}/state?asOf=${q(iso(t2))}`,
      `/audit/customers/${q(holder.customerId)}/state?asOf=${q(iso(t2))}`,
    ]) {
      const res = await other.api.get(path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, expect.stringMatching(/_NOT_FOUND$/)]);
    }
    const bad = [
      `/audit/cards/${q(holder.cardId)}/state?asOf=yesterday`,
      `/audit/cards/${q(holder.cardId)}/state?asOf=2026-13-45T99:00:00Z`,
      `/audit/cards/${q(holder.cardId)}/state`,
      `/audit/cards/${q(holder.cardId)}/history?cursor=not-a-cursor`,
      `/audit/cards/${q(holder.cardId)}/history?limit=0`,
      `/audit/cards/${q(holder.cardId)}/history?limit=101`,
      `/audit/widgets/${q(holder.cardId)}/state?asOf=${q(iso(t2))}`,
    ];
    for (const path of bad) {
      const res = await api.get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body).toMatchObject({ status: 400, code: expect.any(String), message: expect.any(String) });
    }
  });

  it('declares the audit endpoints in the OpenAPI document', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).body;
    const paths = ['/audit/cards/{cardId}/history', '/audit/{resource}/{id}/state'];
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(paths));
    expect(doc.components.schemas.AuditPosting).toBeDefined();
  });
});
