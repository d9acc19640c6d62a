import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizationIdOf } from '#domain/cards/card-transaction.js';
import { streams } from '#domain/primitives.js';
import { postedBalance } from '#domain/ledger/ledger.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import type { Client } from '../support/service.js';
import { retryHeaders, signedRequest, walletSession } from '../support/wallet-session.js';
import { poll } from '../support/poll.js';

const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };
const FUNDS = 100_000;
const ROUNDS = 6;
const HELD = 1_000;
const CLEARED = 1_500;
const FUNDINGS = 40;
const PARTIAL_ROUNDS = 3;
const PART = 300;

/** Polls a read until it is done or 20 s passed (card issuance runs on the worker's real clock). */
const until = <T>(read: () => Promise<T>, done: (v: T) => boolean) =>
  poll(read, done, { timeoutMs: 20_000, intervalMs: 100 });

describe('cards and fundings through two service processes on the same embedded files', () => {
  const children: ChildService[] = [];
  const dataDirs: string[] = [];

  afterEach(async () => {
    for (const c of children.splice(0)) await c.kill('SIGTERM');
  });
  afterAll(() => {
    for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Two processes on a new data directory. */
  async function twoProcesses() {
    const dataDir = mkdtempSync(join(tmpdir(), 'cards-two-'));
    dataDirs.push(dataDir);
    const first = await startChildService(dataDir);
    children.push(first);
    // The second process runs no worker: it reads through the first one's projector (shared poller).
    const second = await startChildService(dataDir, { RUN_WORKER: 'false' });
    children.push(second);
    return { dataDir, first, second, apis: [first.api, second.api] as Client[] };
  }

  /** A holder: a USD account funded with `funds`, a wallet session, a virtual card the second process sees ACTIVE. */
  async function holderWithCard(first: Client, second: Client, n: number, funds: number) {
    const holder = { platformCustomerId: `two-${n}`, customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' };
    const created = await first.post('/customers', { ...holder, email: `two${n}@example.com`, currencies: ['USD'] });
    expect(created.status).toBe(201);
    const customerId = created.body.id as string;
    const accounts = await first.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
    const usd = accounts.body.data[0].id as string;
    if (funds > 0)
      expect((await first.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: funds })).status).toBe(200);
    // A card needs the holder's embedded wallet (its sessions sign card changes).
    const session = await walletSession(first, customerId, 'USD');
    const card = await first.post('/cards', { customerId, form: 'VIRTUAL', fundingSources: [usd] });
    expect({ status: card.status, body: card.body }).toMatchObject({ status: 201 });
    const cardId = card.body.id as string;
    const active = await until(
      async () => (await second.get(`/cards/${cardId}`)).body,
      (c) => c.state === 'ACTIVE',
    );
    expect(active.state).toBe('ACTIVE');
    return { usd, session, cardId };
  }

  it('clears one authorization from both at once exactly once, and concurrent fundings all succeed', async () => {
    const { dataDir, first, second, apis } = await twoProcesses();
    const { usd, cardId } = await holderWithCard(first.api, second.api, 1, FUNDS);

    const authorizations: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const authorization = { amount: HELD, currency: { code: 'USD' }, merchant };
      const auth = await apis[i % 2].post(`/sandbox/cards/${cardId}/simulate/authorization`, authorization);
      expect(auth.body).toMatchObject({ status: 'AUTHORIZED' });
      authorizations.push(authorizationIdOf(auth.body.id));
      // An over-authorization cleared from both processes at the same moment.
      const clearing = { cardTransactionId: auth.body.id, amount: CLEARED };
      const clear = (api: Client) => api.post(`/sandbox/cards/${cardId}/simulate/clearing`, clearing);
      const replies = await Promise.all(apis.map(clear));
      const ok = replies.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of ok)
        expect(r.body).toMatchObject({
          status: 'SETTLED',
          settledAmount: { amount: CLEARED },
          pullSummary: { count: 2 },
        });
      // The other one lost the race and was refused like any later clearing of a cleared authorization.
      for (const r of replies.filter((x) => x.status !== 200)) {
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
      }
      const after = (await second.api.get(`/card-transactions/${auth.body.id}`)).body;
      expect(after.settlementSummary).toEqual({ count: 1, totalAmount: CLEARED });
    }

    // A partial clearing sent by both at once: recorded once (the joiner is refused) or twice (it came after
    // and took a second part from the rest held again), never posted without being recorded.
    for (let i = 0; i < PARTIAL_ROUNDS; i++) {
      const authorization = { amount: HELD, currency: { code: 'USD' }, merchant };
      const auth = await apis[i % 2].post(`/sandbox/cards/${cardId}/simulate/authorization`, authorization);
      expect(auth.body).toMatchObject({ status: 'AUTHORIZED' });
      const part = { cardTransactionId: auth.body.id, amount: PART };
      const replies = await Promise.all(
        apis.map((api) => api.post(`/sandbox/cards/${cardId}/simulate/clearing`, part)),
      );
      expect(replies.some((r) => r.status === 200)).toBe(true);
      for (const r of replies.filter((x) => x.status !== 200))
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
      const read = async () => (await second.api.get(`/card-transactions/${auth.body.id}`)).body;
      const after = await until(read, (t) => t.settlementSummary.count >= 1);
      expect(after.status).toBe('PARTIALLY_SETTLED');
      expect(after.settledAmount.amount).toBe(PART * after.settlementSummary.count);
      const rest = { cardTransactionId: auth.body.id, amount: HELD - after.settledAmount.amount };
      const closed = await first.api.post(`/sandbox/cards/${cardId}/simulate/clearing`, rest);
      expect(closed.body).toMatchObject({ status: 'SETTLED', settledAmount: { amount: HELD } });
    }

    // Fundings of one account through both processes: the ledger stream is hot from two writers.
    const fund = (i: number) => apis[i % 2].post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1 });
    const fundings = await Promise.all(Array.from({ length: FUNDINGS }, (_, i) => fund(i)));
    expect(fundings.map((r) => r.status)).toEqual(Array(FUNDINGS).fill(200));
    const expected = FUNDS - ROUNDS * CLEARED - PARTIAL_ROUNDS * HELD + FUNDINGS;
    for (const api of apis) expect((await api.get(`/internal-accounts/${usd}`)).body.balance.amount).toBe(expected);

    const credentials = readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8');
    const { platformId } = JSON.parse(credentials) as { platformId: string };
    for (const c of children.splice(0)) await c.kill('SIGTERM');
    const store = new SqliteEventStore(join(dataDir, 'service.db'));
    try {
      const ledger = await expectBalancedLedger(store, platformId);
      expect(postedBalance(ledger.accounts.get(usd)!)).toBe(BigInt(expected));
      expect(ledger.accounts.get(usd)!.debitsPending).toBe(0n);
      for (const id of authorizations) {
        const legs = [...ledger.transfers.values()].filter((t) => t.reference === id && !t.pending);
        // The hold posted once and one over-authorization transfer, never two.
        expect(legs.map((t) => [t.code, t.amount]).sort()).toEqual([
          ['CARD_AUTHORIZATION', BigInt(HELD)],
          ['CARD_CLEARING_OVER_AUTHORIZATION', BigInt(CLEARED - HELD)],
        ]);
      }
    } finally {
      await store.close();
    }
  }, 120_000);

  it('refuses a retry whose challenge the other process consumed after this one saw it; changes once', async () => {
    const { dataDir, first, second } = await twoProcesses();
    const { session, cardId } = await holderWithCard(first.api, second.api, 2, 0);
    const path = `/cards/${cardId}`;
    // Both processes have seen the wallet and the card: each changes the card once.
    expect((await signedRequest(first.api, 'PATCH', path, { state: 'FROZEN' }, session)).result.status).toBe(200);
    expect((await signedRequest(second.api, 'PATCH', path, { state: 'ACTIVE' }, session)).result.status).toBe(200);

    // The second process issues a challenge (it now holds it unused), the first consumes it, and the identical retry
    // then reaches the second: it is refused although the second's own view of the wallet still had it unused.
    const challenge = await second.api.patch(path, { state: 'FROZEN' });
    expect(challenge.status).toBe(202);
    const headers = await retryHeaders(session, challenge.body.payloadToSign, challenge.body.requestId);
    const frozen = await first.api.patch(path, { state: 'FROZEN' }, headers);
    expect({ status: frozen.status, state: frozen.body.state }).toEqual({ status: 200, state: 'FROZEN' });
    const replayed = await second.api.patch(path, { state: 'FROZEN' }, headers);
    expect({ status: replayed.status, code: replayed.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    const unfreeze = await signedRequest(second.api, 'PATCH', path, { state: 'ACTIVE' }, session);
    expect({ status: unfreeze.result.status, state: unfreeze.result.body.state }).toEqual({
      status: 200,
      state: 'ACTIVE',
    });

    for (const c of children.splice(0)) await c.kill('SIGTERM');
    const store = new SqliteEventStore(join(dataDir, 'service.db'));
    try {
      const states = (await store.readStream(streams.card(cardId)))
        .filter((e) => e.type === 'CardStateChanged')
        .map((e) => (e.data as { card: { state: string } }).card.state);
      // Frozen twice (the refused retry changed nothing), each time unfrozen again.
      expect(states.filter((state) => state === 'FROZEN')).toHaveLength(2);
      expect(states.slice(-4)).toEqual(['FROZEN', 'ACTIVE', 'FROZEN', 'ACTIVE']);
    } finally {
      await store.close();
    }
  }, 120_000);
});
