import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postedBalance } from '#domain/ledger/ledger.js';
import type { EventStore } from '#event-store/event-store.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import { loadLedger } from '../support/ledger-check.js';
import { client, startTestService, type Client, type TestService } from '../support/service.js';
import { money } from './money-support.js';
import { policy } from './agents-support.js';

const LIMITS = { dailyLimit: 5_000 };
const FUNDS = 1_000_000;

/** Sets up a funded customer with a connected agent (daily limit 5,000) through `api`; returns what the spends need. */
async function setUp(api: Client, anonymous: Client, url: string) {
  const m = money({ api } as TestService, api);
  const customer = await m.customer(['USD']);
  await m.fund(customer.accounts.USD, FUNDS);
  const external = await m.external(customer.id, 'USD', '888');
  const created = await api.post('/agents', { name: 'spender', customerId: customer.id, policy: policy({}, LIMITS) });
  expect(created.status).toBe(201);
  const redeemed = await anonymous.post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`);
  expect(redeemed.status).toBe(200);
  return {
    m,
    customer,
    external,
    agentId: created.body.agent.id as string,
    token: redeemed.body.accessToken as string,
    url,
  };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

/** 50 transfer-outs of 300 at once, spread over the given base URLs; then checks that exactly 16 went through. */
async function spendConcurrently(s: Setup, urls: string[]) {
  const agents = urls.map((url) => client(url, `Bearer ${s.token}`));
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      agents[i % agents.length].post('/agents/me/transfer-out', {
        source: { accountId: s.customer.accounts.USD },
        destination: { accountId: s.external },
        amount: 300,
      }),
    ),
  );
  const accepted = replies.filter((r) => r.status === 201);
  const refused = replies.filter((r) => r.status === 403);
  expect({ accepted: accepted.length, refused: refused.length }).toEqual({ accepted: 16, refused: 34 });
  for (const r of accepted)
    expect(r.body).toMatchObject({
      status: 'APPROVED',
      transaction: { id: expect.stringMatching(/^Transaction:/), agentId: s.agentId },
    });
  for (const r of refused) expect(r.body.code).toBe('VELOCITY_LIMIT_EXCEEDED');
  const me = (await agents[0].get('/agents/me')).body;
  expect(me.usage).toMatchObject({ dailyTransactionCount: 16, dailySpend: 16 * 300, monthlySpend: 16 * 300 });
  const txs = (await agents[0].get('/agents/me/transactions?limit=100')).body.data.filter(
    (x: any) => x.type === 'OUTGOING',
  );
  expect(txs).toHaveLength(16);
  expect(new Set(txs.map((x: any) => x.id))).toEqual(new Set(accepted.map((r) => r.body.transaction.id)));
}

/** The account moved exactly the accepted total, by the ledger folded from the event log (the source of truth). */
async function expectLedgerMoved(store: EventStore, platformId: string, accountId: string, amount: number) {
  const ledger = await loadLedger(store, platformId);
  const account = ledger.accounts.get(accountId)!;
  expect({ posted: postedBalance(account), pending: account.debitsPending }).toEqual({
    posted: BigInt(FUNDS - amount),
    pending: 0n,
  });
}

describe('agents: concurrent spends cannot overshoot a limit', () => {
  let t: TestService | undefined;
  const children: ChildService[] = [];
  let dataDir: string | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const c of children.splice(0)) await c.kill('SIGTERM');
  });
  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('50 concurrent transfer-outs of 300 against a daily limit of 5,000: exactly 16 accepted', async () => {
    t = await startTestService();
    const s = await setUp(t.api, t.anonymous, t.url);
    await spendConcurrently(s, [t.url]);
    expect(await s.m.balance(s.customer.accounts.USD)).toBe(FUNDS - 16 * 300);
    await expectLedgerMoved(
      t.service.infra.eventStore,
      t.service.sandbox!.platformId,
      s.customer.accounts.USD,
      16 * 300,
    );
  });

  it('the same with two service processes on the same embedded files', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'agents-two-'));
    const first = await startChildService(dataDir);
    children.push(first);
    const second = await startChildService(dataDir);
    children.push(second);
    const s = await setUp(first.api, client(first.url), first.url);
    await spendConcurrently(s, [first.url, second.url]);
    // The second process sees the same agent state.
    expect((await client(second.url, `Bearer ${s.token}`).get('/agents/me')).body.usage.dailySpend).toBe(4_800);
    const { platformId } = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as {
      platformId: string;
    };
    for (const c of children.splice(0)) await c.kill('SIGTERM');
    const store = new SqliteEventStore(join(dataDir, 'service.db'));
    try {
      await expectLedgerMoved(store, platformId, s.customer.accounts.USD, 16 * 300);
    } finally {
      await store.close();
    }
  });
});
