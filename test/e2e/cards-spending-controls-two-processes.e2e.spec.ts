import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { available } from '#domain/ledger/ledger.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { poll } from '../support/poll.js';
import { walletSession } from '../support/wallet-session.js';

const FUNDS = 20_000;

/**
 * A daily limit held exactly when two API processes authorize on one card at once: each process checks before its
 * hold, and the card decider checks again when the authorization is recorded on the card's stream (the append that
 * lost a race is decided again), so one process's approvals decline the other's and their holds are released.
 */
describe('spending controls through two service processes on the same embedded files', () => {
  const children: ChildService[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cards-controls-two-'));
  afterAll(async () => {
    for (const c of children.splice(0)) await c.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('50 concurrent authorizations of 300 against a daily limit of 5,000, through both, approve 16', async () => {
    const first = await startChildService(dataDir);
    children.push(first);
    const second = await startChildService(dataDir, { RUN_WORKER: 'false' });
    children.push(second);
    const holder = { platformCustomerId: 'controls-two', customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' };
    const created = await first.api.post('/customers', { ...holder, email: 'two@example.com', currencies: ['USD'] });
    const customerId = created.body.id as string;
    const accounts = await first.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
    const usd = accounts.body.data[0].id as string;
    expect((await first.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: FUNDS })).status).toBe(200);
    await walletSession(first.api, customerId, 'USD');
    const body = { customerId, form: 'VIRTUAL', fundingSources: [usd], spendingControls: { dailyLimit: 5000 } };
    const card = await first.api.post('/cards', body);
    expect(card.status).toBe(201);
    const cardId = card.body.id as string;
    await poll(
      async () => (await second.api.get(`/cards/${cardId}`)).body,
      (c) => c.state === 'ACTIVE',
      { timeoutMs: 20_000, intervalMs: 100 },
    );

    const apis = [first.api, second.api];
    const purchase = { amount: 300, currency: { code: 'USD' }, merchant: { descriptor: 'SHOP', mcc: '5814' } };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        apis[i % 2].post(`/sandbox/cards/${cardId}/simulate/authorization`, purchase),
      ),
    );
    const approved = results.filter((r) => r.status === 200);
    expect(approved).toHaveLength(16);
    expect(results.filter((r) => r.body.code === 'SPENDING_LIMIT_DAILY')).toHaveLength(34);

    const { platformId } = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as {
      platformId: string;
    };
    for (const c of children.splice(0)) await c.kill('SIGTERM');
    const store = new SqliteEventStore(join(dataDir, 'service.db'));
    try {
      const ledger = await expectBalancedLedger(store, platformId);
      // Only the 16 approvals hold money: every hold placed for a declined one was released.
      expect(available(ledger.accounts.get(usd)!)).toBe(BigInt(FUNDS - 16 * 300));
    } finally {
      await store.close();
    }
  }, 120_000);
});
