import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { expectSnapshotFoldsAlike } from '../testing/snapshot-property.js';
import { ledgerBatchDecider } from '../transfers/ledger-batch.js';
import { decideLedger, evolveLedger, ledgerDecider, type LedgerCommand, type LedgerEvent } from './ledger.js';
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

describe('ledger snapshots', () => {
  it('folding a snapshot plus the events after it equals folding the whole stream, and decides alike', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), fc.nat(), (steps, at) => {
        const { events, probes } = history(steps);
        const split = events.length === 0 ? 0 : at % (events.length + 1);
        expectSnapshotFoldsAlike(ledgerDecider, events, split, probes);
        expectSnapshotFoldsAlike(ledgerBatchDecider, events, split, [probes.slice(-3)]);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a posting under its own id, with the pending transfer resolved', () => {
    const none = { pending: false, reference: undefined };
    const { events } = history([
      { kind: 0, a: 0, b: 0, amount: 1n, ...none },
      { kind: 1, a: 0, b: 2, amount: 500n, ...none },
      { kind: 1, a: 2, b: 0, amount: 300n, pending: true, reference: 'Transaction:1' },
      { kind: 3, a: 1, b: 0, amount: 200n, pending: true, reference: undefined },
    ]);
    const state = events.reduce(evolveLedger, ledgerDecider.initialState());
    const restored = ledgerSnapshot.decode(JSON.parse(JSON.stringify(ledgerSnapshot.encode(state))));
    expect(restored).toEqual(state);
    expect(restored.transfers.get('t-2')).toMatchObject({ resolution: 'POSTED', postedAmount: 200n });
    expect(restored.transfers.get('t-3')).toMatchObject({ pending: false, reference: 'Transaction:1' });
  });

  it('refuses an encoding whose columns differ in length', () => {
    const { events } = history([
      { kind: 0, a: 0, b: 0, amount: 1n, pending: false, reference: undefined },
      { kind: 1, a: 0, b: 2, amount: 5n, pending: false, reference: undefined },
    ]);
    const encoded = ledgerSnapshot.encode(events.reduce(evolveLedger, ledgerDecider.initialState()));
    (encoded as { transfers: { key: string[] } }).transfers.key.push('extra');
    expect(() => ledgerSnapshot.decode(encoded)).toThrow(/columns/);
  });
});
