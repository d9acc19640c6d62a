import { describe, expect, it } from '@jest/globals';
import { clearingSplit, holdTransferIds, holdsOf, reversalSplit } from './card-holds.js';
import { recordedIncrement } from './card-increments.js';
import type { ApprovedAuthorization, CardCommand } from './card-types.js';
import { USD, active, at, given } from './card.fixtures.js';

describe('incremental authorizations and partial reversals (decider)', () => {
  const authorize: CardCommand = {
    type: 'RecordAuthorization',
    authorizationId: 'A1',
    amount: 300n,
    currency: 'USD',
    merchant: { descriptor: 'HARBOR HOTEL' },
    hold: { fundingSourceId: USD, transferId: 'H1' },
    now: at(20),
  };
  const increment = (networkTransactionId: string, amount: bigint, hold?: string): CardCommand => ({
    type: 'RecordIncrement',
    authorizationId: 'A1',
    networkTransactionId,
    amount,
    ...(hold ? { hold: { transferId: hold } } : { declineReason: 'INSUFFICIENT_FUNDS' }),
    now: at(30),
  });
  const partialReversal = (
    amount: bigint,
    rehold?: { transferId: string; amount: bigint },
    networkTransactionId = 'R1',
  ): CardCommand => ({
    type: 'RecordPartialReversal',
    authorizationId: 'A1',
    networkTransactionId,
    amount,
    ...(rehold ? { rehold } : {}),
    now: at(40),
  });
  const clearing = (amount: bigint, rehold?: { transferId: string; amount: bigint }): CardCommand => ({
    type: 'RecordClearing',
    authorizationId: 'A1',
    amount,
    outcome: { posted: true, transferIds: ['P1'], latePresentment: false, ...(rehold ? { rehold } : {}) },
    now: at(50),
  });
  const authorized = () => given(active()).then(authorize);
  const record = (events: ReturnType<typeof authorized>) =>
    given(events).state().authorizations.get('A1') as ApprovedAuthorization;
  const transaction = (events: ReturnType<typeof authorized>) => [...given(events).state().transactions.values()][0]!;

  it('records an approved increment as a second hold, growing the authorized and held amounts', () => {
    const events = given(authorized()).then(increment('I1', 200n, 'H2'));
    expect(events.at(-1)!.type).toBe('CardAuthorizationIncremented');
    const a = record(events);
    expect(a).toMatchObject({
      status: 'APPROVED',
      amount: '500',
      heldAmount: '500',
      holdTransferId: 'H1',
      holds: [
        { transferId: 'H1', amount: '300' },
        { transferId: 'H2', amount: '200' },
      ],
      transferIds: ['H1', 'H2'],
    });
    expect(a.activity.at(-1)).toEqual({
      type: 'INCREMENT',
      amount: '200',
      result: 'APPROVED',
      networkTransactionId: 'I1',
      createdAt: at(30),
    });
    expect(transaction(events)).toMatchObject({ authorizedAmount: 500n, held: 500n, pulls: { total: 500n } });
    expect(holdTransferIds(a)).toEqual(['H1', 'H2']);
  });

  it('records a declined increment in the activity only, and applies each increment once', () => {
    const events = given(authorized()).then(increment('I1', 900n));
    expect(events.at(-1)!.type).toBe('CardIncrementDeclined');
    const a = record(events);
    expect(a).toMatchObject({ status: 'APPROVED', amount: '300', holdTransferId: 'H1', transferIds: ['H1'] });
    expect(a.holds).toBeUndefined();
    expect(a.activity.at(-1)).toMatchObject({
      type: 'INCREMENT',
      result: 'DECLINED',
      declineReason: 'INSUFFICIENT_FUNDS',
    });
    expect(transaction(events)).toMatchObject({ authorizedAmount: 300n, held: 300n });
    // The same network id again (approved this time or not): recorded already, nothing new.
    expect(given(events).when(increment('I1', 100n, 'H9'))).toEqual([]);
    expect(recordedIncrement(given(events).state() as never, 'A1', 'I1')).toBe(a);
    expect(recordedIncrement(given(events).state() as never, 'A1', 'I2')).toBeUndefined();
  });

  it('refuses an increment of an authorization that holds nothing', () => {
    const cleared = given(authorized()).then(clearing(300n));
    expect(() => given(cleared).when(increment('I1', 100n, 'H2'))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }) as never,
    );
    expect(() => given(active()).when(increment('I1', 100n, 'H2'))).toThrow(
      expect.objectContaining({ kind: 'not_found' }) as never,
    );
  });

  it('clears the holds oldest first, holding the rest of the one the clearing ends in', () => {
    const events = given(authorized()).then(increment('I1', 200n, 'H2'));
    expect(() => given(events).when(clearing(350n, { transferId: 'RH', amount: 100n }))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }) as never,
    );
    const partly = given(events).then(clearing(350n, { transferId: 'RH', amount: 150n }));
    expect(record(partly)).toMatchObject({
      status: 'APPROVED',
      clearedAmount: '350',
      heldAmount: '150',
      holdTransferId: 'RH',
      holds: [{ transferId: 'RH', amount: '150' }],
    });
    expect(transaction(partly)).toMatchObject({ held: 150n, settlements: { total: 350n }, pulls: { total: 500n } });
    const all = given(events).then(clearing(500n));
    expect(record(all)).toMatchObject({ status: 'CLEARED', clearedAmount: '500' });
    // A clearing that ends at the end of the first hold leaves the increment's hold as it is.
    const first = given(events).then(clearing(300n));
    expect(record(first)).toMatchObject({ status: 'APPROVED', heldAmount: '200', holdTransferId: 'H2' });
  });

  it('reverses part of what is held from the newest hold back, holding the rest again', () => {
    const events = given(authorized()).then(increment('I1', 200n, 'H2'));
    expect(() => given(events).when(partialReversal(500n))).toThrow(
      expect.objectContaining({ code: 'INVALID_AMOUNT' }) as never,
    );
    expect(() => given(events).when(partialReversal(250n, { transferId: 'RR', amount: 100n }))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }) as never,
    );
    const reversed = given(events).then(partialReversal(250n, { transferId: 'RR', amount: 250n }));
    expect(reversed.at(-1)!.type).toBe('CardAuthorizationPartiallyReversed');
    const a = record(reversed);
    expect(a).toMatchObject({ status: 'APPROVED', amount: '500', heldAmount: '250', holdTransferId: 'RR' });
    expect(a.activity.at(-1)).toMatchObject({ type: 'REVERSAL', amount: '250', networkTransactionId: 'R1' });
    expect(transaction(reversed)).toMatchObject({ held: 250n, pulls: { total: 250n }, released: false });
    expect(given(reversed).when(partialReversal(250n, { transferId: 'RR', amount: 250n }))).toEqual([]);
    // Exactly the increment: the original hold stays, nothing is held again.
    const increment0 = given(events).then(partialReversal(200n, undefined, 'R2'));
    expect(record(increment0)).toMatchObject({ heldAmount: '300', holdTransferId: 'H1' });
    // The rest could not be held again: all of it is released.
    const gone = given(authorized()).then(partialReversal(100n));
    expect(record(gone)).toMatchObject({ status: 'REVERSED' });
    expect(record(gone).activity.at(-1)).toMatchObject({ amount: '300' });
    expect(transaction(gone)).toMatchObject({ held: 0n, released: true });
  });

  it('splits clearings and reversals over holds', () => {
    const holds = [
      { transferId: 'H1', amount: 300n },
      { transferId: 'H2', amount: 200n },
    ];
    expect(clearingSplit(holds, 350n)).toEqual({
      posts: [holds[0], { transferId: 'H2', amount: 50n }],
      rest: 150n,
      untouched: [],
    });
    expect(clearingSplit(holds, 100n)).toEqual({
      posts: [{ transferId: 'H1', amount: 100n }],
      rest: 200n,
      untouched: [holds[1]],
    });
    expect(clearingSplit(holds, 600n)).toEqual({ posts: holds, untouched: [] });
    expect(reversalSplit(holds, 250n)).toEqual({ voided: holds, rest: 250n, kept: [] });
    expect(reversalSplit(holds, 200n)).toEqual({ voided: [holds[1]], kept: [holds[0]] });
    expect(reversalSplit(holds, 50n)).toEqual({ voided: [holds[1]], rest: 150n, kept: [holds[0]] });
    const single = { holdTransferId: 'H1', amount: '300', heldAmount: '120' } as ApprovedAuthorization;
    expect(holdsOf(single)).toEqual([{ transferId: 'H1', amount: 120n }]);
  });
});
