import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { bytesSource, throughSnapshot } from '../snapshot-codec.js';
import { expectSnapshotFoldsAlike } from '../testing/snapshot-property.js';
import { ledgerBatchDecider } from '../payments/transactions/payment-plan.js';
import {
  decideLedger,
  evolveLedger,
  hasTransfer,
  ledgerDecider,
  transferStatus,
  type LedgerCommand,
  type LedgerEvent,
} from './ledger.js';
import type { LedgerAccountSpec, LedgerState } from './ledger-state.js';
import { ledgerSnapshot } from './ledger-snapshot.js';

const NOW = '2026-01-05T00:00:00.000Z';

/** One step of a generated history: which command, on which accounts and transfers (indices wrap around). */
const step = fc.record({
  kind: fc.integer({ min: 0, max: 5 }),
  a: fc.nat(50),
  b: fc.nat(50),
  amount: fc.bigInt({ min: 1n, max: 5_000n }),
  pending: fc.boolean(),
  reference: fc.option(fc.constantFrom('Transaction:1', 'Authorization:2'), { nil: undefined }),
});
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/**
 * A ledger history as production makes it: each step becomes a command decided on the state so far (refusals such
 * as insufficient funds are skipped), so every event sequence is one the decider could have written.
 */
function history(steps: Step[]): { events: LedgerEvent[]; probes: LedgerCommand[] } {
  const state: LedgerState = ledgerDecider.initialState();
  const accounts: LedgerAccountSpec[] = [
    { id: 'settlement-usd', currency: 'USD', allowNegative: true },
    { id: 'settlement-eur', currency: 'EUR', allowNegative: true },
  ];
  const events: LedgerEvent[] = [];
  const probes: LedgerCommand[] = [];
  const created: string[] = [];
  let n = 0;
  for (const s of steps) {
    let cmd: LedgerCommand;
    const id = `t-${n++}`;
    if (s.kind === 0) {
      accounts.push({ id: `acc-${accounts.length}`, currency: s.a % 2 ? 'EUR' : 'USD', allowNegative: false });
      continue;
    } else if (s.kind <= 2 || created.length === 0) {
      const debit = accounts[s.a % accounts.length];
      const credit = accounts[s.b % accounts.length];
      const { amount, pending, reference } = s;
      cmd = { type: 'CreateTransfer', id, debit, credit, amount, pending, code: 'TEST', reference, now: NOW };
    } else if (s.kind === 3) {
      const amount = s.pending ? s.amount : undefined;
      cmd = { type: 'PostPendingTransfer', id, pendingId: created[s.a % created.length], amount, now: NOW };
    } else if (s.kind === 4) {
      cmd = { type: 'VoidPendingTransfer', id, pendingId: created[s.a % created.length], now: NOW };
    } else {
      // The same transfer id again: a repeated command (a no-op) or a conflicting one.
      const again = created[s.a % created.length];
      const [debit, credit] = [accounts[s.a % accounts.length], accounts[s.b % accounts.length]];
      cmd = { type: 'CreateTransfer', id: again, debit, credit, amount: s.amount, code: 'TEST', now: NOW };
    }
    probes.push(cmd);
    try {
      for (const e of decideLedger(cmd, state)) {
        events.push(e);
        evolveLedger(state, e);
        if (e.type === 'TransferCreated') created.push(e.data.id);
      }
    } catch {
      // A refused command leaves no event.
    }
  }
  return { events, probes };
}

/**
 * What decisions can see of a ledger: its accounts, its open holds as records, and for every transfer id the events
 * name, whether it is known and its status (settled transfers are no records after a snapshot).
 */
function observe(events: LedgerEvent[]) {
  const ids = [
    ...new Set(events.flatMap((e) => ('pendingId' in e.data ? [e.data.id, e.data.pendingId] : [e.data.id]))),
  ];
  return (state: LedgerState) => ({
    accounts: state.accounts,
    open: [...state.transfers].filter(([, t]) => t.pending && !t.resolution),
    ids: ids.map((id) => [
      id,
      hasTransfer(state, id),
      transferStatus(state, id)?.pending,
      transferStatus(state, id)?.resolution,
    ]),
  });
}

const none = { pending: false, reference: undefined };
/** An account opened and funded with 500, then the given steps; the state folded and restored from a snapshot. */
function restoredAfter(steps: Step[]) {
  const { events } = history([
    { kind: 0, a: 0, b: 0, amount: 1n, ...none },
    { kind: 1, a: 0, b: 2, amount: 500n, ...none },
    ...steps,
  ]);
  const state = events.reduce(evolveLedger, ledgerDecider.initialState());
  const restored = throughSnapshot(ledgerSnapshot, state);
  return { events, state, restored };
}

describe('ledger snapshots', () => {
  it('folding a snapshot plus the events after it equals folding the whole stream, and decides alike', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), fc.nat(), (steps, at) => {
        const { events, probes } = history(steps);
        const split = events.length === 0 ? 0 : at % (events.length + 1);
        expectSnapshotFoldsAlike(ledgerDecider, events, split, probes, observe(events));
        expectSnapshotFoldsAlike(ledgerBatchDecider, events, split, [probes.slice(-3)], observe(events));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a posting under its own id, with the pending transfer resolved', () => {
    const { events, state, restored } = restoredAfter([
      { kind: 1, a: 2, b: 0, amount: 300n, pending: true, reference: 'Transaction:1' },
      { kind: 3, a: 1, b: 0, amount: 200n, pending: true, reference: undefined },
    ]);
    expect(observe(events)(restored)).toEqual(observe(events)(state));
    expect(restored.transfers.size).toBe(0);
    expect(restored.settled.size).toBe(3);
    expect(transferStatus(restored, 't-2')).toEqual({ pending: true, resolution: 'POSTED' });
    expect(transferStatus(restored, 't-3')).toEqual({ pending: false, resolution: 'POSTED' });
    expect(transferStatus(restored, 't-4')).toBeUndefined();
  });

  it('refuses an encoding whose columns differ in length', () => {
    const { events } = history([
      { kind: 0, a: 0, b: 0, amount: 1n, pending: false, reference: undefined },
      { kind: 1, a: 0, b: 2, amount: 5n, pending: false, reference: undefined },
    ]);
    const state = events.reduce(evolveLedger, ledgerDecider.initialState());
    const encoded = ledgerSnapshot.encode(state);
    (encoded as { transfers: { key: string[] } }).transfers.key.push('extra');
    expect(() => ledgerSnapshot.decode(encoded, bytesSource(ledgerSnapshot.encodeBinary!(state)))).toThrow(/columns/);
    expect(() => ledgerSnapshot.decode(ledgerSnapshot.encode(state))).toThrow(/no settled transfers/);
  });

  it('keeps open holds as records and every other transfer as a settled entry that still decides', () => {
    const { restored } = restoredAfter([
      { kind: 1, a: 2, b: 0, amount: 100n, pending: true, reference: 'Transaction:1' },
      { kind: 1, a: 2, b: 0, amount: 50n, pending: true, reference: 'Authorization:2' },
    ]);
    expect([...restored.transfers.keys()]).toEqual(['t-2', 't-3']);
    expect(restored.settled.size).toBe(1);
    const again = (amount: bigint): LedgerCommand => ({
      type: 'CreateTransfer',
      id: 't-1',
      debit: { id: 'settlement-usd', currency: 'USD', allowNegative: true },
      credit: { id: 'acc-2', currency: 'USD', allowNegative: false },
      amount,
      code: 'TEST',
      now: NOW,
    });
    expect(decideLedger(again(500n), restored)).toEqual([]);
    expect(() => decideLedger(again(501n), restored)).toThrow(expect.objectContaining({ code: 'TRANSFER_EXISTS' }));
    // A second snapshot merges the first one's entries with the transfers folded since.
    const posted = decideLedger({ type: 'PostPendingTransfer', id: 'p', pendingId: 't-2', now: NOW }, restored);
    const later = posted.reduce(evolveLedger, restored);
    const twice = throughSnapshot(ledgerSnapshot, later);
    expect([...twice.transfers.keys()]).toEqual(['t-3']);
    expect(twice.settled.size).toBe(3);
    expect(decideLedger({ type: 'PostPendingTransfer', id: 'p', pendingId: 't-2', now: NOW }, twice)).toEqual([]);
    expect(() => decideLedger({ type: 'VoidPendingTransfer', id: 'v', pendingId: 't-2', now: NOW }, twice)).toThrow(
      expect.objectContaining({ code: 'PENDING_TRANSFER_RESOLVED' }),
    );
  });
});
