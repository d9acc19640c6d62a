import { expect } from '@jest/globals';
import type { EventStore } from '../../libs/event-store/src/event-store.js';
import { streams } from '../../libs/domain/src/ids.js';
import { initialLedgerState, evolveLedger, postedBalance, type LedgerEvent, type LedgerState } from '../../libs/domain/src/ledger/ledger.js';

/** Folds a platform's ledger stream from the event log (the source of truth, not a read model). */
export async function loadLedger(store: EventStore, platformId: string): Promise<LedgerState> {
  const events = await store.readStream(streams.ledger(platformId));
  let state = initialLedgerState();
  for (const e of events) state = evolveLedger(state, { type: e.type, data: e.data } as LedgerEvent);
  return state;
}

/**
 * The ledger invariants a replay must prove: every transfer balanced (one debit, one credit, same
 * amount and currency), per currency the postings sum to zero, every account's balance equals the
 * sum of its postings, and no account that may not go negative is below zero (counting holds).
 */
export async function expectBalancedLedger(store: EventStore, platformId: string): Promise<LedgerState> {
  const events = await store.readStream(streams.ledger(platformId));
  const state = await loadLedger(store, platformId);
  const postings = new Map<string, bigint>(); // account -> credits - debits, recomputed from events
  const byCurrency = new Map<string, bigint>();
  const transfers = new Map<string, { debit: string; credit: string; amount: bigint; currency: string }>();
  const add = (account: string, currency: string, delta: bigint) => {
    postings.set(account, (postings.get(account) ?? 0n) + delta);
    byCurrency.set(currency, (byCurrency.get(currency) ?? 0n) + delta);
  };
  for (const e of events) {
    const d = e.data as Record<string, string | boolean>;
    if (e.type === 'TransferCreated') {
      const t = { debit: String(d.debitAccountId), credit: String(d.creditAccountId), amount: BigInt(String(d.amount)), currency: String(d.currency) };
      expect(t.amount > 0n).toBe(true);
      expect(t.debit).not.toBe(t.credit);
      expect(state.accounts.get(t.debit)?.currency).toBe(t.currency);
      expect(state.accounts.get(t.credit)?.currency).toBe(t.currency);
      transfers.set(String(d.id), t);
      if (!d.pending) {
        add(t.debit, t.currency, -t.amount);
        add(t.credit, t.currency, t.amount);
      }
    } else if (e.type === 'PendingTransferPosted') {
      const t = transfers.get(String(d.pendingId))!;
      const amount = BigInt(String(d.amount));
      expect(amount <= t.amount).toBe(true);
      add(t.debit, t.currency, -amount);
      add(t.credit, t.currency, amount);
    }
  }
  for (const [currency, sum] of byCurrency) expect({ currency, sum }).toEqual({ currency, sum: 0n });
  for (const [id, account] of state.accounts) {
    expect({ id, balance: postedBalance(account) }).toEqual({ id, balance: postings.get(id) ?? 0n });
    if (!account.allowNegative) {
      expect({ id, negative: account.creditsPosted - account.debitsPosted - account.debitsPending < 0n }).toEqual({ id, negative: false });
    }
  }
  return state;
}
