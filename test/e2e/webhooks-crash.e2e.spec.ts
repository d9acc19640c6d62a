import { describe, expect, it } from '@jest/globals';
import { useChildServices } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import { pointWebhooksAt } from '../support/webhook-receiver.js';

/**
 * The log is the outbox: a service killed with SIGKILL in the middle of a burst of fundings (with
 * webhooks configured) delivers, after a restart, one balance webhook for every transfer that
 * was committed, each with the balance right after it; none is lost.
 */
describe('webhooks across a crash', () => {
  const services = useChildServices('payments-webhooks-crash-');

  it('delivers every committed event after SIGKILL during a burst and a restart', async () => {
    // A slow receiver: at the kill, deliveries are in flight, queued and not yet dispatched.
    const receiver = await services.receiver('slow');
    let child = await services.start();
    const config = await pointWebhooksAt(child.api, receiver);
    const customer = await child.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'crash-webhooks',
    });
    expect(customer.status).toBe(201);
    const accountId: string = (
      await child.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`)
    ).body.data[0].id;

    let acknowledged = 0;
    let attempted = 0;
    let killed = false;
    // Requests sent and not yet answered when SIGKILL was sent (answers already written may still arrive after it).
    let outstandingAtKill = 0;
    const target = 150;
    const worker = async () => {
      while (!killed) {
        attempted += 1;
        try {
          // Amount 1 each: the n-th committed transfer leaves the balance at n.
          const res = await child.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1 });
          if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.body)}`);
          acknowledged += 1;
        } catch (error) {
          if (!killed) throw error;
        }
        if (acknowledged >= target && !killed) {
          killed = true;
          outstandingAtKill = attempted - acknowledged;
          await child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    // The kill came in the middle of the burst: the other workers' fundings were in flight.
    expect(outstandingAtKill).toBeGreaterThan(0);
    expect(attempted).toBeGreaterThanOrEqual(acknowledged);
    const deliveredBeforeRestart = receiver.delivered().size;

    child = await services.start();
    // The restarted process's read models resume from their checkpoints: the balance counts every committed transfer
    // once they have caught up with the log (the batches the killed process was committing were lost with it).
    await poll(
      async () => (await child.api.get('/audit/overview')).body.projections.lag,
      (lag) => lag === '0',
      { what: 'the read models to catch up with the log after the restart', timeoutMs: 30_000, intervalMs: 50 },
    );
    const account = await child.api.get(`/internal-accounts/${accountId}`);
    const committed: number = account.body.balance.amount;
    expect(committed).toBeGreaterThanOrEqual(acknowledged);
    expect(deliveredBeforeRestart).toBeLessThan(committed);
    await receiver.setMode('ok');

    const balancesDelivered = () => {
      const seen = new Set<number>();
      for (const copies of receiver.delivered().values()) {
        const hook = copies[0].json!;
        if (hook.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && hook.data.id === accountId)
          seen.add(hook.data.balance.amount);
      }
      return seen;
    };
    // Jobs the killed process held are taken over once their lease (30 s) runs out.
    await receiver.waitFor(() => balancesDelivered().size >= committed, 90_000, `${committed} balance webhooks`);
    expect([...balancesDelivered()].sort((a, b) => a - b)).toEqual(Array.from({ length: committed }, (_, i) => i + 1));

    const balanceHooks = receiver.requests.filter((r) => r.json?.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
    const byId = new Map<string, Set<string>>();
    for (const r of balanceHooks) byId.set(r.json!.id, (byId.get(r.json!.id) ?? new Set()).add(r.body));
    expect(byId.size).toBe(committed); // one webhook per transfer, duplicates share the id
    expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true);
    expect(balanceHooks.every((r) => r.ecdsaValid && r.standardValid)).toBe(true);

    // The signing material survived the restart (sealed in the log, key file in the data directory).
    expect((await child.api.get('/config')).body).toEqual(config);
    const listed = await child.api.get('/webhooks/deliveries?type=INTERNAL_ACCOUNT.BALANCE_UPDATED&limit=1');
    expect(listed.body.totalCount).toBe(committed);
  }, 180_000);
});
