import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import type { Client } from '../support/service.js';
import { customerWithAccount } from '../support/customer-account.js';
import { useDataDir } from '../support/fixture.js';

/**
 * A keyed request whose process dies after its effect and before its answer is kept under the key: the client never
 * saw an answer and retries with the same key once the claim's lease (5 minutes, platform clock) has ended. The
 * retry takes the claim over and runs the request again, naming its effects as the first run did, so the funding
 * the first run applied is found, not applied a second time.
 */
describe('a keyed request killed between its effect and its kept answer', () => {
  let child: ChildService | undefined;
  const dataDir = useDataDir('payments-keyed-crash-', () => child?.kill());

  it('funds the account once when the same key is retried after the lease', async () => {
    child = await startChildService(dataDir, { FAULT_INJECT: 'before-key-answer' });
    let api: Client = child.api;
    const profile = { fullName: 'Grace Hopper', email: 'keyed-crash@example.com' };
    const { accountId: usd } = await customerWithAccount(api, { platformCustomerId: 'keyed-crash', ...profile });
    const fund = () =>
      api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 2_500 }, { 'idempotency-key': 'k1' });

    // The process dies after the transfer, before the answer is kept: the client sees the connection drop.
    await expect(fund()).rejects.toThrow();
    await child.kill();
    expect(child.process.signalCode).toBe('SIGKILL');

    child = await startChildService(dataDir);
    api = child.api;
    // The first run's effect is there; its key's claim is still leased.
    expect((await api.get(`/internal-accounts/${usd}`)).body.balance.amount).toBe(2_500);
    expect((await api.post('/sandbox/clock/advance', { seconds: 301 })).status).toBe(200);
    const retried = await fund();
    expect(retried.status).toBe(200);
    expect(retried.body.balance.amount).toBe(2_500);
    // The answer is kept now: the same key again is a replay.
    const replayed = await fund();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.balance.amount).toBe(2_500);
    await child.kill('SIGTERM');

    const store = new SqliteEventStore(join(dataDir, 'service.db'));
    try {
      const fundings = (await store.readAll({ types: ['TransferCreated'] })).filter(
        (e) => (e.data as { code?: string; creditAccountId?: string }).creditAccountId === usd,
      );
      expect(fundings.map((e) => (e.data as { code: string }).code)).toEqual(['SANDBOX_FUNDING']);
    } finally {
      await store.close();
    }
  });
});
