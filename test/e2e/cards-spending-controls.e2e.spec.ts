import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { cli, cliJson } from '../support/cli.js';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { ManualClock } from '#domain/clock.js';
import { available } from '#domain/ledger/ledger.js';
import { loadLedger } from '../support/ledger-check.js';
import { useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import { signedRequest, walletHolder } from '../support/wallet-session.js';

const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };

describe('card spending controls: declined by each control, exact under concurrent authorizations', () => {
  const clock = new ManualClock(Date.UTC(2026, 1, 2, 9));
  const t = useTestService({ clock });
  const api = t.api;

  /** A holder with `funds` on its USD account and an ACTIVE card funded by it, with `spendingControls` if given. */
  async function card(funds: number, spendingControls?: Record<string, unknown>) {
    const h = await walletHolder(api, { fullName: 'Grace Hopper' });
    expect((await api.post(`/sandbox/internal-accounts/${h.usd}/fund`, { amount: funds })).status).toBe(200);
    const body = { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.usd], spendingControls };
    const created = await api.post('/cards', body);
    expect(created.status).toBe(201);
    expect(created.body.spendingControls).toEqual(spendingControls);
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    await poll(
      async () => (await api.get(`/cards/${created.body.id}`)).body,
      (c) => c.state === 'ACTIVE',
    );
    return { h, id: created.body.id as string };
  }
  const attempt = (cardId: string, amount: number, over: Partial<typeof merchant> = {}) =>
    api.post(`/sandbox/cards/${cardId}/simulate/authorization`, {
      amount,
      currency: { code: 'USD' },
      merchant: { ...merchant, ...over },
    });
  const outcome = async (cardId: string, amount: number, over: Partial<typeof merchant> = {}) => {
    const res = await attempt(cardId, amount, over);
    return res.status === 200 ? res.body.status : `${res.status} ${res.body.code}`;
  };
  const available$ = async (accountId: string) =>
    available((await loadLedger(t.service.infra.eventStore, t.service.sandbox!.platformId)).accounts.get(accountId)!);

  it('declines by each kind of control with its code; PATCH replaces and removes the card’s own', async () => {
    const limits = await card(10_000, { perAuthorizationLimit: 1000, dailyLimit: 1500, monthlyLimit: 2000 });
    expect(await outcome(limits.id, 1001)).toBe('400 SPENDING_LIMIT_PER_AUTHORIZATION');
    expect(await outcome(limits.id, 1000)).toBe('AUTHORIZED');
    expect(await outcome(limits.id, 501)).toBe('400 SPENDING_LIMIT_DAILY');
    expect(await outcome(limits.id, 500)).toBe('AUTHORIZED');
    clock.advance(24 * 3600_000);
    expect(await outcome(limits.id, 501)).toBe('400 SPENDING_LIMIT_MONTHLY');
    expect(await outcome(limits.id, 500)).toBe('AUTHORIZED');
    // A clear decline holds nothing: only the three approvals hold funds.
    expect(await available$(limits.h.usd)).toBe(8000n);

    const merchants = await card(10_000, { blockedMerchantCategories: ['5814'], allowedMerchantCountries: ['US'] });
    expect(await outcome(merchants.id, 100)).toBe('400 MERCHANT_CATEGORY_BLOCKED');
    expect(await outcome(merchants.id, 100, { mcc: '5411', country: 'DE' })).toBe('400 MERCHANT_COUNTRY_NOT_ALLOWED');
    expect(await outcome(merchants.id, 100, { mcc: '5411' })).toBe('AUTHORIZED');
    const patch = (spendingControls: unknown) =>
      signedRequest(api, 'PATCH', `/cards/${merchants.id}`, { spendingControls }, merchants.h.wallet);
    const allowed = await patch({ allowedMerchantCategories: ['5411'] });
    expect(allowed.result.status).toBe(200);
    expect(allowed.result.body.spendingControls).toEqual({ allowedMerchantCategories: ['5411'] });
    expect(await outcome(merchants.id, 100)).toBe('400 MERCHANT_CATEGORY_NOT_ALLOWED');
    const cleared = await patch(null);
    expect(cleared.result.status).toBe(200);
    expect(cleared.result.body).not.toHaveProperty('spendingControls');
    expect(await outcome(merchants.id, 100)).toBe('AUTHORIZED');
    expect((await api.get(`/cards/${merchants.id}`)).body).not.toHaveProperty('spendingControls');

    // Bad controls are refused before anything changes (both category lists; a limit out of range).
    const both = { allowedMerchantCategories: ['5411'], blockedMerchantCategories: ['5814'] };
    const refused = await patch(both);
    expect(refused.challenge.status).toBe(400);
    const body = { customerId: merchants.h.customerId, form: 'VIRTUAL', fundingSources: [merchants.h.usd] };
    const big = await api.post('/cards', { ...body, spendingControls: { dailyLimit: 9_000_000_000_000_001 } });
    expect(big.status).toBe(400);
    expect(big.body.details.errors[0].field).toContain('dailyLimit');
  });

  it('applies the platform’s cardSpendingControls to cards without their own', async () => {
    const plain = await card(10_000);
    const own = await card(10_000, { perAuthorizationLimit: 5000 });
    const set = await api.patch('/config', { cardSpendingControls: { perAuthorizationLimit: 200 } });
    expect(set.status).toBe(200);
    expect(set.body.cardSpendingControls).toEqual({ perAuthorizationLimit: 200 });
    try {
      expect(await outcome(plain.id, 201)).toBe('400 SPENDING_LIMIT_PER_AUTHORIZATION');
      expect(await outcome(own.id, 201)).toBe('AUTHORIZED');
    } finally {
      const off = await api.patch('/config', { cardSpendingControls: null });
      expect(off.body).not.toHaveProperty('cardSpendingControls');
    }
    expect(await outcome(plain.id, 201)).toBe('AUTHORIZED');
    expect((await api.patch('/config', { cardSpendingControls: { dailyLimit: 0 } })).status).toBe(400);
  });

  it('backtests a draft on the card’s history from its stream, and writes nothing', async () => {
    const { id } = await card(2000);
    const from = clock.now().toISOString();
    for (const amount of [300, 300, 300]) expect(await outcome(id, amount)).toBe('AUTHORIZED');
    expect(await outcome(id, 300, { descriptor: 'SHOP 002' })).toBe('400 INSUFFICIENT_FUNDS');
    expect(await outcome(id, 100, { country: 'DE' })).toBe('AUTHORIZED');
    clock.advance(1000);
    const to = clock.now().toISOString();
    const backtest = (body: Record<string, unknown>, client = api) =>
      client.post(`/cards/${id}/spending-controls/backtest`, { from, to, ...body });
    const { eventStore } = t.service.infra;
    const head = await eventStore.headPosition();
    const revision = (await eventStore.readStream(`card-${id.slice('Card:'.length)}`)).length;

    const same = await backtest({ spendingControls: null });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ cardId: id, currency: 'USD', authorizations: 5, changes: [] });
    expect(same.body.changed).toEqual({ count: 0, amount: 0 });

    const draft = { dailyLimit: 700, allowedMerchantCountries: ['US'] };
    const res = await backtest({ spendingControls: draft });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      authorizations: 5,
      actualApproved: { count: 4, amount: 1000 },
      draftApproved: { count: 2, amount: 600 },
      // The declined INSUFFICIENT_FUNDS one is now declined by the daily limit first (controls before funds).
      changed: { count: 3, amount: 700 },
      changesTruncated: false,
    });
    const decision = (declineReason: string | null) => ({
      outcome: declineReason ? 'DECLINED' : 'APPROVED',
      declineReason,
    });
    expect(res.body.changes).toEqual([
      expect.objectContaining({ amount: 300, actual: decision(null), draft: decision('SPENDING_LIMIT_DAILY') }),
      expect.objectContaining({ actual: decision('INSUFFICIENT_FUNDS'), draft: decision('SPENDING_LIMIT_DAILY') }),
      expect.objectContaining({ amount: 100, actual: decision(null), draft: decision('MERCHANT_COUNTRY_NOT_ALLOWED') }),
    ]);
    expect(res.body.transitions).toHaveLength(3);
    // The operator's CLI answers the same from the same stream.
    const file = join(t.dataDir, 'draft.json');
    await writeFile(file, JSON.stringify(draft));
    const args = ['--card', id, '--controls', file, '--from', from, '--to', to];
    expect(await cliJson(t.dataDir, 'cards:backtest', ...args)).toEqual(res.body);
    const text = await cli(t.dataDir, 'cards:backtest', ...args);
    expect(text.stdout).toContain('SPENDING_LIMIT_DAILY');
    // Nothing was written: the log's head and the card stream's revision are where they were.
    expect(await eventStore.headPosition()).toBe(head);
    expect((await eventStore.readStream(`card-${id.slice('Card:'.length)}`)).length).toBe(revision);

    expect((await backtest({ spendingControls: draft, to: from })).status).toBe(400);
    const long = new Date(Date.parse(from) + 367 * 86_400_000).toISOString();
    expect((await backtest({ spendingControls: draft, to: long })).body.code).toBe('INVALID_INPUT');
    expect((await backtest({ spendingControls: { dailyLimit: 0 } })).status).toBe(400);
    const other = await t.otherPlatform();
    expect((await backtest({ spendingControls: draft }, other.api)).status).toBe(404);
  });

  it.each([['dailyLimit'], ['monthlyLimit']])(
    '50 concurrent authorizations of 300 against a %s of 5,000 approve exactly 16',
    async (limit) => {
      const { h, id } = await card(20_000, { [limit]: 5000 });
      const results = await Promise.all(Array.from({ length: 50 }, () => outcome(id, 300)));
      expect(results.filter((r) => r === 'AUTHORIZED')).toHaveLength(16);
      const code = limit === 'dailyLimit' ? 'SPENDING_LIMIT_DAILY' : 'SPENDING_LIMIT_MONTHLY';
      expect(results.filter((r) => r === `400 ${code}`)).toHaveLength(34);
      // Every declined authorization's hold (if it placed one) was released.
      expect(await available$(h.usd)).toBe(20_000n - 16n * 300n);
      const page = (await api.get(`/cards/${id}/transactions?limit=100`)).body;
      expect(page.data).toHaveLength(16);
    },
  );
});
