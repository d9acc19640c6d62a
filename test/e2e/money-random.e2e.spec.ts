import { beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { postedBalance } from '#domain/ledger/ledger.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import type { Reply } from '../support/service.js';
import { money, type Customer } from './money-support.js';
import { useTestService } from '../support/fixture.js';

/** Small seeded PRNG (mulberry32): the same seed replays the same run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}

// MONEY_SEED replays another run; the default keeps CI deterministic.
const SEED = Number(process.env.MONEY_SEED ?? 20260413);
const OPERATIONS = 320;
const CURRENCIES = ['USD', 'EUR'] as const;
const SUFFIXES = ['000', '002', '003', '004', '005', '006', '007'] as const;

describe('randomized money movement (seeded)', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 13, 9));
  const rnd = prng(SEED);
  const customers: (Customer & { externals: Record<string, string[]> })[] = [];
  const pendingQuotes: string[] = [];
  const awaitingApproval: string[] = [];
  const statuses = new Map<number, number>();

  /** Only client errors that the business rules explain are acceptable; never a 5xx. */
  const check = (reply: Reply, ...expected: number[]) => {
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    if (!expected.includes(reply.status)) throw new Error(`unexpected ${reply.status}: ${JSON.stringify(reply.body)}`);
    return reply;
  };

  const t = useTestService({ clock });
  const api = t.api;
  const m = money(t);
  beforeAll(async () => {
    for (let i = 0; i < 6; i++) {
      const c = await m.customer([...CURRENCIES]);
      const externals: Record<string, string[]> = {};
      for (const code of CURRENCIES)
        externals[code] = [
          await m.external(c.id, code, rnd.pick(SUFFIXES)),
          await m.external(c.id, code, rnd.pick(SUFFIXES)),
        ];
      customers.push({ ...c, externals });
      for (const code of CURRENCIES) await m.fund(c.accounts[code], rnd.int(10_000, 200_000));
    }
  });

  const operation = async () => {
    const from = rnd.pick(customers);
    const to = rnd.pick(customers);
    const code = rnd.pick(CURRENCIES);
    const other = rnd.pick(CURRENCIES);
    const amount = rnd.int(100, 60_000);
    switch (rnd.int(0, 9)) {
      case 0:
      case 1: {
        // Internal payment, possibly cross-currency, executed now or later.
        if (from === to && code === other) return;
        const q = check(
          await m.accountQuote(from.accounts[code], to.accounts[other], amount, {
            lockedCurrencySide: rnd.pick(['SENDING', 'RECEIVING']),
          }),
          201,
        );
        // 409: a concurrent clock advance may expire the quote first.
        if (rnd.next() < 0.7) check(await api.post(`/quotes/${q.body.id}/execute`), 200, 400, 409);
        else pendingQuotes.push(q.body.id);
        return;
      }
      case 2: {
        // Payout to an external account: every sandbox outcome, including returns and refunds.
        const q = check(await m.accountQuote(from.accounts[code], rnd.pick(from.externals[code]), amount), 201, 400);
        if (q.status === 201) check(await api.post(`/quotes/${q.body.id}/execute`), 200, 400, 409);
        return;
      }
      case 3: {
        if (pendingQuotes.length === 0) return;
        const id = pendingQuotes.splice(rnd.int(0, pendingQuotes.length - 1), 1)[0];
        check(await api.post(`/quotes/${id}/execute`), 200, 400, 409);
        return;
      }
      case 4:
        check(
          await api.post('/transfer-out', {
            source: { accountId: from.accounts[code] },
            destination: { accountId: rnd.pick(from.externals[code]) },
            amount,
          }),
          201,
          400,
        );
        return;
      case 5:
        check(
          await api.post('/transfer-in', {
            source: { accountId: rnd.pick(from.externals[code]) },
            destination: { accountId: from.accounts[code] },
            amount,
          }),
          201,
        );
        return;
      case 6: {
        const sender = rnd.pick([
          '$alice@bank.example.com',
          '$pending.long.USD@bank.example.com',
          '$fail.compliance.USD@bank.example.com',
        ]);
        const res = check(
          await api.post('/sandbox/uma/receive', {
            senderUmaAddress: sender,
            customerId: to.id,
            receivingCurrencyCode: code,
            receivingCurrencyAmount: amount,
          }),
          200,
        );
        if (res.body.status === 'PENDING') awaitingApproval.push(res.body.id);
        return;
      }
      case 7: {
        if (awaitingApproval.length === 0) return;
        const id = awaitingApproval.splice(rnd.int(0, awaitingApproval.length - 1), 1)[0];
        check(await api.post(`/transactions/${id}/${rnd.pick(['approve', 'reject'])}`), 200, 409);
        return;
      }
      case 8:
        // Time passes: delayed outcomes fire, some quotes expire.
        check(await api.post('/sandbox/clock/advance', { seconds: rnd.int(1, 240) }), 200);
        return;
      case 9:
        await m.fund(to.accounts[code], rnd.int(1_000, 50_000));
        return;
    }
  };

  it(`runs ${OPERATIONS} operations in concurrent batches and keeps the ledger balanced`, async () => {
    for (let done = 0; done < OPERATIONS;) {
      const batch = rnd.int(1, 6);
      await Promise.all(Array.from({ length: batch }, () => operation()));
      done += batch;
    }
    // Let every delayed outcome, expiry and approval timeout fire.
    check(await api.post('/sandbox/clock/advance', { seconds: 2 * 3_600 }), 200);
    const settleStarted = Date.now();
    const deadline = settleStarted + 20_000;
    let open = Infinity;
    while (open > 0 && Date.now() < deadline) {
      const processing = await api.get('/transactions?status=PROCESSING&limit=1');
      const pending = await api.get('/transactions?status=PENDING&limit=1');
      open = processing.body.totalCount + pending.body.totalCount;
      if (open > 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(open).toBe(0);
    console.log(`settled in ${Date.now() - settleStarted} ms`);
    await t.service.infra.projections.waitForPosition(await t.service.infra.eventStore.headPosition(), 5_000);

    const ledger = await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
    for (const c of customers) {
      for (const code of CURRENCIES) {
        const account = ledger.accounts.get(c.accounts[code])!;
        expect(account.debitsPending).toBe(0n);
        expect(postedBalance(account) >= 0n).toBe(true);
        expect(await m.balance(c.accounts[code])).toBe(Number(postedBalance(account)));
      }
    }
    const all = await api.get('/transactions?limit=1');
    expect(all.body.totalCount).toBeGreaterThan(100);
    expect(statuses.get(500)).toBeUndefined();
    // Both successes and refusals happened: the run exercised the rules, not just the happy path.
    expect(statuses.get(201)).toBeGreaterThan(50);
    expect(statuses.get(400)).toBeGreaterThan(0);
    const refunded = await api.get('/transactions?status=REFUNDED&limit=1');
    const failed = await api.get('/transactions?status=FAILED&limit=1');
    expect(refunded.body.totalCount + failed.body.totalCount).toBeGreaterThan(0);
  });
});
