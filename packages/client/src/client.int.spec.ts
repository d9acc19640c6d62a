import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair } from '@turnkey/crypto';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { walletSession } from '../../../test/support/wallet-session.js';
import { PaymentsClient } from './client.js';
import { isPaymentsApiError, PaymentsApiError } from './errors.js';
import type { Customer } from './types.js';

describe('PaymentsClient against the running service', () => {
  let t: TestService;
  let client: PaymentsClient;

  beforeAll(async () => {
    t = await startTestService();
    const { tokenId, clientSecret } = t.service.sandbox!;
    client = new PaymentsClient({ baseUrl: t.url, tokenId, clientSecret });
  });
  afterAll(async () => t?.close());

  const newCustomer = (ref: string, extra: Record<string, unknown> = {}) =>
    client.post<{ id: string; platformCustomerId: string }>('/customers', {
      platformCustomerId: ref,
      customerType: 'INDIVIDUAL',
      fullName: 'Grace Hopper',
      ...extra,
    });

  it('creates, reads and iterates every item of a list over several pages, following nextCursor', async () => {
    const created = await Promise.all(
      Array.from({ length: 23 }, (_, i) => newCustomer(`client-${i}`, { region: 'NL' })),
    );
    expect((await client.get<Customer>(`/customers/${created[0].id}`)).id).toBe(created[0].id);
    const seen: string[] = [];
    for await (const c of client.list<Customer>('/customers', { query: { region: 'NL' }, pageSize: 10 }))
      seen.push(c.id);
    expect(seen.sort()).toEqual(created.map((c) => c.id).sort());
    const pages = [];
    for await (const page of client.pages<Customer>('/customers', { query: { region: 'NL' }, pageSize: 10 }))
      pages.push(page);
    expect(pages.map((p) => [p.data.length, p.hasMore])).toEqual([
      [10, true],
      [10, true],
      [3, false],
    ]);
    // paginate: the query's limit is the page size; leaving the loop early stops fetching.
    const firstTwelve: string[] = [];
    for await (const c of client.paginate<Customer>('/customers', { region: 'NL', limit: 5 })) {
      firstTwelve.push(c.id);
      if (firstTwelve.length === 12) break;
    }
    expect(new Set(firstTwelve).size).toBe(12);
    expect(firstTwelve.every((id) => seen.includes(id))).toBe(true);
  });

  it('throws the service error shape, field errors and reasons included', async () => {
    const invalid = await client
      .post('/customers', { platformCustomerId: 5, customerType: 'INDIVIDUAL' })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(PaymentsApiError);
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    if (!isPaymentsApiError(invalid, 'INVALID_INPUT')) throw new Error('expected INVALID_INPUT');
    expect(invalid.fieldErrors.map((e) => e.field)).toContain('platformCustomerId');
    const missing = await client.get('/customers/Customer:00000000-0000-4000-8000-000000000000').catch((e) => e);
    expect(isPaymentsApiError(missing, 'CUSTOMER_NOT_FOUND')).toBe(true);
    expect(isPaymentsApiError(missing, 'INVALID_INPUT')).toBe(false);
    expect(missing).toMatchObject({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    const stranger = new PaymentsClient({ baseUrl: t.url, tokenId: t.service.sandbox!.tokenId, clientSecret: 'wrong' });
    await expect(stranger.get('/customers')).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      reason: 'invalid token id or secret',
    });
  });

  it('sends Idempotency-Keys: a different request under a used key is refused', async () => {
    const c = await newCustomer('client-idem', { currencies: ['USD', 'EUR'] });
    const accounts = await client.get<{ data: { id: string; balance: { currency: { code: string } } }[] }>(
      '/customers/internal-accounts',
      { customerId: c.id },
    );
    const usd = accounts.data.find((a) => a.balance.currency.code === 'USD')!.id;
    const eur = accounts.data.find((a) => a.balance.currency.code === 'EUR')!.id;
    const body = (amount: number) => ({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: eur },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
    const first = await client.post<{ id: string }>('/quotes', body(1000), { idempotencyKey: 'client-key-1' });
    const again = await client.post<{ id: string }>('/quotes', body(1000), { idempotencyKey: 'client-key-1' });
    expect(again.id).toBe(first.id);
    await expect(client.post('/quotes', body(2000), { idempotencyKey: 'client-key-1' })).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  });

  it('performs a signed retry end to end with an ApiKeyStamper holding the session key', async () => {
    const holder = await newCustomer('client-wallet', { email: 'grace@example.com' });
    const session = await walletSession(t.api, holder.id);
    const stamper = new ApiKeyStamper({ apiPublicKey: session.publicKey, apiPrivateKey: session.privateKey });
    const account = await client.signed<{ id: string; privateEnabled: boolean }>(
      'PATCH',
      `/internal-accounts/${session.accountId}`,
      { privateEnabled: true },
      stamper,
    );
    expect(account).toMatchObject({ id: session.accountId, privateEnabled: true });
    // A stamp by a key that is no session of the account is refused with the reason.
    const stranger = generateP256KeyPair();
    const intruder = new ApiKeyStamper({ apiPublicKey: stranger.publicKey, apiPrivateKey: stranger.privateKey });
    await expect(
      client.signed('PATCH', `/internal-accounts/${session.accountId}`, { privateEnabled: false }, intruder),
    ).rejects.toMatchObject({ status: 401 });
    expect(
      (await client.get<{ privateEnabled: boolean }>(`/internal-accounts/${session.accountId}`)).privateEnabled,
    ).toBe(true);
  });

  it('authenticates as an agent with its access token (Bearer)', async () => {
    const customer = await newCustomer('client-agent');
    const policy = {
      permissions: ['VIEW_TRANSACTIONS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 },
    };
    const created = await client.post<{ agent: { id: string }; deviceCode: { code: string } }>('/agents', {
      name: 'client-agent',
      customerId: customer.id,
      policy,
    });
    const redeemed = await client.post<{ accessToken: string }>(
      `/agents/device-codes/${created.deviceCode.code}/redeem`,
    );
    const agent = new PaymentsClient({ baseUrl: t.url, accessToken: redeemed.accessToken });
    expect((await agent.get<{ id: string }>('/agents/me')).id).toBe(created.agent.id);
    await expect(agent.get('/customers')).rejects.toMatchObject({ status: 401 });
  });
});
