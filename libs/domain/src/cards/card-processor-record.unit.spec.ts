import { describe, expect, it } from '@jest/globals';
import type { CardCommand, CardEvent } from './card-types.js';
import { USD, active, at, given } from './card.fixtures.js';

/** What a card processor's messages leave on the card stream. */
describe('card processor records (decider)', () => {
  const record = (over: Partial<Extract<CardCommand, { type: 'RecordAuthorization' }>> = {}): CardCommand => ({
    type: 'RecordAuthorization',
    authorizationId: 'A1',
    amount: 500n,
    currency: 'USD',
    merchant: { descriptor: 'COFFEE', mcc: '5814', country: 'US' },
    hold: { fundingSourceId: USD, transferId: 'T1' },
    networkTransactionId: 'ntx-1',
    entryMode: 'CONTACTLESS',
    decision: { decidedBy: 'RULES', elapsedMs: 12 },
    now: at(20),
    ...over,
  });
  const authorizationOf = (events: CardEvent[]) =>
    (events[0] as Extract<CardEvent, { data: { authorization: unknown } }>).data.authorization;

  it('keeps the network transaction id, the entry mode and who decided', () => {
    expect(authorizationOf(given(active()).when(record()))).toMatchObject({
      status: 'APPROVED',
      networkTransactionId: 'ntx-1',
      entryMode: 'CONTACTLESS',
      merchant: { mcc: '5814', country: 'US' },
      decision: { decidedBy: 'RULES', elapsedMs: 12 },
    });
  });

  it('records a stand-in decline with its reason, and the first outcome of an id stands', () => {
    const standIn = record({
      hold: undefined,
      declineReason: 'STAND_IN',
      decision: { decidedBy: 'STAND_IN', elapsedMs: 50, reason: 'no decision within 50 ms' },
    });
    const declined = given(active()).then(standIn);
    expect(authorizationOf(declined.slice(-1))).toMatchObject({ status: 'DECLINED', declineReason: 'STAND_IN' });
    expect(given(declined).when(record())).toEqual([]);
  });

  it('records a refund with a given transfer once', () => {
    const cleared = given(given(active()).then(record())).then({
      type: 'RecordClearing',
      authorizationId: 'A1',
      amount: 500n,
      outcome: { posted: true, transferIds: ['T2'], latePresentment: false },
      now: at(30),
    });
    const refund: CardCommand = {
      type: 'RecordReturn',
      authorizationId: 'A1',
      amount: 100n,
      transferId: 'R1',
      now: at(40),
    };
    const refunded = given(cleared).then(refund);
    expect(refunded).toHaveLength(cleared.length + 1);
    expect(given(refunded).when(refund)).toEqual([]);
  });
});
