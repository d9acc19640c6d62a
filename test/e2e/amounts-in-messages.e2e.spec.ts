import { describe, expect, it } from '@jest/globals';
import { policy, useAgents } from './agents-support.js';

/** What a refusal says about money is written as the currency writes it, and a wrong type is one clear error. */
describe('amounts in error messages', () => {
  const { api, a } = useAgents();

  it("an agent's per-transaction limit refusal states the amount and the limit in dollars", async () => {
    const agent = await a.connected(policy({}, { perTransactionLimit: 5_000 }), 10_000);
    const res = await a.transferOut(agent, 8_000);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'VELOCITY_LIMIT_EXCEEDED' });
    expect(res.body.message).toBe('80.00 USD is above the per-transaction limit of 50.00 USD');
  });

  it("an agent's daily limit refusal states the amount, the limit and what is used in dollars", async () => {
    const agent = await a.connected(policy({}, { dailyLimit: 1_000 }), 10_000);
    expect((await a.transferOut(agent, 600)).status).toBe(201);
    const res = await a.transferOut(agent, 401);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('4.01 USD passes the daily limit of 10.00 USD (6.00 USD used)');
  });

  it('insufficient funds names the amount asked in dollars', async () => {
    const customer = await a.m.customer(['USD']);
    await a.m.fund(customer.accounts.USD, 1_000);
    const external = await a.m.external(customer.id, 'USD', '888');
    const res = await api.post('/transfer-out', {
      source: { accountId: customer.accounts.USD },
      destination: { accountId: external },
      amount: 2_500,
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INSUFFICIENT_FUNDS' });
    expect(res.body.message).toBe(`account ${customer.accounts.USD} has insufficient funds for 25.00 USD`);
  });

  it('a crypto withdrawal that does not cover its fee states the fee in USDC (six decimals)', async () => {
    const customer = await a.m.customer(['USDC']);
    const res = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: customer.accounts.USDC,
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      amount: 500,
      destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
    expect(res.body.message).toBe('amount must exceed the total fee of 0.001000 USDC');
  });

  it('an amount sent as a decimal string gets one error, that it must be an integer in the smallest unit', async () => {
    const customer = await a.m.customer(['USD']);
    const external = await a.m.external(customer.id, 'USD', '888');
    const res = await api.post('/transfer-out', {
      source: { accountId: customer.accounts.USD },
      destination: { accountId: external },
      amount: '100.00',
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(res.body.details.errors).toEqual([
      { field: 'amount', constraint: 'isInt', message: 'amount must be an integer in the smallest unit' },
    ]);
    const limits = await api.post('/agents', {
      name: 'typed',
      customerId: customer.id,
      policy: policy({}, { perTransactionLimit: '50.00' }),
    });
    expect(limits.status).toBe(400);
    expect(limits.body.details.errors).toEqual([
      expect.objectContaining({ field: 'policy.spendingLimits.perTransactionLimit', constraint: 'isInt' }),
    ]);
  });
});
