import { describe, expect, it } from '@jest/globals';
import { CommandRunner } from '#application/command-runner.js';
import { agentDecider, agentStream } from '#domain/agents/agent.js';
import { ALL_PERMISSIONS, useAgents, policy, type ConnectedAgent } from './agents-support.js';

describe('agents: policy enforced at the moment of each action', () => {
  const { t, api, a } = useAgents();

  const refused = async (res: { status: number; body: any }, code: 'FORBIDDEN' | 'VELOCITY_LIMIT_EXCEEDED') => {
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code });
  };
  /** Nothing moved: the balance is what it was and the agent started no transaction. */
  const nothingMoved = async (agent: ConnectedAgent, balance: number) => {
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(balance);
    const txs = await api.get(`/transactions?customerId=${agent.customer.id}`);
    expect(txs.body.data.filter((x: any) => x.agentId === agent.id)).toEqual([]);
  };

  it('an AUTO transfer-out is APPROVED with its transaction (carrying agentId); usage counts it', async () => {
    const agent = await a.connected(policy({}, { dailyLimit: 5_000 }), 10_000);
    const res = await a.transferOut(agent, 1_200);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^AgentAction:/),
      agentId: agent.id,
      customerId: agent.customer.id,
      platformCustomerId: expect.any(String),
      status: 'APPROVED',
      type: 'TRANSFER_OUT',
      transferDetails: {
        amount: 1_200,
        currency: 'USD',
        sourceAccountId: agent.customer.accounts.USD,
        destinationAccountId: agent.external,
      },
      transaction: {
        id: expect.stringMatching(/^Transaction:/),
        agentId: agent.id,
        status: 'COMPLETED',
        type: 'OUTGOING',
      },
    });
    expect(res.body).not.toHaveProperty('spend');
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(8_800);
    expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_200, monthlySpend: 1_200 });
    expect((await api.get(`/transactions/${res.body.transaction.id}`)).body.agentId).toBe(agent.id);
    expect((await agent.me.get(`/agents/me/actions/${res.body.id}`)).body).toMatchObject({
      id: res.body.id,
      status: 'APPROVED',
    });
    expect((await agent.me.get('/agents/me/actions?status=APPROVED')).body.data.map((x: any) => x.id)).toEqual([
      res.body.id,
    ]);
    expect(
      (
        await agent.me.get(`/agents/me/transactions?senderAccountIdentifier=${agent.customer.accounts.USD}`)
      ).body.data.map((x: any) => x.id),
    ).toEqual([res.body.transaction.id]);
    expect(
      (await agent.me.get(`/agents/me/transactions?receiverAccountIdentifier=${agent.customer.accounts.USD}`)).body
        .data,
    ).toEqual([]);
    expect((await agent.me.get(`/agents/me/transactions?customerId=${agent.customer.id}`)).status).toBe(400);
    const transferIn = await agent.me.post('/agents/me/transfer-in', {
      source: { accountId: agent.external },
      destination: { accountId: agent.customer.accounts.USD },
      amount: 300,
    });
    expect(transferIn.body).toMatchObject({
      status: 'APPROVED',
      type: 'TRANSFER_IN',
      transaction: { type: 'INCOMING', agentId: agent.id },
    });
  });

  it('permissions: each operation needs its own (403 FORBIDDEN)', async () => {
    const agent = await a.connected(policy({ permissions: [] }));
    await refused(await a.transferOut(agent, 100), 'FORBIDDEN');
    await refused(await agent.me.get('/agents/me/transactions'), 'FORBIDDEN');
    await refused(await agent.me.get('/agents/me/internal-accounts'), 'FORBIDDEN');
    await refused(await agent.me.get('/agents/me/external-accounts'), 'FORBIDDEN');
    const quoteBody = {
      source: { sourceType: 'ACCOUNT', accountId: agent.customer.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: agent.external },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 500,
    };
    await refused(await agent.me.post('/agents/me/quotes', quoteBody), 'FORBIDDEN');
    // Granting one permission opens exactly that operation.
    await api.patch(`/agents/${agent.id}/policy`, { permissions: ['CREATE_QUOTES', 'VIEW_TRANSACTIONS'] });
    const quote = await agent.me.post('/agents/me/quotes', quoteBody);
    expect(quote.status).toBe(201);
    await refused(await agent.me.post(`/agents/me/quotes/${quote.body.id}/execute`), 'FORBIDDEN');
    expect((await agent.me.get('/agents/me/internal-accounts')).body.data.map((x: any) => x.id)).toEqual([
      agent.customer.accounts.USD,
    ]);
    await api.patch(`/agents/${agent.id}/policy`, { permissions: ALL_PERMISSIONS });
    expect((await agent.me.post(`/agents/me/quotes/${quote.body.id}/execute`)).body).toMatchObject({
      status: 'APPROVED',
      type: 'EXECUTE_QUOTE',
      quote: { id: quote.body.id },
      transaction: { agentId: agent.id },
    });
    await nothingMovedExcept(agent, quote.body.totalSendingAmount);
  });

  const nothingMovedExcept = async (agent: ConnectedAgent, spent: number) => {
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(1_000_000 - spent);
  };

  it('perTransactionLimit: above it 403 VELOCITY_LIMIT_EXCEEDED and nothing moves', async () => {
    const agent = await a.connected(policy({}, { perTransactionLimit: 500 }), 10_000);
    await refused(await a.transferOut(agent, 501), 'VELOCITY_LIMIT_EXCEEDED');
    await nothingMoved(agent, 10_000);
    expect((await a.transferOut(agent, 500)).body.status).toBe('APPROVED');
  });

  it('dailyLimit and dailyTransactionLimit', async () => {
    const amounts = await a.connected(policy({}, { dailyLimit: 1_000 }), 10_000);
    expect((await a.transferOut(amounts, 600)).status).toBe(201);
    await refused(await a.transferOut(amounts, 401), 'VELOCITY_LIMIT_EXCEEDED');
    expect((await a.transferOut(amounts, 400)).status).toBe(201);
    const count = await a.connected(policy({}, { dailyTransactionLimit: 2 }), 10_000);
    expect((await a.transferOut(count, 1)).status).toBe(201);
    expect((await a.transferOut(count, 1)).status).toBe(201);
    await refused(await a.transferOut(count, 1), 'VELOCITY_LIMIT_EXCEEDED');
    expect(await a.m.balance(count.customer.accounts.USD)).toBe(9_998);
  });

  it(
    'monthlyLimit counts the earlier days of the month; the daily counters reset at the UTC day ' + 'boundary',
    async () => {
      const agent = await a.connected(policy({}, { dailyLimit: 1_000, monthlyLimit: 1_500 }), 10_000);
      expect((await a.transferOut(agent, 1_000)).status).toBe(201);
      await refused(await a.transferOut(agent, 1), 'VELOCITY_LIMIT_EXCEEDED');
      const now = Date.parse((await api.get('/sandbox/clock')).body.now);
      const midnight = Date.UTC(
        new Date(now).getUTCFullYear(),
        new Date(now).getUTCMonth(),
        new Date(now).getUTCDate() + 1,
      );
      await a.m.advance(Math.ceil((midnight - now) / 1000));
      expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 1_000 });
      await refused(await a.transferOut(agent, 501), 'VELOCITY_LIMIT_EXCEEDED');
      expect((await a.transferOut(agent, 500)).status).toBe(201);
      expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 500, monthlySpend: 1_500 });
    },
  );

  it('the monthly counter resets at the UTC month boundary', async () => {
    const agent = await a.connected(policy({}, { monthlyLimit: 1_000 }), 10_000);
    expect((await a.transferOut(agent, 1_000)).status).toBe(201);
    await refused(await a.transferOut(agent, 1), 'VELOCITY_LIMIT_EXCEEDED');
    const clock = (await api.get('/sandbox/clock')).body;
    const now = new Date(clock.now);
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const before = await a.usage(agent);
    await a.m.advance(Math.ceil((nextMonth - now.getTime()) / 1000));
    const after = await a.usage(agent);
    expect(before.monthlyResetMonth).toBe(new Date(nextMonth).toISOString().slice(0, 7));
    expect(after).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 });
    expect((await a.transferOut(agent, 1_000)).status).toBe(201);
  });

  it('amounts in another currency are converted into the limits’ currency at the service rate', async () => {
    const customer = await a.m.customer(['EUR']);
    await a.m.fund(customer.accounts.EUR, 10_000);
    const external = await a.m.external(customer.id, 'EUR', '888');
    const { agent, deviceCode } = await a.create(customer.id, policy({}, { perTransactionLimit: 1_000 }));
    const me = a.bearer((await a.redeem(deviceCode.code)).body.accessToken);
    const out = (amount: number) =>
      me.post('/agents/me/transfer-out', {
        source: { accountId: customer.accounts.EUR },
        destination: { accountId: external },
        amount,
      });
    // 1000 EUR cents are more than 1000 USD cents.
    await refused(await out(1_000), 'VELOCITY_LIMIT_EXCEEDED');
    expect((await out(900)).body.status).toBe('APPROVED');
    const usage = (await me.get('/agents/me')).body.usage;
    expect(usage.dailySpend).toBeGreaterThan(900);
    expect((await api.get(`/agents/${agent.id}`)).body.usage).toEqual(usage);
  });

  it('allowedAccountIds and account rules (their mode and limit take precedence)', async () => {
    const agent = await a.connected(policy(), 10_000);
    const elsewhere = (await a.m.customer(['EUR'])).accounts.EUR;
    await api.patch(`/agents/${agent.id}/policy`, { accountRestrictions: { allowedAccountIds: [elsewhere] } });
    await refused(await a.transferOut(agent, 10), 'FORBIDDEN');
    await api.patch(`/agents/${agent.id}/policy`, {
      accountRestrictions: {
        allowedAccountIds: null,
        accountRules: [{ accountId: agent.customer.accounts.USD, perTransactionLimit: 50 }],
      },
    });
    await refused(await a.transferOut(agent, 51), 'VELOCITY_LIMIT_EXCEEDED');
    expect((await a.transferOut(agent, 50)).body.status).toBe('APPROVED');
    await api.patch(`/agents/${agent.id}/policy`, {
      accountRestrictions: {
        accountRules: [{ accountId: agent.customer.accounts.USD, executionMode: 'APPROVAL_REQUIRED' }],
      },
    });
    const pending = await a.transferOut(agent, 10);
    expect(pending.body.status).toBe('PENDING_APPROVAL');
    expect(pending.body).not.toHaveProperty('transaction');
    await api.patch(`/agents/${agent.id}/policy`, {
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      accountRestrictions: { accountRules: [{ accountId: agent.customer.accounts.USD, executionMode: 'AUTO' }] },
    });
    expect((await a.transferOut(agent, 10)).body.status).toBe('APPROVED');
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(9_940);
  });

  it('a paused agent cannot act (403) but can read; unpaused it can', async () => {
    const agent = await a.connected(policy(), 10_000);
    await api.patch(`/agents/${agent.id}`, { isPaused: true });
    await refused(await a.transferOut(agent, 10), 'FORBIDDEN');
    await refused(
      await agent.me.post('/agents/me/external-accounts', {
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '123456789',
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
        },
      }),
      'FORBIDDEN',
    );
    expect((await agent.me.get('/agents/me')).body.isPaused).toBe(true);
    expect((await agent.me.get('/agents/me/transactions')).status).toBe(200);
    await nothingMoved(agent, 10_000);
    await api.patch(`/agents/${agent.id}`, { isPaused: false });
    expect((await a.transferOut(agent, 10)).body.status).toBe('APPROVED');
  });

  it('another customer’s accounts, transactions and quotes answer 404', async () => {
    const mine = await a.connected(policy(), 10_000);
    const theirs = await a.connected(policy(), 10_000);
    const theirTx = (await a.transferOut(theirs, 10)).body.transaction.id;
    const other = await mine.me.post('/agents/me/transfer-out', {
      source: { accountId: theirs.customer.accounts.USD },
      destination: { accountId: mine.external },
      amount: 1,
    });
    expect({ status: other.status, code: other.body.code }).toEqual({
      status: 404,
      code: 'INTERNAL_ACCOUNT_NOT_FOUND',
    });
    const toTheirs = await mine.me.post('/agents/me/transfer-out', {
      source: { accountId: mine.customer.accounts.USD },
      destination: { accountId: theirs.external },
      amount: 1,
    });
    expect(toTheirs.status).toBe(404);
    expect((await mine.me.get(`/agents/me/transactions/${theirTx}`)).status).toBe(404);
    expect((await mine.me.get(`/agents/me/transactions`)).body.data.map((x: any) => x.id)).not.toContain(theirTx);
    expect((await mine.me.get(`/agents/me/external-accounts/${theirs.external}`)).status).toBe(404);
    expect((await mine.me.delete(`/agents/me/external-accounts/${theirs.external}`)).status).toBe(404);
    const quote = await theirs.me.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: theirs.customer.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: theirs.external },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
    });
    expect((await mine.me.get(`/agents/me/quotes/${quote.body.id}`)).status).toBe(404);
    expect((await mine.me.post(`/agents/me/quotes/${quote.body.id}/execute`)).status).toBe(404);
    expect((await mine.me.get(`/agents/me/actions`)).body.data).toEqual([]);
    await nothingMoved(mine, 10_000);
  });

  it('external accounts: list, create (customer inferred), get, delete', async () => {
    const agent = await a.connected(policy(), 0);
    const created = await agent.me.post('/agents/me/external-accounts', {
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '55501234888',
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ customerId: agent.customer.id, currency: 'USD' });
    expect((await agent.me.get('/agents/me/external-accounts')).body.data.map((x: any) => x.id).sort()).toEqual(
      [agent.external, created.body.id].sort(),
    );
    expect((await agent.me.get(`/agents/me/external-accounts/${created.body.id}`)).body.id).toBe(created.body.id);
    expect((await agent.me.delete(`/agents/me/external-accounts/${created.body.id}`)).status).toBe(204);
    expect((await agent.me.get(`/agents/me/external-accounts/${created.body.id}`)).status).toBe(404);
  });

  it('a spend reserved by a process that died before moving money is released once stale (10 minutes)', async () => {
    const agent = await a.connected(policy({}, { dailyLimit: 1_000 }), 10_000);
    // What a crashed process leaves: the reservation is on the agent stream, no transaction exists.
    const runner = t.service.app.get(CommandRunner);
    const now = (await api.get('/sandbox/clock')).body.now;
    const actionId = 'AgentAction:00000000-0000-4000-8000-00000000dead';
    const spend = {
      permission: 'CREATE_TRANSFERS' as const,
      accountId: agent.customer.accounts.USD,
      amount: '1000',
      currency: 'USD',
    };
    const transferDetails = {
      amount: 1_000,
      currency: 'USD',
      sourceAccountId: agent.customer.accounts.USD,
      destinationAccountId: agent.external,
    };
    await runner.run(
      agentStream(agent.id),
      agentDecider,
      { type: 'RequestAction', request: { actionId, type: 'TRANSFER_OUT', spend, transferDetails }, now },
      { metadata: { platformId: t.service.sandbox!.platformId, actor: 'test', correlationId: 'crash' } },
    );
    await refused(await a.transferOut(agent, 100), 'VELOCITY_LIMIT_EXCEEDED');
    await a.m.advance(5 * 60);
    await refused(await a.transferOut(agent, 100), 'VELOCITY_LIMIT_EXCEEDED');
    await a.m.advance(5 * 60);
    expect((await a.transferOut(agent, 100)).body.status).toBe('APPROVED');
    expect((await agent.me.get(`/agents/me/actions/${actionId}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'EXECUTION_INTERRUPTED',
    });
    expect(await a.usage(agent)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 100 });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(9_900);
  });
});
