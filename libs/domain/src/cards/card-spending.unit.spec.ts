import { describe, expect, it } from '@jest/globals';
import { checkSpendingControls, spendingDecline, usageOn, addSpend, type SpendingControls } from './card-spending.js';
import type { CardCommand, CardEvent, Merchant } from './card-types.js';
import { USD, at, create, given, holder, inState, update } from './card.fixtures.js';

const controls = (spendingControls: SpendingControls | null): CardCommand => ({
  type: 'UpdateCard',
  spendingControls,
  holderAccounts: holder,
  now: at(10),
});

const coffee: Merchant = { descriptor: 'COFFEE', mcc: '5814', country: 'US' };
const day = (d: number, s = 0) => new Date(Date.UTC(2026, 0, d) + s * 1000).toISOString();

/** An ACTIVE card with `controls` of its own. */
const cardWith = (controls: SpendingControls | null): CardEvent[] => {
  const created = given([]).then(create({ spendingControls: controls }));
  return given(created).then({ type: 'CompleteIssuance', now: at(5) });
};

let n = 0;
const authorize = (amount: bigint, over: Partial<Extract<CardCommand, { type: 'RecordAuthorization' }>> = {}) => {
  n += 1;
  return {
    type: 'RecordAuthorization' as const,
    authorizationId: `A${n}`,
    amount,
    currency: 'USD',
    merchant: coffee,
    hold: { fundingSourceId: USD, transferId: `T${n}` },
    now: day(5, 60),
    ...over,
  } satisfies CardCommand;
};
const outcome = (events: CardEvent[], cmd: CardCommand) => {
  const [e] = given(events).when(cmd);
  const a = (e as Extract<CardEvent, { data: { authorization: unknown } }>).data.authorization;
  return a.status === 'DECLINED' ? a.declineReason : a.status;
};

describe('spending controls (decider)', () => {
  it('checks the controls as given and drops the absent and null fields', () => {
    expect(checkSpendingControls(null, 'c')).toBeNull();
    expect(checkSpendingControls({ dailyLimit: null, perAuthorizationLimit: undefined }, 'c')).toBeNull();
    expect(checkSpendingControls({ dailyLimit: 5, allowedMerchantCountries: ['US'], monthlyLimit: null }, 'c')).toEqual(
      {
        dailyLimit: 5,
        allowedMerchantCountries: ['US'],
      },
    );
    const refused = (input: Record<string, unknown>, field: string) =>
      expect(() => checkSpendingControls(input, 'c')).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          details: expect.objectContaining({ errors: [expect.objectContaining({ field })] }),
        }) as never,
      );
    refused({ dailyLimit: 0 }, 'c.dailyLimit');
    refused({ monthlyLimit: 9_000_000_000_000_001 }, 'c.monthlyLimit');
    refused({ perAuthorizationLimit: 1.5 }, 'c.perAuthorizationLimit');
    refused({ allowedMerchantCategories: [] }, 'c.allowedMerchantCategories');
    refused({ blockedMerchantCategories: ['58'] }, 'c.blockedMerchantCategories[0]');
    refused({ allowedMerchantCountries: ['us'] }, 'c.allowedMerchantCountries[0]');
    refused(
      { allowedMerchantCategories: ['5814'], blockedMerchantCategories: ['5999'] },
      'c.blockedMerchantCategories',
    );
  });

  it('declines by each kind of control, with its own code, in order', () => {
    const at = day(5);
    const req = (amount: bigint, merchant: Merchant = coffee) => ({ amount, merchant, at });
    expect(spendingDecline({ blockedMerchantCategories: ['5814'] }, undefined, req(1n))).toBe(
      'MERCHANT_CATEGORY_BLOCKED',
    );
    expect(
      spendingDecline({ blockedMerchantCategories: ['5814'] }, undefined, req(1n, { descriptor: 'X' })),
    ).toBeUndefined();
    expect(spendingDecline({ allowedMerchantCategories: ['5411'] }, undefined, req(1n))).toBe(
      'MERCHANT_CATEGORY_NOT_ALLOWED',
    );
    expect(spendingDecline({ allowedMerchantCategories: ['5814'] }, undefined, req(1n, { descriptor: 'X' }))).toBe(
      'MERCHANT_CATEGORY_NOT_ALLOWED',
    );
    expect(spendingDecline({ allowedMerchantCountries: ['DE'] }, undefined, req(1n))).toBe(
      'MERCHANT_COUNTRY_NOT_ALLOWED',
    );
    expect(spendingDecline({ perAuthorizationLimit: 100 }, undefined, req(101n))).toBe(
      'SPENDING_LIMIT_PER_AUTHORIZATION',
    );
    expect(spendingDecline({ perAuthorizationLimit: 100 }, undefined, req(100n))).toBeUndefined();
    const spent = addSpend(undefined, 400n, at);
    expect(spendingDecline({ dailyLimit: 500 }, spent, req(101n))).toBe('SPENDING_LIMIT_DAILY');
    expect(spendingDecline({ dailyLimit: 500 }, spent, req(100n))).toBeUndefined();
    expect(spendingDecline({ monthlyLimit: 500 }, spent, req(101n))).toBe('SPENDING_LIMIT_MONTHLY');
    // Category before country before the amounts.
    const all = { blockedMerchantCategories: ['5814'], allowedMerchantCountries: ['DE'], perAuthorizationLimit: 1 };
    expect(spendingDecline(all, undefined, req(5n))).toBe('MERCHANT_CATEGORY_BLOCKED');
  });

  it('counts the UTC day and month of the authorization: a new day or month starts from zero', () => {
    let usage = addSpend(undefined, 300n, day(5, 10));
    usage = addSpend(usage, 200n, day(5, 20));
    expect(usageOn(usage, day(5, 30))).toMatchObject({ daily: 500n, monthly: 500n });
    expect(usageOn(usage, day(6))).toMatchObject({ daily: 0n, monthly: 500n });
    expect(usageOn(usage, new Date(Date.UTC(2026, 1, 1)).toISOString())).toMatchObject({ daily: 0n, monthly: 0n });
    usage = addSpend(usage, 50n, day(6));
    expect(usage).toMatchObject({ day: '2026-01-06', daily: 50n, monthly: 550n });
    // An approval dated a moment before the counted day still counts in its month.
    expect(addSpend(usage, 7n, day(5, 59))).toMatchObject({ day: '2026-01-06', daily: 50n, monthly: 557n });
  });

  it('re-checks the limits when the authorization is recorded: approvals before it count, declines do not', () => {
    let events = cardWith({ dailyLimit: 1000, monthlyLimit: 1500 });
    for (const amount of [600n, 400n]) events = given(events).then(authorize(amount));
    // A hold placed concurrently past the daily limit is declined (the caller voids it).
    expect(outcome(events, authorize(1n))).toBe('SPENDING_LIMIT_DAILY');
    events = given(events).then(authorize(1n));
    // The declined one did not count; the next day has room again, up to the month's limit.
    expect(outcome(events, authorize(500n, { now: day(6) }))).toBe('APPROVED');
    expect(outcome(events, authorize(501n, { now: day(6) }))).toBe('SPENDING_LIMIT_MONTHLY');
    expect(outcome(events, authorize(501n, { now: day(6), hold: undefined }))).toBe('SPENDING_LIMIT_MONTHLY');
    expect(outcome(events, authorize(5n, { now: day(6), hold: undefined }))).toBe('INSUFFICIENT_FUNDS');
  });

  it('checks an increment with its authorization’s total and counts it towards the day and the month', () => {
    const increment = (authorizationId: string, amount: bigint, id: string, now = day(5, 90)): CardCommand => ({
      type: 'RecordIncrement',
      authorizationId,
      networkTransactionId: id,
      amount,
      hold: { transferId: `H-${id}` },
      now,
    });
    /** The increment's outcome: its activity entry's result, or its decline reason. */
    const incremented = (events: CardEvent[], cmd: CardCommand) => {
      const [e] = given(events).when(cmd);
      const last = (e as Extract<CardEvent, { data: { authorization: unknown } }>).data.authorization.activity.at(-1);
      return last?.result === 'APPROVED' ? 'APPROVED' : last?.declineReason;
    };
    let events = cardWith({ perAuthorizationLimit: 500, dailyLimit: 800, monthlyLimit: 900 });
    const first = authorize(400n);
    events = given(events).then(first);
    // 400 held: an increment of 101 takes the authorization past its 500.
    expect(incremented(events, increment(first.authorizationId, 101n, 'I1'))).toBe('SPENDING_LIMIT_PER_AUTHORIZATION');
    events = given(events).then(increment(first.authorizationId, 100n, 'I2'));
    // The increment counted: 500 spent today, so an authorization of 301 is past the daily 800.
    expect(outcome(events, authorize(301n))).toBe('SPENDING_LIMIT_DAILY');
    const second = authorize(300n);
    events = given(events).then(second);
    // An increment recorded after other approvals is checked on the stream as it is then (800 spent today).
    expect(incremented(events, increment(second.authorizationId, 1n, 'I3'))).toBe('SPENDING_LIMIT_DAILY');
    // The next day: the month's 900 holds, counted with the increment of the day before.
    expect(incremented(events, increment(second.authorizationId, 101n, 'I4', day(6)))).toBe('SPENDING_LIMIT_MONTHLY');
    expect(incremented(events, increment(second.authorizationId, 100n, 'I5', day(6)))).toBe('APPROVED');
  });

  it('records an outcome taken outside the rules (stand-in, network advice) as taken', () => {
    const events = cardWith({ perAuthorizationLimit: 10 });
    const standIn = { decision: { decidedBy: 'STAND_IN' as const, elapsedMs: 5 } };
    expect(outcome(events, authorize(500n, standIn))).toBe('APPROVED');
    expect(outcome(events, authorize(500n, { decision: { decidedBy: 'RULES', elapsedMs: 5 } }))).toBe(
      'SPENDING_LIMIT_PER_AUTHORIZATION',
    );
  });

  it('checks the card state and currency first, then the controls', () => {
    const frozen = given(cardWith({ perAuthorizationLimit: 1 })).then(update({ state: 'FROZEN' }));
    expect(outcome(frozen, authorize(5n, { hold: undefined }))).toBe('CARD_PAUSED');
    expect(outcome(cardWith({ perAuthorizationLimit: 1 }), authorize(5n, { currency: 'EUR', hold: undefined }))).toBe(
      'CURRENCY_MISMATCH',
    );
  });

  it('applies the platform default to a card without controls of its own; the card’s own replace it', () => {
    const defaults = { defaultSpendingControls: { allowedMerchantCountries: ['DE'] } };
    expect(outcome(cardWith(null), authorize(5n, defaults))).toBe('MERCHANT_COUNTRY_NOT_ALLOWED');
    expect(outcome(cardWith({ perAuthorizationLimit: 10 }), authorize(5n, defaults))).toBe('APPROVED');
    expect(outcome(cardWith(null), authorize(5n))).toBe('APPROVED');
  });

  it('sets, replaces and removes the card’s own controls with UpdateCard (not on a closed card)', () => {
    const events = cardWith(null);
    const set = given(events).when(controls({ dailyLimit: 5000 }));
    expect(set.map((e) => e.type)).toEqual(['CardSpendingControlsChanged']);
    expect(set[0]).toMatchObject({
      data: { previousSpendingControls: null, card: { spendingControls: { dailyLimit: 5000 } } },
    });
    const after = [...events, ...set];
    expect(given(after).when(controls({ dailyLimit: 5000 }))).toEqual([]);
    const cleared = given(after).when(controls(null));
    expect(cleared[0]).toMatchObject({ data: { card: { spendingControls: null } } });
    expect(() => given(inState('CLOSED')).when(controls(null))).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }) as never,
    );
    expect(() => given(events).when(controls({ dailyLimit: -1 }))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }) as never,
    );
  });
});
