import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CardBacktest, checkBacktestPeriod, type Decision } from './card-backtest.js';
import { screenAuthorization } from './card-authorization.js';
import { cardDecider } from './card.js';
import { cardSpendingDecline, type SpendingControls } from './card-spending.js';
import type { CardAggregate, CardCommand, CardEvent, DeclineReason, ExistingCard, Merchant } from './card-types.js';
import { USD, create, holder } from './card.fixtures.js';

const START = Date.UTC(2026, 0, 30, 20);
const MCCS = ['5814', '5411', '5999'];
const COUNTRIES = ['US', 'DE'];

type Step =
  | { kind: 'auth'; amount: number; mcc?: string; country?: string; funded: boolean; advance: number }
  | { kind: 'state'; state: 'FROZEN' | 'ACTIVE' };

const controlsArb: fc.Arbitrary<SpendingControls> = fc
  .record(
    {
      perAuthorizationLimit: fc.integer({ min: 1, max: 900 }),
      dailyLimit: fc.integer({ min: 1, max: 3000 }),
      monthlyLimit: fc.integer({ min: 1, max: 8000 }),
      allowedMerchantCategories: fc.subarray(MCCS, { minLength: 1 }),
      blockedMerchantCategories: fc.subarray(MCCS, { minLength: 1 }),
      allowedMerchantCountries: fc.subarray(COUNTRIES, { minLength: 1 }),
    },
    { requiredKeys: [] },
  )
  .map(({ allowedMerchantCategories, blockedMerchantCategories, ...rest }) => ({
    ...rest,
    // Not both category lists at once.
    ...(allowedMerchantCategories
      ? { allowedMerchantCategories }
      : blockedMerchantCategories
        ? { blockedMerchantCategories }
        : {}),
  }));

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      kind: fc.constant('auth' as const),
      amount: fc.integer({ min: 1, max: 1000 }),
      mcc: fc.option(fc.constantFrom(...MCCS), { nil: undefined }),
      country: fc.option(fc.constantFrom(...COUNTRIES), { nil: undefined }),
      funded: fc.boolean(),
      // Mostly hours, sometimes up to two days apart: days fill up, and histories cross days and months.
      advance: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 4 * 3600 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * 86_400 }) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('state' as const),
      state: fc.constantFrom('FROZEN' as const, 'ACTIVE' as const),
    }),
  },
);

const merchantOf = (s: Extract<Step, { kind: 'auth' }>): Merchant => ({
  descriptor: 'SHOP',
  ...(s.mcc ? { mcc: s.mcc } : {}),
  ...(s.country ? { country: s.country } : {}),
});

/** A card's stream built through its decider, as the authorization flow drives it (check, hold or not, record). */
function history(controls: SpendingControls, steps: Step[]) {
  const events: CardEvent[] = [];
  let state: CardAggregate = cardDecider.initialState();
  const run = (cmd: CardCommand) => {
    for (const e of cardDecider.decide(cmd, state)) {
      events.push(e);
      state = cardDecider.evolve(state, e);
    }
  };
  let t = START;
  const now = () => new Date(t).toISOString();
  run(create({ spendingControls: controls, now: now() }));
  run({ type: 'CompleteIssuance', now: now() });
  const auths: { id: string; step: Extract<Step, { kind: 'auth' }>; at: string; actual: DeclineReason | null }[] = [];
  steps.forEach((step, i) => {
    const card = (state as ExistingCard).card;
    if (step.kind === 'state') {
      if (card.state !== step.state) run({ type: 'UpdateCard', state: step.state, holderAccounts: holder, now: now() });
      return;
    }
    t += step.advance * 1000;
    const base = { type: 'RecordAuthorization' as const, authorizationId: `A${i}`, currency: 'USD', now: now() };
    const request = { ...base, amount: BigInt(step.amount), merchant: merchantOf(step) };
    const pre = screenAuthorization(card, 'USD') ?? cardSpendingDecline(state as ExistingCard, request);
    const hold = { fundingSourceId: USD, transferId: `T${i}` };
    run(pre ? { ...request, declineReason: pre } : step.funded ? { ...request, hold } : request);
    const a = (state as ExistingCard).authorizations.get(`A${i}`)!;
    auths.push({
      id: base.authorizationId,
      step,
      at: base.now,
      actual: a.status === 'DECLINED' ? a.declineReason : null,
    });
  });
  return { events, auths };
}

/** The draft's decisions written out plainly: sums over the earlier approvals of the same UTC day and month. */
function oracle(draft: SpendingControls, auths: ReturnType<typeof history>['auths']): Decision[] {
  const approved: { at: string; amount: number }[] = [];
  return auths.map(({ step, at, actual }) => {
    const decide = (): Decision => {
      if (actual && actual !== 'INSUFFICIENT_FUNDS' && !actual.startsWith('SPENDING') && !actual.startsWith('MERCHANT'))
        return { outcome: 'DECLINED', declineReason: actual };
      const sum = (len: number) =>
        approved.filter((p) => p.at.slice(0, len) === at.slice(0, len)).reduce((s, p) => s + p.amount, 0);
      const no = (declineReason: DeclineReason): Decision => ({ outcome: 'DECLINED', declineReason });
      if (draft.blockedMerchantCategories?.includes(step.mcc ?? '-')) return no('MERCHANT_CATEGORY_BLOCKED');
      if (draft.allowedMerchantCategories && !draft.allowedMerchantCategories.includes(step.mcc ?? '-'))
        return no('MERCHANT_CATEGORY_NOT_ALLOWED');
      if (draft.allowedMerchantCountries && !draft.allowedMerchantCountries.includes(step.country ?? '-'))
        return no('MERCHANT_COUNTRY_NOT_ALLOWED');
      if (draft.perAuthorizationLimit !== undefined && step.amount > draft.perAuthorizationLimit)
        return no('SPENDING_LIMIT_PER_AUTHORIZATION');
      if (draft.dailyLimit !== undefined && sum(10) + step.amount > draft.dailyLimit) return no('SPENDING_LIMIT_DAILY');
      if (draft.monthlyLimit !== undefined && sum(7) + step.amount > draft.monthlyLimit)
        return no('SPENDING_LIMIT_MONTHLY');
      if (actual === 'INSUFFICIENT_FUNDS') return no('INSUFFICIENT_FUNDS');
      return { outcome: 'APPROVED', declineReason: null };
    };
    const decision = decide();
    if (decision.outcome === 'APPROVED') approved.push({ at, amount: step.amount });
    return decision;
  });
}

const WHOLE = { from: new Date(START).toISOString(), to: new Date(START + 400 * 86_400_000).toISOString() };
const replay = (events: CardEvent[], draft: SpendingControls | null, period = WHOLE) => {
  const backtest = new CardBacktest(draft, period);
  for (const e of events) backtest.apply(e);
  return backtest.report();
};

describe('card spending controls backtest', () => {
  it('the card’s own controls reproduce every actual decision', () => {
    fc.assert(
      fc.property(controlsArb, fc.array(stepArb, { maxLength: 60 }), (controls, steps) => {
        const { events, auths } = history(controls, steps);
        const report = replay(events, controls);
        expect(report.authorizations).toBe(auths.length);
        expect(report.changed.count).toBe(0);
        expect(report.changes).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('a draft lists exactly the decisions it changes, with their counts and amounts', () => {
    const stricter = (c: SpendingControls): fc.Arbitrary<SpendingControls> =>
      fc
        .record({ cut: fc.integer({ min: 1, max: 100 }), daily: fc.integer({ min: 1, max: 2000 }) })
        .map(({ cut, daily }) => ({
          ...c,
          perAuthorizationLimit: Math.max(1, Math.floor(((c.perAuthorizationLimit ?? 1000) * cut) / 100)),
          dailyLimit: Math.min(c.dailyLimit ?? daily, daily),
        }));
    const draftArb = (c: SpendingControls) => fc.oneof(stricter(c), controlsArb);
    fc.assert(
      fc.property(
        controlsArb.chain((c) => fc.tuple(fc.constant(c), draftArb(c), fc.array(stepArb, { maxLength: 60 }))),
        ([controls, draft, steps]) => {
          const { events, auths } = history(controls, steps);
          const expected = oracle(draft, auths);
          const changed = auths
            .map((a, i) => ({ a, draft: expected[i] }))
            .filter(({ a, draft: d }) => a.actual !== d.declineReason);
          const report = replay(events, draft);
          expect(report.changes.map((c) => [c.authorizationId, c.draft])).toEqual(
            changed.map(({ a, draft: d }) => [a.id, d]),
          );
          expect(report.changed).toEqual({
            count: changed.length,
            amount: changed.reduce((s, c) => s + c.a.step.amount, 0),
          });
          const approved = expected.filter((d) => d.outcome === 'APPROVED').length;
          expect(report.draftApproved.count).toBe(approved);
          const pairs = report.transitions.reduce((s, p) => s + p.count, 0);
          expect(pairs).toBe(changed.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts earlier approvals towards the draft’s windows, decides only the period, and checks the period', () => {
    const steps: Step[] = [600, 600, 600].map((amount) => ({ kind: 'auth', amount, funded: true, advance: 60 }));
    const { events, auths } = history({}, steps);
    const from = auths[1].at;
    const report = replay(events, { dailyLimit: 1000 }, { from, to: WHOLE.to });
    expect(report.authorizations).toBe(2);
    expect(report.changes.map((c) => c.draft.declineReason)).toEqual(['SPENDING_LIMIT_DAILY', 'SPENDING_LIMIT_DAILY']);
    expect(report.transitions).toEqual([
      {
        actual: { outcome: 'APPROVED', declineReason: null },
        draft: { outcome: 'DECLINED', declineReason: 'SPENDING_LIMIT_DAILY' },
        count: 2,
        amount: 1200,
      },
    ]);
    const code = (p: { from: string; to: string }) => {
      try {
        checkBacktestPeriod(p);
      } catch (e) {
        return (e as { details: { errors: { field: string }[] } }).details.errors[0].field;
      }
      return 'ok';
    };
    expect(code({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toBe('to');
    expect(code({ from: '2025-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' })).toBe('to');
    expect(code({ from: 'yesterday', to: '2026-01-01T00:00:00Z' })).toBe('from');
    expect(code({ from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' })).toBe('ok');
  });

  it('keeps stand-in outcomes and the platform’s declines as recorded; controls come before them', () => {
    const { events } = history({}, []);
    const record = (id: string, extra: Partial<CardCommand & { type: 'RecordAuthorization' }>) => {
      let state = events.reduce(cardDecider.evolve, cardDecider.initialState());
      const cmd = {
        type: 'RecordAuthorization' as const,
        authorizationId: id,
        amount: 900n,
        currency: 'USD',
        merchant: { descriptor: 'SHOP', mcc: '5814' },
        now: new Date(START + 60_000).toISOString(),
        ...extra,
      } as CardCommand;
      for (const e of cardDecider.decide(cmd, state)) {
        events.push(e);
        state = cardDecider.evolve(state, e);
      }
    };
    record('S1', {
      hold: { fundingSourceId: USD, transferId: 'T1' },
      merchant: { descriptor: 'SHOP', mcc: '5411' },
      decision: { decidedBy: 'STAND_IN', elapsedMs: 1 },
    });
    record('P1', { declineReason: 'PLATFORM_DECLINED', decision: { decidedBy: 'PLATFORM', elapsedMs: 1 } });
    record('P2', { declineReason: 'PLATFORM_DECLINED', merchant: { descriptor: 'SHOP', mcc: '5411' } });
    const report = replay(events, { blockedMerchantCategories: ['5411'] });
    expect(report.authorizations).toBe(3);
    expect(report.changes.map((c) => [c.authorizationId, c.draft.declineReason])).toEqual([
      ['P2', 'MERCHANT_CATEGORY_BLOCKED'],
    ]);
  });

  it('replays 100,000 authorizations in one pass (the bench scenario card-backtest measures how fast)', () => {
    const events: CardEvent[] = history({}, []).events;
    const card = { platformId: 'P', cardId: 'C' };
    for (let i = 0; i < 100_000; i++) {
      const at = new Date(START + i * 60_000).toISOString();
      const authorization = {
        id: `A${i}`,
        cardId: 'C',
        customerId: 'X',
        amount: '300',
        currency: 'USD',
        merchant: { descriptor: 'SHOP', mcc: '5814' },
        status: 'APPROVED' as const,
        declineReason: null,
        fundingSourceId: USD,
        holdTransferId: `T${i}`,
        transferIds: [`T${i}`],
        clearedAmount: '0',
        returnedAmount: '0',
        latePresentment: false,
        activity: [],
        createdAt: at,
        updatedAt: at,
      };
      events.push({ type: 'CardAuthorizationRecorded', data: { ...card, authorization } });
    }
    const report = replay(
      events,
      { dailyLimit: 30_000 },
      { from: WHOLE.from, to: new Date(START + 366 * 86_400_000 - 1).toISOString() },
    );
    expect(report.authorizations).toBe(100_000);
    // 1,440 authorizations a day, 100 of them fit the daily limit.
    expect(report.draftApproved.count).toBeGreaterThan(6_900);
  });
});
