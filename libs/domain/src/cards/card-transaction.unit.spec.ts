import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import { cardDecider } from './card.js';
import {
  authorizationIdOf,
  cardTransactionIdOf,
  decodeCardTransaction,
  encodeCardTransaction,
  toCardTransaction,
} from './card-transaction.js';
import type { CardCommand, CardEvent } from './card-types.js';
import { CARD, CUSTOMER, USD, active, at, update } from './card.fixtures.js';

const A1 = 'CardAuthorization:00000000-0000-4000-8000-00000000a001';
const A2 = 'CardAuthorization:00000000-0000-4000-8000-00000000a002';
const T1 = cardTransactionIdOf(A1);
const merchant = { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' };
const usd = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const money = (amount: number) => ({ amount, currency: usd });

const authorize = (id: string, amount = 1250n, approved = true): CardCommand => ({
  type: 'RecordAuthorization',
  authorizationId: id,
  amount,
  currency: 'USD',
  merchant,
  ...(approved
    ? { hold: { fundingSourceId: USD, transferId: `hold-${id}` } }
    : { declineReason: 'INSUFFICIENT_FUNDS' }),
  now: at(20),
});
const clear = (id: string, amount: bigint, posted = true, late = false): CardCommand => ({
  type: 'RecordClearing',
  authorizationId: id,
  amount,
  outcome: posted
    ? { posted: true, transferIds: [`post-${id}`], latePresentment: late }
    : { posted: false, declineReason: 'INSUFFICIENT_FUNDS' },
  now: at(30),
});
const refund = (id: string, amount: bigint, n = 1): CardCommand => ({
  type: 'RecordReturn',
  authorizationId: id,
  amount,
  transferId: `return-${id}-${n}`,
  now: at(40 + n),
});

describe('card transactions (folded from the card stream’s authorization events)', () => {
  const spec = deciderSpec(cardDecider);
  const issued = active();
  const run = (...commands: CardCommand[]): CardEvent[] => [
    ...issued,
    ...commands.reduce<CardEvent[]>(
      (events, c) => [...events, ...cardDecider.decide(c, spec.fold([...issued, ...events]))],
      [],
    ),
  ];
  const transaction = (events: CardEvent[], id = T1) => {
    const t = spec.fold(events).transactions.get(id);
    return t && toCardTransaction(t);
  };

  it('opens an AUTHORIZED transaction on approval, with the hold as its first pull', () => {
    spec
      .given(issued)
      .when(authorize(A1))
      .thenEmits()
      .forEach((e) => expect(e.type).toBe('CardAuthorizationRecorded'));
    expect(transaction(run(authorize(A1)))).toEqual({
      id: T1,
      cardId: CARD,
      customerId: CUSTOMER,
      issuerTransactionToken: expect.stringMatching(/^sbx_txn_[0-9a-f]{20}$/),
      status: 'AUTHORIZED',
      merchant,
      authorizedAmount: money(1250),
      settledAmount: money(0),
      refundedAmount: money(0),
      accountId: USD,
      pullSummary: { count: 1, totalAmount: 1250, pendingCount: 0 },
      refundSummary: { count: 0, totalAmount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
      authorizedAt: at(20),
      createdAt: at(20),
      updatedAt: at(20),
    });
    expect(T1).toBe('CardTransaction:00000000-0000-4000-8000-00000000a001');
    expect(authorizationIdOf(T1)).toBe(A1);
  });

  it('opens nothing for a declined authorization', () => {
    const events = run(authorize(A1, 1250n, false));
    expect(spec.fold(events).transactions.size).toBe(0);
    spec.given(events).when(clear(A1, 100n)).thenFails({ kind: 'not_found', code: 'CARD_TRANSACTION_NOT_FOUND' });
  });

  it('settles a clearing over the authorization with a post-hoc pull, then refunds in part and in full', () => {
    const settled = run(authorize(A1), clear(A1, 1500n));
    expect(transaction(settled)).toMatchObject({
      status: 'SETTLED',
      settledAmount: money(1500),
      pullSummary: { count: 2, totalAmount: 1500 },
      settlementSummary: { count: 1, totalAmount: 1500 },
      lastEventAt: at(30),
    });
    // A settled transaction takes no further clearing (400 INVALID_INPUT), a return at most what is net settled.
    spec.given(settled).when(clear(A1, 10n)).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    spec.given(settled).when(refund(A1, 1501n)).thenFails({ kind: 'invalid', code: 'INVALID_AMOUNT' });
    const partly = run(authorize(A1), clear(A1, 1500n), refund(A1, 500n));
    expect(transaction(partly)).toMatchObject({
      status: 'SETTLED',
      refundedAmount: money(500),
      refundSummary: { count: 1, totalAmount: 500 },
      lastEventAt: at(41),
    });
    const full = run(authorize(A1), clear(A1, 1500n), refund(A1, 500n), refund(A1, 1000n, 2));
    expect(transaction(full)).toMatchObject({ status: 'REFUNDED', refundSummary: { count: 2, totalAmount: 1500 } });
    spec
      .given(full)
      .when(refund(A1, 1n, 3))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('cuts the pull to a smaller clearing (the rest of the hold is released)', () => {
    expect(transaction(run(authorize(A1), clear(A1, 1000n)))).toMatchObject({
      status: 'SETTLED',
      pullSummary: { count: 1, totalAmount: 1000 },
      settlementSummary: { count: 1, totalAmount: 1000 },
    });
  });

  it('is PARTIALLY_SETTLED while a partial clearing’s rest is held again, until it clears or expires', () => {
    const partial = (amount: bigint, sequence: number, rest: bigint): CardCommand => ({
      type: 'RecordClearing',
      authorizationId: A1,
      amount,
      sequence,
      outcome: {
        posted: true,
        transferIds: [`post-${sequence}`],
        latePresentment: false,
        rehold: { transferId: `rehold-${sequence}`, amount: rest },
      },
      now: at(30 + sequence),
    });
    const first = run(authorize(A1), partial(500n, 0, 750n));
    expect(transaction(first)).toMatchObject({
      status: 'PARTIALLY_SETTLED',
      settledAmount: money(500),
      pullSummary: { count: 1, totalAmount: 1250 },
      settlementSummary: { count: 1, totalAmount: 500 },
    });
    expect(spec.fold(first).authorizations.get(A1)).toMatchObject({
      status: 'APPROVED',
      holdTransferId: 'rehold-0',
      heldAmount: '750',
      clearedAmount: '500',
    });
    // The same clearing recorded again (another process joined it) is refused; the rest must match the hold.
    spec
      .given(first)
      .when(partial(500n, 0, 250n))
      .thenFails({ code: 'INVALID_INPUT' });
    spec
      .given(first)
      .when(partial(100n, 1, 100n))
      .thenFails({ code: 'INVALID_INPUT' });
    const second = [
      ...first,
      ...spec
        .given(first)
        .when({ ...clear(A1, 700n), sequence: 1 } as CardCommand)
        .thenEmits(),
    ];
    expect(transaction(second)).toMatchObject({
      status: 'SETTLED',
      settledAmount: money(1200),
      pullSummary: { count: 1, totalAmount: 1200 },
      settlementSummary: { count: 2, totalAmount: 1200 },
    });
    const expire: CardCommand = { type: 'ExpireAuthorization', authorizationId: A1, now: at(60) };
    const expired = [...first, ...spec.given(first).when(expire).thenEmits()];
    expect(spec.fold(expired).authorizations.get(A1)!.activity.at(-1)).toMatchObject({
      type: 'REVERSAL',
      amount: '750',
    });
    expect(transaction(expired)).toMatchObject({ status: 'SETTLED', pullSummary: { count: 1, totalAmount: 500 } });
  });

  it('is in EXCEPTION while a clearing the funding source could not pay stands, and leaves it when one posts', () => {
    const failed = run(authorize(A1), clear(A1, 9000n, false));
    expect(transaction(failed)).toMatchObject({
      status: 'EXCEPTION',
      settlementSummary: { count: 0, totalAmount: 0 },
      pullSummary: { count: 1, totalAmount: 1250 },
    });
    const recovered = run(authorize(A1), clear(A1, 9000n, false), clear(A1, 1250n));
    expect(transaction(recovered)).toMatchObject({ status: 'SETTLED', settledAmount: money(1250) });
  });

  it('releases the hold when the authorization expires or the card closes; a late presentment pulls anew', () => {
    const expire: CardCommand = { type: 'ExpireAuthorization', authorizationId: A1, now: at(50) };
    expect(transaction(run(authorize(A1), expire))).toMatchObject({
      status: 'SETTLED',
      pullSummary: { count: 1, totalAmount: 0 },
      settledAmount: money(0),
      lastEventAt: at(50),
    });
    const closed = run(authorize(A1), authorize(A2, 300n), update({ state: 'CLOSED' }));
    expect(transaction(closed, cardTransactionIdOf(A2))).toMatchObject({
      status: 'SETTLED',
      pullSummary: { totalAmount: 0 },
    });
    const late = run(authorize(A1), expire, clear(A1, 1250n, true, true));
    expect(transaction(late)).toMatchObject({
      status: 'SETTLED',
      pullSummary: { count: 2, totalAmount: 1250 },
      settlementSummary: { count: 1, totalAmount: 1250 },
    });
  });

  it('is in EXCEPTION when the pull is reported failed after the approval (hold released)', () => {
    const failed: CardCommand = {
      type: 'ExpireAuthorization',
      authorizationId: A1,
      reason: 'PULL_FAILED',
      now: at(21),
    };
    const events = run(authorize(A1), failed);
    expect(transaction(events)).toMatchObject({ status: 'EXCEPTION', pullSummary: { count: 1, totalAmount: 0 } });
    expect(transaction(run(authorize(A1), failed, clear(A1, 1250n, true, true)))).toMatchObject({
      status: 'SETTLED',
      pullSummary: { count: 2, totalAmount: 1250 },
    });
  });

  it('encodes for read models without losing anything', () => {
    const t = spec.fold(run(authorize(A1), clear(A1, 1500n), refund(A1, 200n))).transactions.get(T1)!;
    const copy = decodeCardTransaction(JSON.parse(JSON.stringify(encodeCardTransaction(t))));
    expect(copy).toEqual(t);
  });
});
