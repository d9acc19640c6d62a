import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { available, ledgerDecider, transferStatus, type LedgerCommand } from '#domain/ledger/ledger.js';
import { SqliteEventStore } from '#event-store/sqlite-event-store.js';
import { CommandRunner } from '../command-runner.js';

const NOW = '2026-01-05T00:00:00.000Z';
const metadata = { actor: 'test' };
const settlement = { id: 'settlement', currency: 'USD', allowNegative: true };
const customer = { id: 'customer', currency: 'USD', allowNegative: false };
const fund = (id: string, amount = 10n): Extract<LedgerCommand, { type: 'CreateTransfer' }> => ({
  type: 'CreateTransfer',
  id,
  debit: settlement,
  credit: customer,
  amount,
  code: 'TEST',
  now: NOW,
});
const hold = (id: string): LedgerCommand => ({ ...fund(id, 5n), debit: customer, credit: settlement, pending: true });

/**
 * A ledger snapshot keeps settled transfers as a digest (no records): after a restart from it the ledger must still
 * know every id it used, tell a repeat from a conflicting reuse, and know how each hold was resolved.
 */
describe('a ledger restored from its snapshot', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-snapshots-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides repeats, conflicts and resolved holds as the ledger folded whole does', async () => {
    const runner = new CommandRunner(store, undefined, { snapshots: { every: 5, bytesPerEvent: 1 } });
    const run = (r: CommandRunner, cmd: LedgerCommand) => r.run('ledger-p', ledgerDecider, cmd, { metadata });
    for (let i = 0; i < 12; i++) await run(runner, fund(`fund-${i}`));
    for (let i = 0; i < 6; i++) await run(runner, hold(`hold-${i}`));
    await run(runner, { type: 'PostPendingTransfer', id: 'post-0', pendingId: 'hold-0', now: NOW });
    await run(runner, { type: 'VoidPendingTransfer', id: 'void-1', pendingId: 'hold-1', now: NOW });
    for (let i = 12; i < 20; i++) await run(runner, fund(`fund-${i}`));
    await runner.snapshotsSettled();
    const snapshot = await store.snapshots.readSnapshot('ledger-p');
    expect(snapshot).toMatchObject({ decider: 'ledger', version: 2 });

    const restarted = new CommandRunner(store, undefined, { snapshots: { every: 5, bytesPerEvent: 1 } });
    const whole = new CommandRunner(store, undefined, { snapshots: { every: 0 } });
    const { state } = await restarted.load('ledger-p', ledgerDecider);
    expect(state.settled.size).toBeGreaterThan(0);
    expect(available(state.accounts.get('customer')!)).toBe(200n - 5n - 20n);
    for (const r of [restarted, whole]) {
      // a repeat changes nothing; the same id with another amount is refused
      expect((await run(r, fund('fund-3'))).events).toEqual([]);
      await expect(run(r, fund('fund-3', 11n))).rejects.toMatchObject({ code: 'TRANSFER_EXISTS' });
      expect(
        (await run(r, { type: 'PostPendingTransfer', id: 'post-0', pendingId: 'hold-0', now: NOW })).events,
      ).toEqual([]);
      await expect(
        run(r, { type: 'VoidPendingTransfer', id: 'void-0', pendingId: 'hold-0', now: NOW }),
      ).rejects.toMatchObject({ code: 'PENDING_TRANSFER_RESOLVED' });
      await expect(
        run(r, { type: 'PostPendingTransfer', id: 'post-x', pendingId: 'fund-4', now: NOW }),
      ).rejects.toMatchObject({ code: 'PENDING_TRANSFER_NOT_FOUND' });
    }
    const [a, b] = await Promise.all([
      restarted.load('ledger-p', ledgerDecider),
      whole.load('ledger-p', ledgerDecider),
    ]);
    expect(a.state.accounts).toEqual(b.state.accounts);
    for (const id of ['fund-0', 'hold-0', 'hold-1', 'hold-2', 'post-0', 'void-1', 'fund-19', 'none'])
      expect(transferStatus(a.state, id)).toEqual(transferStatus(b.state, id));
    // an open hold is still a record and can be posted
    const posted = await run(restarted, { type: 'PostPendingTransfer', id: 'post-2', pendingId: 'hold-2', now: NOW });
    expect(posted.events.map((e) => e.type)).toEqual(['PendingTransferPosted']);
  });
});
