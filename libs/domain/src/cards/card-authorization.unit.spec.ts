import { describe, expect, it } from '@jest/globals';
import { clearingPlan, clearingTransferId, returnPlan, screenAuthorization } from './card-authorization.js';
import type { CardCommand } from './card-types.js';
import { PLATFORM, CARD, USD, at, given, active, inState, update, cardOf } from './card.fixtures.js';

describe('card authorizations (decider)', () => {
  const merchant = { descriptor: 'COFFEE' };
  const authorize = (id: string, hold?: string): CardCommand => ({
    type: 'RecordAuthorization',
    authorizationId: id,
    amount: 500n,
    currency: 'USD',
    merchant,
    ...(hold ? { hold: { fundingSourceId: USD, transferId: hold } } : {}),
    now: at(20),
  });
  /** A clearing of `amount` of A1 reserved on the card stream. */
  const start = (amount: bigint): CardCommand => ({
    type: 'StartClearing',
    authorizationId: 'A1',
    amount,
    latePresentment: false,
    now: at(30),
  });
  /** A clearing of `amount` posted as `transferId`. */
  const posted = (authorizationId: string, amount: bigint, transferId: string): CardCommand => ({
    type: 'RecordClearing',
    authorizationId,
    amount,
    outcome: { posted: true, transferIds: [transferId], latePresentment: false },
    now: at(30),
  });

  it('declines by card state and currency before funds are looked at', () => {
    expect(screenAuthorization(cardOf(inState('FROZEN')), 'USD')).toBe('CARD_PAUSED');
    expect(screenAuthorization(cardOf(inState('CLOSED')), 'USD')).toBe('CARD_CLOSED');
    expect(screenAuthorization(cardOf(inState('PENDING_ISSUE')), 'USD')).toBe('CARD_NOT_ACTIVE');
    expect(screenAuthorization(cardOf(active()), 'EUR')).toBe('CURRENCY_MISMATCH');
    expect(screenAuthorization(cardOf(active()), 'USD')).toBeUndefined();
  });

  it('records holds, clears, returns, and reverses open ones on close', () => {
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(authorize('A2', 'T2'));
    expect(given(events).state().authorizations.get('A1')).toMatchObject({
      status: 'APPROVED',
      holdTransferId: 'T1',
      fundingSourceId: USD,
    });
    // Frozen between authorization and clearing: the earlier one still clears.
    events = given(events).then(update({ state: 'FROZEN' }));
    expect(given(events).when(authorize('A3'))[0]).toMatchObject({
      data: { authorization: { status: 'DECLINED', declineReason: 'CARD_PAUSED' } },
    });
    expect(clearingPlan(given(events).state(), 'A1', 300n)).toMatchObject({ kind: 'HOLD', amount: 300n });
    events = given(events).then(posted('A1', 300n, 'T1p'));
    expect(() => clearingPlan(given(events).state(), 'A1')).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'INVALID_INPUT' }) as never,
    );
    expect(() => returnPlan(given(events).state(), 'A1', 301n)).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'INVALID_AMOUNT' }) as never,
    );
    events = given(events).then({
      type: 'RecordReturn',
      authorizationId: 'A1',
      amount: 100n,
      transferId: 'R1',
      now: at(31),
    });
    expect(returnPlan(given(events).state(), 'A1').amount).toBe(200n);
    const closing = given(events).when(update({ state: 'CLOSED' }));
    expect(closing.map((e) => e.type)).toEqual(['CardStateChanged', 'CardAuthorizationReversed']);
    events = [...events, ...closing];
    const a2 = given(events).state().authorizations.get('A2')!;
    expect(a2.status).toBe('REVERSED');
    expect(clearingPlan(given(events).state(), 'A2').kind).toBe('LATE');
    expect(given(events).state().authorizations.get('A1')!).toMatchObject({
      status: 'CLEARED',
      amount: '500',
      clearedAmount: '300',
      returnedAmount: '100',
    });
    // In-flight refunds still complete after close.
    events = given(events).then({
      type: 'RecordReturn',
      authorizationId: 'A1',
      amount: 200n,
      transferId: 'R2',
      now: at(40),
    });
    expect(() => returnPlan(given(events).state(), 'A1')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }) as never,
    );
  });

  it('expires only an authorization that still holds funds', () => {
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(authorize('A2', 'T2'));
    events = given(events).then(posted('A2', 500n, 'T2p'));
    const expiry = (authorizationId: string): CardCommand => ({
      type: 'ExpireAuthorization',
      authorizationId,
      now: at(50),
    });
    const [reversed] = given(events).when(expiry('A1'));
    expect(reversed).toMatchObject({
      type: 'CardAuthorizationReversed',
      data: { authorization: { id: 'A1', status: 'REVERSED' } },
    });
    expect((reversed.data as { authorization: { activity: unknown[] } }).authorization.activity.at(-1)).toMatchObject({
      type: 'REVERSAL',
      reversalReason: 'EXPIRED',
    });
    expect(given([...events, reversed]).when(expiry('A1'))).toEqual([]);
    expect(given(events).when(expiry('A2'))).toEqual([]); // cleared
    expect(given(events).when(expiry('A-never-recorded'))).toEqual([]);
  });

  it('declines a hold recorded after the card closed so the caller releases it', () => {
    const [e] = given(inState('CLOSED')).when(authorize('A9', 'T9'));
    expect(e).toMatchObject({
      data: { authorization: { status: 'DECLINED', declineReason: 'CARD_CLOSED', holdTransferId: null } },
    });
  });

  it('reserves a clearing on the card stream first: the same one joins it, another is refused, expiry waits', () => {
    const conflict = (code: string) => expect.objectContaining({ code }) as never;
    type Outcome = Extract<CardCommand, { type: 'RecordClearing' }>['outcome'];
    const clearing = (amount: bigint, outcome: Outcome): CardCommand => ({
      type: 'RecordClearing',
      authorizationId: 'A1',
      amount,
      outcome,
      now: at(31),
    });
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(start(700n));
    expect(events.at(-1)).toEqual({
      type: 'CardClearingStarted',
      data: {
        platformId: PLATFORM,
        cardId: CARD,
        clearing: { authorizationId: 'A1', amount: '700', latePresentment: false, startedAt: at(30) },
      },
    });
    // A second process deciding on the fresh state: same clearing -> nothing new; a different amount -> 409.
    expect(given(events).when(start(700n))).toEqual([]);
    expect(() => given(events).when(start(600n))).toThrow(conflict('CLEARING_IN_PROGRESS'));
    expect(given(events).when({ type: 'ExpireAuthorization', authorizationId: 'A1', now: at(50) })).toEqual([]);
    expect(
      given(events)
        .when(update({ state: 'CLOSED' }))
        .map((e) => e.type),
    ).toEqual(['CardStateChanged']);
    const legs = [clearingTransferId('A1', 'overAuthorization'), clearingTransferId('A1', 'post')];
    events = given(events).then(clearing(700n, { posted: true, transferIds: legs, latePresentment: false }));
    expect(given(events).state().clearings.size).toBe(0);
    expect(() => given(events).when(start(700n))).toThrow(conflict('INVALID_INPUT'));
    // Derived leg ids: stable per authorization and leg, distinct otherwise.
    expect(clearingTransferId('A1', 'post')).toBe(legs[1]);
    expect(new Set([...legs, clearingTransferId('A2', 'post')]).size).toBe(3);
    expect(legs[0]).toMatch(/^Transfer:[0-9a-f-]{36}$/);
  });

  it('ends the reservation of a declined clearing so the authorization can be presented again', () => {
    let events = given(active()).then(authorize('A1', 'T1'));
    events = given(events).then(start(900n));
    const outcome = { posted: false as const, declineReason: 'INSUFFICIENT_FUNDS' as const };
    const declined: CardCommand = { type: 'RecordClearing', authorizationId: 'A1', amount: 900n, outcome, now: at(31) };
    events = given(events).then(declined);
    expect(given(events).state().clearings.size).toBe(0);
    expect(given(events).when(start(400n))).toHaveLength(1);
  });
});
