import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { streams } from '#domain/primitives.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import type { Client, Reply } from '../support/service.js';
import { walletSession } from '../support/wallet-session.js';
import { customerWithAccount } from '../support/customer-account.js';
import { useDataDir } from '../support/fixture.js';
import { poll } from '../support/poll.js';

/**
 * A signed card PATCH spends its requestId in the wallet stream, then appends the change to the
 * card stream. With FAULT_INJECT=after-consume the service SIGKILLs itself between the two; after
 * a restart the client's identical retry completes the change (two concurrent ones: one wins),
 * the card is FROZEN exactly once, and any further retry is 401.
 */
describe('signed card PATCH killed between consumption and change', () => {
  let child: ChildService | undefined;
  const dataDir = useDataDir('payments-signed-crash-', () => child?.kill());

  const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 30_000) =>
    poll(read, done, { what, timeoutMs: ms, intervalMs: 50 });

  const expectSpent = (res: Reply) =>
    expect({ status: res.status, code: res.body.code, reason: res.body.reason }).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: 'requestId was already used',
    });

  it('ends with the card FROZEN once after a restart and an identical retry; a further retry is 401', async () => {
    child = await startChildService(dataDir, { FAULT_INJECT: 'after-consume' });
    let api: Client = child.api;
    const profile = { fullName: 'Ada Lovelace', email: 'crash@example.com' };
    const { customerId, accountId: usd } = await customerWithAccount(api, {
      platformCustomerId: 'crash-card-holder',
      ...profile,
    });
    const wallet = await walletSession(api, customerId, 'USD');
    const fundingSources = [usd, wallet.accountId];
    const card = await api.post('/cards', { customerId, form: 'VIRTUAL', fundingSources });
    expect(card.status).toBe(201);
    const path = `/cards/${card.body.id}`;
    // The sandbox issuer answers 5 s (platform clock) after the request.
    expect((await api.post('/sandbox/clock/advance', { seconds: 6 })).status).toBe(200);
    await until(
      async () => (await api.get(path)).body.state,
      (s) => s === 'ACTIVE',
      'the card to be issued',
    );

    const challenge = await api.patch(path, { state: 'FROZEN' });
    expect(challenge.status).toBe(202);
    const signature = await wallet.stamp(challenge.body.payloadToSign);
    const headers = { 'service-wallet-signature': signature, 'request-id': challenge.body.requestId as string };
    // The process dies after the consumption: the client sees the connection drop, not an answer.
    await expect(api.patch(path, { state: 'FROZEN' }, headers)).rejects.toThrow();
    await child.kill();
    expect(child.process.signalCode).toBe('SIGKILL');

    child = await startChildService(dataDir);
    api = child.api;
    expect((await api.get(path)).body.state).toBe('ACTIVE');
    const retry = () => api.patch(path, { state: 'FROZEN' }, headers);
    const replies = await Promise.all([retry(), retry()]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(replies.find((r) => r.status === 200)!.body).toMatchObject({ id: card.body.id, state: 'FROZEN' });
    expectSpent(replies.find((r) => r.status === 401)!);
    expectSpent(await retry());
    expect((await api.get(path)).body.state).toBe('FROZEN');
    await child.kill('SIGTERM');

    const store = new SqliteEventStore(join(dataDir, 'service.db'));
    try {
      const cardEvents = await store.readStream(streams.card(card.body.id));
      const data = (e: { data: unknown }) => e.data as { requestId: string; card: { state: string } };
      const ofType = (events: { type: string; data: unknown }[], type: string) =>
        events.filter((e) => e.type === type).map(data);
      expect(ofType(cardEvents, 'CardStateChanged').map((d) => d.card.state)).toEqual(['ACTIVE', 'FROZEN']);
      expect(ofType(cardEvents, 'SignedRequestApplied').map((d) => d.requestId)).toEqual([headers['request-id']]);
      const walletEvents = await store.readStream(streams.wallet(wallet.accountId));
      expect(ofType(walletEvents, 'SignedRetryConsumed').map((d) => d.requestId)).toEqual([headers['request-id']]);
    } finally {
      await store.close();
    }
  });
});
