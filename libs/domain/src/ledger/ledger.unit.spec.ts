import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  available,
  ledgerDecider,
  postedBalance,
  type LedgerAccountSpec,
  type LedgerCommand,
  type LedgerEvent,
} from './ledger.js';

const spec = deciderSpec(ledgerDecider);
const NOW = '2026-01-05T00:00:00.000Z';
const SETTLEMENT: LedgerAccountSpec = { id: 'settlement-usd', currency: 'USD', allowNegative: true };
const ALICE: LedgerAccountSpec = { id: 'alice-usd', currency: 'USD', allowNegative: false };
const BOB: LedgerAccountSpec = { id: 'bob-usd', currency: 'USD', allowNegative: false };
const BOB_EUR: LedgerAccountSpec = { id: 'bob-eur', currency: 'EUR', allowNegative: false };

const transfer = (
  id: string,
  debit: LedgerAccountSpec,
  credit: LedgerAccountSpec,
  amount: bigint,
  pending = false,
): LedgerCommand => ({
  type: 'CreateTransfer',
  id,
  debit,
  credit,
  amount,
  pending,
  code: 'TEST',
  now: NOW,
});
const post = (id: string, pendingId: string, amount?: bigint): LedgerCommand => ({
  type: 'PostPendingTransfer',
  id,
  pendingId,
  amount,
  now: NOW,
});
const voidIt = (id: string, pendingId: string): LedgerCommand => ({
  type: 'VoidPendingTransfer',
  id,
  pendingId,
  now: NOW,
});

/** Alice funded with 1,000 from the settlement account. */
const funded = () => spec.history(transfer('fund', SETTLEMENT, ALICE, 1000n));
const accountOf = (events: LedgerEvent[], id: string) => spec.fold(events).accounts.get(id)!;

describe('ledger decider', () => {
  it('opens both accounts on their first transfer and records the amount as a decimal string', () => {
    spec
      .given([])
      .when(transfer('fund', SETTLEMENT, ALICE, 1000n))
      .then([
        { type: 'LedgerAccountOpened', data: SETTLEMENT },
        { type: 'LedgerAccountOpened', data: ALICE },
        {
          type: 'TransferCreated',
          data: {
            id: 'fund',
            debitAccountId: SETTLEMENT.id,
            creditAccountId: ALICE.id,
            amount: '1000',
            currency: 'USD',
            pending: false,
            code: 'TEST',
            createdAt: NOW,
          },
        },
      ]);
  });

  it('lets a settlement account go negative and keeps every transfer balanced', () => {
    const events = funded();
    expect(postedBalance(accountOf(events, SETTLEMENT.id))).toBe(-1000n);
    expect(postedBalance(accountOf(events, ALICE.id))).toBe(1000n);
  });

  it('refuses to overdraw an account that may not go negative', () => {
    spec
      .given(funded())
      .when(transfer('t1', ALICE, BOB, 1001n))
      .thenFails({ kind: 'invalid', code: 'INSUFFICIENT_FUNDS' });
    spec
      .given([])
      .when(transfer('t1', ALICE, BOB, 1n))
      .thenFails({ code: 'INSUFFICIENT_FUNDS' });
  });

  it('is idempotent by transfer id and refuses a different transfer under the same id', () => {
    spec
      .given(funded())
      .when(transfer('fund', SETTLEMENT, ALICE, 1000n))
      .then([]);
    spec
      .given(funded())
      .when(transfer('fund', SETTLEMENT, ALICE, 999n))
      .thenFails({ kind: 'conflict', code: 'TRANSFER_EXISTS' });
  });

  it.each<[string, LedgerAccountSpec, LedgerAccountSpec, bigint, string]>([
    ['a zero amount', ALICE, BOB, 0n, 'INVALID_AMOUNT'],
    ['a negative amount', ALICE, BOB, -5n, 'INVALID_AMOUNT'],
    ['one account on both sides', ALICE, ALICE, 5n, 'SAME_ACCOUNT'],
    ['mixed currencies', ALICE, BOB_EUR, 5n, 'CURRENCY_MISMATCH'],
    [
      'an account named in another currency than its own',
      { ...ALICE, currency: 'EUR' },
      BOB_EUR,
      5n,
      'CURRENCY_MISMATCH',
    ],
  ])('refuses %s', (_name, debit, credit, amount, code) => {
    spec
      .given(funded())
      .when(transfer('t1', debit, credit, amount))
      .thenFails({ code });
  });

  it('reserves funds with a pending transfer: available drops, the posted balance does not', () => {
    const events = [
      ...funded(),
      ...spec
        .given(funded())
        .when(transfer('hold', ALICE, BOB, 400n, true))
        .thenEmits(),
    ];
    const alice = accountOf(events, ALICE.id);
    expect(available(alice)).toBe(600n);
    expect(postedBalance(alice)).toBe(1000n);
    spec
      .given(events)
      .when(transfer('t2', ALICE, BOB, 601n))
      .thenFails({ code: 'INSUFFICIENT_FUNDS' });
  });

  it('posts part of a hold and releases the rest', () => {
    const events = spec.history(
      transfer('fund', SETTLEMENT, ALICE, 1000n),
      transfer('hold', ALICE, BOB, 400n, true),
      post('post', 'hold', 150n),
    );
    expect(postedBalance(accountOf(events, ALICE.id))).toBe(850n);
    expect(available(accountOf(events, ALICE.id))).toBe(850n);
    expect(postedBalance(accountOf(events, BOB.id))).toBe(150n);
    expect(accountOf(events, BOB.id).creditsPending).toBe(0n);
  });

  it('voids a hold, answers a repeated resolution with nothing, and refuses the other resolution', () => {
    const held = spec.history(transfer('fund', SETTLEMENT, ALICE, 1000n), transfer('hold', ALICE, BOB, 400n, true));
    const voided = [...held, ...spec.given(held).when(voidIt('void', 'hold')).thenEmits()];
    expect(available(accountOf(voided, ALICE.id))).toBe(1000n);
    spec.given(voided).when(voidIt('void', 'hold')).then([]);
    spec.given(voided).when(post('post', 'hold')).thenFails({ kind: 'conflict', code: 'PENDING_TRANSFER_RESOLVED' });
    const posted = [...held, ...spec.given(held).when(post('post', 'hold')).thenEmits()];
    spec.given(posted).when(post('post', 'hold')).then([]);
    spec.given(posted).when(voidIt('void', 'hold')).thenFails({ code: 'PENDING_TRANSFER_RESOLVED' });
  });

  it('refuses to post more than the hold, or to resolve a transfer that is not pending', () => {
    const held = spec.history(transfer('fund', SETTLEMENT, ALICE, 1000n), transfer('hold', ALICE, BOB, 400n, true));
    spec
      .given(held)
      .when(post('post', 'hold', 401n))
      .thenFails({ code: 'INVALID_AMOUNT' });
    spec.given(held).when(post('post', 'fund')).thenFails({ code: 'PENDING_TRANSFER_NOT_FOUND' });
    spec.given(held).when(voidIt('void', 'missing')).thenFails({ code: 'PENDING_TRANSFER_NOT_FOUND' });
  });

  it('refuses a movement that would take a balance past 2^53-1, holds included, and allows one up to it', () => {
    const MAX = BigInt(Number.MAX_SAFE_INTEGER);
    const full = spec.history(transfer('fund', SETTLEMENT, ALICE, MAX));
    const refused = { kind: 'invalid', code: 'AMOUNT_OUT_OF_RANGE' } as const;
    const refuses = (history: LedgerEvent[], command: LedgerCommand) =>
      spec.given(history).when(command).thenFails(refused);
    // The credited account, and the settlement account that mirrors it.
    refuses(full, transfer('again', SETTLEMENT, ALICE, 1n));
    refuses(full, transfer('bob', SETTLEMENT, BOB, 1n));
    // Incoming holds count as if posted, and outgoing ones too (what is available): any hold can then be posted.
    const half = MAX / 2n;
    const incoming = spec.history(transfer('f', SETTLEMENT, ALICE, half), transfer('h', SETTLEMENT, ALICE, half, true));
    refuses(incoming, transfer('x', SETTLEMENT, ALICE, 2n));
    spec
      .given(incoming)
      .when(transfer('x', SETTLEMENT, ALICE, 1n))
      .thenEmits();
    spec.given(incoming).when(post('p', 'h')).thenEmits();
    const outgoing = spec.history(transfer('f', SETTLEMENT, ALICE, half), transfer('h', SETTLEMENT, BOB, half, true));
    refuses(outgoing, transfer('x', SETTLEMENT, BOB, 2n));
    spec.given(outgoing).when(post('p', 'h')).thenEmits();
    // Balances are bounded, not the running totals: money that came in and went out may come in again.
    const cycled = spec.history(transfer('fund', SETTLEMENT, ALICE, MAX), transfer('out', ALICE, SETTLEMENT, MAX));
    expect(postedBalance(accountOf(cycled, ALICE.id))).toBe(0n);
    spec
      .given(cycled)
      .when(transfer('more', SETTLEMENT, ALICE, MAX))
      .thenEmits();
  });

  it('keeps the books balanced and no restricted account below zero over any sequence of commands', () => {
    const accounts = [SETTLEMENT, ALICE, BOB];
    const command = fc.oneof(
      fc.record({
        kind: fc.constant('transfer' as const),
        from: fc.nat(2),
        to: fc.nat(2),
        amount: fc.bigInt(1n, 1500n),
        pending: fc.boolean(),
      }),
      fc.record({
        kind: fc.constantFrom('post' as const, 'void' as const),
        target: fc.nat(30),
        amount: fc.option(fc.bigInt(1n, 1500n)),
      }),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const events: LedgerEvent[] = [];
        commands.forEach((c, i) => {
          const cmd: LedgerCommand =
            c.kind === 'transfer'
              ? transfer(`t${i}`, accounts[c.from], accounts[c.to], c.amount, c.pending)
              : c.kind === 'post'
                ? post(`p${i}`, `t${c.target}`, c.amount ?? undefined)
                : voidIt(`v${i}`, `t${c.target}`);
          try {
            events.push(...ledgerDecider.decide(cmd, spec.fold(events)));
          } catch {
            // A refused command changes nothing; the invariants below must hold either way.
          }
        });
        const state = spec.fold(events);
        let posted = 0n;
        let pending = 0n;
        for (const a of state.accounts.values()) {
          posted += a.creditsPosted - a.debitsPosted;
          pending += a.creditsPending - a.debitsPending;
          if (!a.allowNegative) expect(available(a) >= 0n).toBe(true);
        }
        expect(posted).toBe(0n);
        expect(pending).toBe(0n);
      }),
      { seed: 20260105, numRuns: 300 },
    );
  });
});
