import { expect, it } from '@jest/globals';
import { describeEachJobQueue, useTestService } from '../support/fixture.js';
import type { Client } from '../support/service.js';

const FLOOD = 1_500;
const BALANCE_UPDATED = 'INTERNAL_ACCOUNT.BALANCE_UPDATED';

/**
 * One platform's receiver never answers (it accepts the connection and stays silent) while the platform's fundings
 * produce 1,500 webhooks; another platform's webhooks still arrive, while all of the first one's attempts hang. The
 * service runs with its default concurrency (32 attempts at once, 8 of one platform).
 */
describeEachJobQueue('webhook delivery across platforms', (adapter) => {
  // A's attempts hang until the receiver timeout, the longest the configuration takes (two minutes), so that none of
  // them ends while B's webhooks are awaited, even when a loaded machine leaves the dispatcher far behind the flood of
  // fundings (on one loaded run B's webhooks came more than a minute after A's first attempts); an attempt of A that
  // ended would mean B waited for it.
  const t = useTestService({ jobs: adapter, env: { WEBHOOK_TIMEOUT_MS: '120000' } });

  async function fundedAccount(api: Client): Promise<string> {
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'fairness' });
    expect(customer.status).toBe(201);
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`);
    return accounts.body.data[0].id;
  }
  const fund = async (api: Client, accountId: string) =>
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1 })).status).toBe(200);

  it("delivers B's 3 webhooks while all of A's attempts to a receiver that never answers still hang", async () => {
    const a = await t.webhookPlatform();
    const b = await t.webhookPlatform();
    await a.receiver.setMode('hang');
    const [fromA, fromB] = [await fundedAccount(a.api), await fundedAccount(b.api)];
    try {
      // Four at a time (one platform's fundings are decided one after the other on its ledger anyway).
      for (let i = 0; i < FLOOD; i += 4) await Promise.all([0, 1, 2, 3].map(() => fund(a.api, fromA)));
      await a.receiver.waitFor((requests) => requests.length > 0, 60_000, "A's first attempts");

      for (let i = 0; i < 3; i++) await fund(b.api, fromB);
      await b.receiver.waitFor(
        (requests) => requests.filter((r) => r.json?.type === BALANCE_UPDATED && r.answered === 200).length >= 3,
        // Within A's receiver timeout, counted from A's first attempts.
        110_000,
        "B's 3 webhooks",
      );
      // B did not wait for A's slots: every attempt of A still hangs, none has reached the receiver timeout, which is
      // when a slot held by A would have been freed.
      expect(a.receiver.requests.filter((r) => r.abandoned).length).toBe(0);
      expect(b.receiver.requests.every((r) => r.ecdsaValid && r.standardValid)).toBe(true);
      // A never had more than its 8 slots out at once, and none of them was freed.
      expect(a.receiver.requests.length).toBeLessThanOrEqual(8);
    } finally {
      // Ends A's hung attempts.
      await a.receiver.close();
    }
  }, 300_000);
});
