import { expect } from '@jest/globals';
import type { EventStore } from '#event-store/event-store.js';
import { streams } from '#domain/primitives.js';
import { initialLedgerState, evolveLedger, type LedgerEvent, type LedgerState } from '#domain/ledger/ledger.js';
import { LedgerInvariants } from '#domain/ledger/ledger-invariants.js';

/** Folds a platform's ledger stream from the event log (the source of truth, not a read model). */
export async function loadLedger(store: EventStore, platformId: string): Promise<LedgerState> {
  const events = await store.readStream(streams.ledger(platformId));
  let state = initialLedgerState();
  for (const e of events) state = evolveLedger(state, { type: e.type, data: e.data } as LedgerEvent);
  return state;
}

/**
 * The ledger invariants a replay must prove (see LedgerInvariants, which `audit verify` runs too):
 * every transfer balanced, per currency the postings sum to zero, every account's balance equals
 * the sum of its postings, and no account that may not go negative is below zero (counting holds).
 */
export async function expectBalancedLedger(store: EventStore, platformId: string): Promise<LedgerState> {
  const stream = streams.ledger(platformId);
  const invariants = new LedgerInvariants(stream);
  for (const e of await store.readStream(stream)) invariants.apply(e);
  expect(invariants.findings()).toEqual([]);
  return loadLedger(store, platformId);
}
