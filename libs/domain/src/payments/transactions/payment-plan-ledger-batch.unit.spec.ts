import { describe, expect, it } from '@jest/globals';
import {
  evolveLedger,
  initialLedgerState,
  postedBalance,
  type LedgerCommand,
  type LedgerState,
} from '../../ledger/ledger.js';
import { ledgerBatchDecider } from './payment-plan.js';

const NOW = '2026-01-01T00:00:00.000Z';
const settlement = { id: 'InternalAccount:s', currency: 'USD', allowNegative: true };
const alice = { id: 'InternalAccount:a', currency: 'USD', allowNegative: false };
const bob = { id: 'InternalAccount:b', currency: 'USD', allowNegative: false };

function apply(state: LedgerState, commands: LedgerCommand[]): LedgerState {
  return ledgerBatchDecider.decide(commands, state).reduce(evolveLedger, state);
}

/** The accounts' balances as text, to compare a state before and after a decision. */
const balancesOf = (state: LedgerState) =>
  JSON.stringify(
    [...state.accounts.entries()].map(([k, v]) => [
      k,
      {
        ...v,
        debitsPosted: String(v.debitsPosted),
        debitsPending: String(v.debitsPending),
        creditsPosted: String(v.creditsPosted),
        creditsPending: String(v.creditsPending),
      },
    ]),
  );

describe('ledger batches', () => {
  it('decides each command on the state the previous ones leave, without touching the committed state', () => {
    let state = apply(initialLedgerState(), [
      { type: 'CreateTransfer', id: 'fund', debit: settlement, credit: alice, amount: 1_000n, code: 'FUND', now: NOW },
    ]);
    state = apply(state, [
      {
        type: 'CreateTransfer',
        id: 'hold',
        debit: alice,
        credit: settlement,
        amount: 600n,
        pending: true,
        code: 'HOLD',
        now: NOW,
      },
    ]);
    const before = balancesOf(state);
    const batch: LedgerCommand[] = [
      { type: 'PostPendingTransfer', id: 'post', pendingId: 'hold', now: NOW },
      { type: 'CreateTransfer', id: 'credit', debit: settlement, credit: bob, amount: 600n, code: 'CREDIT', now: NOW },
      // Only possible because the post above already released the hold's reservation.
      { type: 'CreateTransfer', id: 'more', debit: alice, credit: bob, amount: 400n, code: 'MORE', now: NOW },
    ];
    const events = ledgerBatchDecider.decide(batch, state);
    expect(events.map((e) => e.type)).toEqual([
      'PendingTransferPosted',
      'LedgerAccountOpened',
      'TransferCreated',
      'TransferCreated',
    ]);
    const after = balancesOf(state);
    expect(after).toBe(before);
    expect(state.transfers.get('hold')?.resolution).toBeUndefined();
    const final = events.reduce(evolveLedger, state);
    expect(postedBalance(final.accounts.get(alice.id)!)).toBe(0n);
    expect(postedBalance(final.accounts.get(bob.id)!)).toBe(1_000n);
  });

  it('refuses the whole batch when one command is refused', () => {
    const state = apply(initialLedgerState(), [
      { type: 'CreateTransfer', id: 'fund', debit: settlement, credit: alice, amount: 100n, code: 'FUND', now: NOW },
    ]);
    expect(() =>
      ledgerBatchDecider.decide(
        [
          { type: 'CreateTransfer', id: 't1', debit: alice, credit: bob, amount: 60n, code: 'X', now: NOW },
          { type: 'CreateTransfer', id: 't2', debit: alice, credit: bob, amount: 60n, code: 'X', now: NOW },
        ],
        state,
      ),
    ).toThrow(expect.objectContaining({ code: 'INSUFFICIENT_FUNDS' }));
    expect(state.transfers.has('t1')).toBe(false);
  });
});
