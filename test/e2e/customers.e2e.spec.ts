import { describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';
import { walkPages } from '../support/pages.js';
import type { Client } from '../support/service.js';
import { steppedRequests } from '../support/stepped-requests.js';

/** Each test works in a platform of its own: what it lists and counts is only what it made. */
describe('customers over HTTP (embedded stores)', () => {
  const t = useTestService();
  const clock = t.clock;

  const step = steppedRequests(clock);
  const create = (api: Client, body: Record<string, unknown>) =>
    step(201, () => api.post('/customers', { customerType: 'INDIVIDUAL', ...body }));

  it('starts with an empty list', async () => {
    const { api } = await t.otherPlatform();
    const res = await api.get('/customers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('answers 401 in the error shape without or with wrong credentials', async () => {
    const none = await t.anonymous.get('/customers');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', reason: 'missing Authorization header' });
    expect(typeof none.body.message).toBe('string');
    const wrong = await t.anonymous.get('/customers', {
      authorization: `Basic ${Buffer.from(`${t.service.sandbox!.tokenId}:nope`).toString('base64')}`,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.reason).toBe('invalid token id or secret');
    const scheme = await t.anonymous.get('/customers', { authorization: 'Bearer abc' });
    expect(scheme.status).toBe(401);
  });

  it('creates, reads and lists a customer with one internal account per currency', async () => {
    const { api } = await t.otherPlatform();
    const c = await create(api, {
      platformCustomerId: 'user-1',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      region: 'GB',
      currencies: ['USD', 'EUR'],
    });
    expect(c.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
    expect(c).toMatchObject({
      platformCustomerId: 'user-1',
      customerType: 'INDIVIDUAL',
      kycStatus: 'APPROVED',
      isDeleted: false,
      currencies: ['USD', 'EUR'],
    });
    expect(c.umaAddress).toMatch(/^\$user-1@/);
    expect(c.platformId).toBeUndefined();
    const got = await api.get(`/customers/${c.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(c);
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
    expect(accounts.status).toBe(200);
    expect(accounts.body.totalCount).toBe(2);
    expect(accounts.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['EUR', 'USD']);
    for (const a of accounts.body.data)
      expect(a).toMatchObject({ type: 'INTERNAL_FIAT', status: 'ACTIVE', customerId: c.id, balance: { amount: 0 } });
  });

  it('applies the sandbox KYC and KYB outcome rules', async () => {
    const { api } = await t.otherPlatform();
    expect((await create(api, { platformCustomerId: 'k1', fullName: 'Pat Smith001' })).kycStatus).toBe('PENDING');
    expect((await create(api, { platformCustomerId: 'k2', fullName: 'Pat Smith002' })).kycStatus).toBe('REJECTED');
    const business = await create(api, {
      platformCustomerId: 'b1',
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme', registrationNumber: 'REG-002' },
    });
    expect(business.kybStatus).toBe('REJECTED');
    const pending = await create(api, { platformCustomerId: 'k3', fullName: 'Pat Smith001' });
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(pending.id)}`);
    expect(accounts.body.data[0].status).toBe('PENDING');
  });

  it('filters by every documented parameter', async () => {
    const { api } = await t.otherPlatform();
    const mx = await create(api, {
      platformCustomerId: 'filter-mx',
      region: 'MX',
      currencies: ['MXN'],
      umaAddress: '$maria@example.com',
    });
    const mid = new Date(clock.now().getTime() + 500).toISOString();
    const biz = await create(api, { platformCustomerId: 'filter-biz', customerType: 'BUSINESS', region: 'US' });
    const q = async (query: string) => {
      const res = await api.get(`/customers?${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((c: any) => c.id);
    };
    expect(await q('platformCustomerId=filter-mx')).toEqual([mx.id]);
    expect(await q('customerType=BUSINESS')).toContain(biz.id);
    expect(await q('customerType=BUSINESS')).not.toContain(mx.id);
    expect(await q('region=MX')).toEqual([mx.id]);
    expect(await q('currency=MXN')).toEqual([mx.id]);
    expect(await q(`umaAddress=${encodeURIComponent('$maria@example.com')}`)).toEqual([mx.id]);
    expect(await q(`createdAfter=${encodeURIComponent(mid)}`)).toEqual([biz.id]);
    expect(await q(`createdBefore=${encodeURIComponent(mid)}`)).toContain(mx.id);
    expect(await q(`createdBefore=${encodeURIComponent(mid)}`)).not.toContain(biz.id);
    expect(await q(`updatedAfter=${encodeURIComponent(mid)}`)).toEqual([biz.id]);
    expect(await q(`updatedBefore=${encodeURIComponent(mx.createdAt)}`)).toContain(mx.id);
    // inclusive bounds
    expect(
      await q(`createdAfter=${encodeURIComponent(biz.createdAt)}&createdBefore=${encodeURIComponent(biz.createdAt)}`),
    ).toEqual([biz.id]);
  });

  it('paginates with cursors: no gaps, no duplicates, stable totalCount', async () => {
    const { api } = await t.otherPlatform();
    for (let i = 0; i < 23; i++) await create(api, { platformCustomerId: `page-${i}`, region: 'DE' });
    const pages = await walkPages(api, '/customers?region=DE&limit=10');
    expect(pages.map((page) => page.totalCount)).toEqual([23, 23, 23]);
    const seen = pages.flatMap((page) => page.data.map((c) => c.id as string));
    expect(new Set(seen).size).toBe(23);
    const all = await api.get('/customers?region=DE&limit=100');
    expect(all.body.data.map((c: any) => c.id)).toEqual(seen);
    // newest first
    const created = all.body.data.map((c: any) => c.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const defaultPage = await api.get('/customers?region=DE');
    expect(defaultPage.body.data).toHaveLength(20);
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const { api } = await t.otherPlatform();
    // two customers: a page with a next cursor, for the foreign-cursor case
    await create(api, { platformCustomerId: 'listed-1' });
    await create(api, { platformCustomerId: 'listed-2' });
    const before = (await api.get('/customers?isIncludingDeleted=true')).body.totalCount;
    const cases: [string, () => Promise<any>, string][] = [
      ['malformed JSON', () => api.request('POST', '/customers', '{"platformCustomerId": "x",', {}), 'body'],
      [
        'wrong type',
        () => api.post('/customers', { platformCustomerId: 5, customerType: 'INDIVIDUAL' }),
        'platformCustomerId',
      ],
      [
        'unknown enum',
        () => api.post('/customers', { platformCustomerId: 'x', customerType: 'ROBOT' }),
        'customerType',
      ],
      [
        'unknown field',
        () => api.post('/customers', { platformCustomerId: 'x', customerType: 'INDIVIDUAL', favouriteColour: 'red' }),
        'favouriteColour',
      ],
      [
        'bad nested field',
        () =>
          api.post('/customers', {
            platformCustomerId: 'x',
            customerType: 'INDIVIDUAL',
            address: { country: 'Spain' },
          }),
        'address.country',
      ],
      [
        'bad currency',
        () => api.post('/customers', { platformCustomerId: 'x', customerType: 'INDIVIDUAL', currencies: ['usd'] }),
        'currencies',
      ],
      ['missing required', () => api.post('/customers', { platformCustomerId: 'x' }), 'customerType'],
      ['limit 0', () => api.get('/customers?limit=0'), 'limit'],
      ['limit 101', () => api.get('/customers?limit=101'), 'limit'],
      ['limit not a number', () => api.get('/customers?limit=ten'), 'limit'],
      ['bad cursor', () => api.get('/customers?cursor=not-a-cursor'), 'cursor'],
      ['bad date filter', () => api.get('/customers?createdAfter=yesterday'), 'createdAfter'],
      ['bad boolean', () => api.get('/customers?isIncludingDeleted=maybe'), 'isIncludingDeleted'],
      ['bad customerType filter', () => api.get('/customers?customerType=ROBOT'), 'customerType'],
      ['bad path id', () => api.get('/customers/not-an-id'), 'customerId'],
      ['array body', () => api.post('/customers', [1, 2]), ''],
    ];
    for (const [name, call, field] of cases) {
      const res = await call();
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(res.body.code).toBe('INVALID_INPUT');
      if (field)
        expect({ name, fields: res.body.details.errors.map((e: any) => e.field) }).toEqual({
          name,
          fields: expect.arrayContaining([field]),
        });
    }
    // a cursor from another query is refused too
    const page = await api.get('/customers?limit=1');
    const foreign = await api.get(`/customers?region=DE&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(foreign.status).toBe(400);
    expect((await api.get('/customers?isIncludingDeleted=true')).body.totalCount).toBe(before);
  });

  it('updates a customer; adding a currency opens an account, removing one is refused', async () => {
    const { api } = await t.otherPlatform();
    const c = await create(api, { platformCustomerId: 'upd', currencies: ['USD'] });
    clock.advance(1000);
    const res = await api.patch(`/customers/${c.id}`, {
      region: 'FR',
      currencies: ['USD', 'EUR'],
      email: 'new@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ region: 'FR', currencies: ['USD', 'EUR'], email: 'new@example.com' });
    expect(res.body.updatedAt > c.updatedAt).toBe(true);
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
    expect(accounts.body.totalCount).toBe(2);
    const removal = await api.patch(`/customers/${c.id}`, { currencies: ['EUR'] });
    expect(removal.status).toBe(400);
    expect(removal.body.code).toBe('CURRENCY_REMOVAL_NOT_SUPPORTED');
    expect((await api.get(`/customers/${c.id}`)).body.currencies).toEqual(['USD', 'EUR']);
  });

  it('soft-deletes: hidden from lists unless asked, refused while funds remain', async () => {
    const { api } = await t.otherPlatform();
    const c = await create(api, { platformCustomerId: 'del' });
    const rich = await create(api, { platformCustomerId: 'rich' });
    const account = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(rich.id)}`)).body
      .data[0];
    expect((await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 500 })).status).toBe(200);
    const refused = await api.delete(`/customers/${rich.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CUSTOMER_HAS_FUNDS');

    const del = await api.delete(`/customers/${c.id}`);
    expect(del.status).toBe(200);
    expect(del.body.isDeleted).toBe(true);
    expect((await api.get(`/customers/${c.id}`)).body.isDeleted).toBe(true);
    expect((await api.get('/customers?platformCustomerId=del')).body.totalCount).toBe(0);
    expect((await api.get('/customers?platformCustomerId=del&isIncludingDeleted=true')).body.totalCount).toBe(1);
    const closed = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
    expect(closed.body.data.every((a: any) => a.status === 'CLOSED')).toBe(true);
    // Deleting again is 410 CUSTOMER_DELETED (the public API's answer); other changes are 404.
    expect((await api.delete(`/customers/${c.id}`)).status).toBe(410);
    expect((await api.patch(`/customers/${c.id}`, { region: 'US' })).status).toBe(404);
  });

  it("answers 404 for another platform's customer and never lists it", async () => {
    const { api } = await t.otherPlatform();
    const mine = await create(api, { platformCustomerId: 'mine' });
    const other = await t.otherPlatform();
    const res = await other.api.get(`/customers/${mine.id}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await other.api.patch(`/customers/${mine.id}`, { region: 'US' })).status).toBe(404);
    expect((await other.api.delete(`/customers/${mine.id}`)).status).toBe(404);
    expect((await other.api.get('/customers')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const unknown = await api.get('/customers/Customer:00000000-0000-4000-8000-00000000ffff');
    expect(unknown.status).toBe(404);
  });
});
