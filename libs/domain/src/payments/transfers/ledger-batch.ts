import type { Decider } from '../../decider.js';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  type LedgerCommand,
  type LedgerEvent,
  type LedgerState,
} from '../../ledger/ledger.js';
import { ledgerSnapshot } from '../../ledger/ledger-snapshot.js';

/**
 * A map that reads through to a base map and copies each value on first access, so evolving the
 * overlay never touches the base (ledger accounts and transfers are updated in place by evolve).
 */
class CopyOnReadMap<K, V extends object> extends Map<K, V> {
  constructor(private readonly base: ReadonlyMap<K, V>) {
    super();
  }
  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    const value = this.base.get(key);
    if (value === undefined) return undefined;
    const copy = { ...value };
    super.set(key, copy);
    return copy;
  }
  override has(key: K): boolean {
    return super.has(key) || this.base.has(key);
  }
}

/**
 * Several ledger commands decided together and appended as one batch (one write for a payment's
 * settlement legs). Each command is decided against the state left by the previous ones; the
 * committed state is untouched until the batch is appended.
 */
export const ledgerBatchDecider: Decider<LedgerState, LedgerCommand[], LedgerEvent> = {
  initialState: initialLedgerState,
  evolve: evolveLedger,
  snapshot: ledgerSnapshot,
  decide(commands, state) {
    if (commands.length === 1) return decideLedger(commands[0], state);
    const view: LedgerState = {
      accounts: new CopyOnReadMap(state.accounts),
      transfers: new CopyOnReadMap(state.transfers),
      settled: state.settled,
    };
    const events: LedgerEvent[] = [];
    for (const command of commands) {
      for (const event of decideLedger(command, view)) {
        evolveLedger(view, event);
        events.push(event);
      }
    }
    return events;
  },
};
