import { describe, expect, it } from '@jest/globals';
import { idempotencyStream } from '#domain/idempotency/idempotency.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { accountQuoteBody, useMoneyService } from './money-support.js';
import { uniqueValue } from '../support/sequence.js';

const START = Date.UTC(2026, 2, 23, 8);

describe('Idempotency-Key', () => {
  const platformId = () => t.service.sandbox!.platformId;
  const key = (name: string) => ({ 'idempotency-key': uniqueValue(name) });

  const { t, api, clock, m } = useMoneyService({ start: START });

  it('runs 20 concurrent quote creations with one key once and answers all with the same quote', async () => {
    const { ada, bob } = await m.payerAndPayee();
    const headers = key('concurrent');
    const body = accountQuoteBody(ada.accounts.USD, bob.accounts.USD, 1_234);
    const replies = await Promise.all(Array.from({ length: 20 }, () => m.quote(body, headers)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = new Set(replies.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    for (const r of replies) expect(r.body).toEqual(replies[0].body);
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    const list = await api.get(`/quotes?customerId=${encodeURIComponent(ada.id)}`);
    expect(list.body.totalCount).toBe(1);
    const events = await t.service.infra.eventStore.readStream(
      idempotencyStream(platformId(), headers['idempotency-key']),
    );
    expect(events.map((e) => e.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotentResponseRecorded']);
  });

  it('answers 422 for the same key with a different request, and keeps the first response', async () => {
    const { ada, bob } = await m.payerAndPayee();
    const headers = key('reuse');
    const first = await m.quote(accountQuoteBody(ada.accounts.USD, bob.accounts.USD, 500), headers);
    expect(first.status).toBe(201);
    const different = await m.quote(accountQuoteBody(ada.accounts.USD, bob.accounts.USD, 501), headers);
    expect(different.status).toBe(422);
    expect(different.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Same body with another field order is the same request.
    const reordered = await m.quote(
      {
        lockedCurrencyAmount: 500,
        lockedCurrencySide: 'SENDING',
        destination: { accountId: bob.accounts.USD, destinationType: 'ACCOUNT' },
        source: { accountId: ada.accounts.USD, sourceType: 'ACCOUNT' },
      },
      headers,
    );
    expect(reordered.status).toBe(201);
    expect(reordered.body).toEqual(first.body);
    // Another path with the key is a different request too.
    expect((await api.post(`/quotes/${first.body.id}/execute`, undefined, headers)).status).toBe(422);
  });

  it('replays an error response with its status and body', async () => {
    const { ada, q } = await m.usdQuote(1_000);
    const headers = key('error');
    const poor = await api.post(`/quotes/${q.id}/execute`, undefined, headers);
    expect(poor.status).toBe(400);
    expect(poor.body.code).toBe('INSUFFICIENT_FUNDS');
    await m.fund(ada.accounts.USD, 5_000);
    const replay = await api.post(`/quotes/${q.id}/execute`, undefined, headers);
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 400, body: poor.body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const fresh = await api.post(`/quotes/${q.id}/execute`, undefined, key('error-2'));
    expect(fresh.body.status).toBe('COMPLETED');
  });

  it('executes and transfers once per key', async () => {
    const { ada, q } = await m.usdQuote(1_000, 10_000);
    const headers = key('execute');
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => api.post(`/quotes/${q.id}/execute`, undefined, headers)),
    );
    expect(runs.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(await m.balance(ada.accounts.USD)).toBe(9_000);
    const ext = await m.external(ada.id, 'USD', '777');
    const out = { source: { accountId: ada.accounts.USD }, destination: { accountId: ext }, amount: 2_000 };
    const outKey = key('out');
    const outs = await Promise.all(Array.from({ length: 5 }, () => api.post('/transfer-out', out, outKey)));
    expect(new Set(outs.map((r) => r.body.id)).size).toBe(1);
    expect(await m.balance(ada.accounts.USD)).toBe(7_000);
    const inKey = key('in');
    const inBody = { source: { accountId: ext }, destination: { accountId: ada.accounts.USD }, amount: 500 };
    const ins = [await api.post('/transfer-in', inBody, inKey), await api.post('/transfer-in', inBody, inKey)];
    expect(ins[1].body).toEqual(ins[0].body);
    expect(await m.balance(ada.accounts.USD)).toBe(7_500);
    await expectBalancedLedger(t.service.infra.eventStore, platformId());
  });

  it('keys are per platform, validated, and reusable after 24 hours', async () => {
    const { ada, bob } = await m.payerAndPayee();
    const headers = key('retention');
    const body = accountQuoteBody(ada.accounts.USD, bob.accounts.USD, 700);
    const first = await m.quote(body, headers);
    const other = await t.otherPlatform();
    const elsewhere = await other.api.post('/quotes', body, headers);
    expect(elsewhere.status).toBe(404); // runs (not a replay): the accounts are not that platform's
    clock.advance(23 * 3_600_000);
    expect((await m.quote(body, headers)).body.id).toBe(first.body.id);
    clock.advance(3_600_000);
    const later = await m.quote(body, headers);
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect((await m.quote(body, { 'idempotency-key': '' })).status).toBe(400);
    expect((await m.quote(body, { 'idempotency-key': 'x'.repeat(256) })).status).toBe(400);
  });

  it('does not record authentication failures', async () => {
    const c = await m.customer(['USD'], { email: 'w@example.com' });
    const opened = await api.post('/customers/internal-accounts', {
      customerId: c.id,
      type: 'EMBEDDED_WALLET',
      currency: 'USD',
    });
    const q = (await m.accountQuote(opened.body.id, (await m.customer(['USD'])).accounts.USD, 100)).body;
    const headers = key('auth');
    expect((await api.post(`/quotes/${q.id}/execute`, undefined, headers)).status).toBe(401);
    const events = await t.service.infra.eventStore.readStream(
      idempotencyStream(platformId(), headers['idempotency-key']),
    );
    expect(events.map((e) => e.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotencyKeyReleased']);
  });
});
