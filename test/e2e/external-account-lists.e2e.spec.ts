import { describe, expect, it } from '@jest/globals';
import { CommandRunner } from '#application/command-runner.js';
import { loadExternalAccount } from '#application/payments/transactions/payment-accounts.js';
import { DomainError } from '#domain/errors.js';
import { ADDRESS, eur as eurInfo, externalAccountsHarness, person, usd } from './external-account-support.js';

const START = Date.UTC(2026, 1, 2, 9);

describe('external accounts over HTTP: ownership, defaults, lists, deletes and the platform’s accounts', () => {
  const kit = externalAccountsHarness(START);

  it('refuses unknown, deleted and other platforms’ customers with 404, and duplicates with 409', async () => {
    const unknown = await kit.registerUsd('Customer:00000000-0000-4000-8000-0000000fffff', '9999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CUSTOMER_NOT_FOUND');
    const gone = await kit.customer({ platformCustomerId: 'gone' });
    expect((await kit.api.delete(`/customers/${gone.id}`)).status).toBe(200);
    expect((await kit.registerUsd(gone.id, '9999')).status).toBe(404);
    const other = await kit.t.otherPlatform();
    const foreign = await kit.registerUsd(kit.ada.id, '9999', other.api);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('CUSTOMER_NOT_FOUND');

    await kit.add({ accountInfo: usd('31415926') });
    const dup = await kit.registerUsd(kit.ada.id, '31415926');
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    // The same bank account may belong to another customer.
    expect((await kit.registerUsd(kit.bob.id, '31415926')).status).toBe(201);
  });

  it('keeps one default UMA deposit account per customer and currency', async () => {
    const first = await kit.add({ accountInfo: usd('88880001'), defaultUmaDepositAccount: true });
    expect(first.defaultUmaDepositAccount).toBe(true);
    const eur = await kit.add({
      currency: 'EUR',
      accountInfo: eurInfo('DE89370400440532013000'),
      defaultUmaDepositAccount: true,
    });
    const bobs = await kit.api.post('/customers/external-accounts', {
      customerId: kit.bob.id,
      currency: 'USD',
      accountInfo: usd('88880002'),
      defaultUmaDepositAccount: true,
    });
    const second = await kit.add({ accountInfo: usd('88880003'), defaultUmaDepositAccount: true });
    expect(second.defaultUmaDepositAccount).toBe(true);
    const reread = (await kit.api.get(`/customers/external-accounts/${first.id}`)).body;
    expect(reread.defaultUmaDepositAccount).toBe(false);
    expect(reread.updatedAt).toBe(second.createdAt);
    expect((await kit.api.get(`/customers/external-accounts/${eur.id}`)).body.defaultUmaDepositAccount).toBe(true);
    expect((await kit.api.get(`/customers/external-accounts/${bobs.body.id}`)).body.defaultUmaDepositAccount).toBe(
      true,
    );
  });

  it('lists with the currency and customerId filters and cursor pagination', async () => {
    const carol = await kit.customer({
      platformCustomerId: 'carol',
      fullName: 'Carol Danvers',
      currencies: ['USD', 'EUR'],
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await kit.add({ customerId: carol.id, accountInfo: usd(`6000${i}00`) })).id);
    const eur = await kit.add({
      customerId: carol.id,
      currency: 'EUR',
      accountInfo: eurInfo('DE89370400440532013555'),
    });
    const q = async (query: string) => {
      const res = await kit.api.get(`/customers/external-accounts?${query}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    const mine = await q(`customerId=${encodeURIComponent(carol.id)}`);
    expect(mine.totalCount).toBe(6);
    expect(mine.data.map((a: any) => a.id)).toEqual([eur.id, ...[...ids].reverse()]);
    expect((await q(`customerId=${encodeURIComponent(carol.id)}&currency=EUR`)).data.map((a: any) => a.id)).toEqual([
      eur.id,
    ]);
    const usdOnly = await q('currency=USD&limit=100');
    expect(usdOnly.data.every((a: any) => a.currency === 'USD')).toBe(true);
    expect(usdOnly.data.map((a: any) => a.id)).toEqual(expect.arrayContaining(ids));
    expect(usdOnly.data.some((a: any) => a.customerId === kit.bob.id)).toBe(true);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await q(
        `customerId=${encodeURIComponent(carol.id)}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.totalCount).toBe(6);
      seen.push(...page.data.map((a: any) => a.id));
      cursor = page.nextCursor;
      expect(Boolean(cursor)).toBe(page.hasMore);
    } while (cursor);
    expect(seen).toEqual(mine.data.map((a: any) => a.id));
    expect((await q('limit=1')).data).toHaveLength(1);
  });

  it('deletes: gone from reads and lists, a second delete is 404', async () => {
    const a = await kit.add({ accountInfo: usd('24681012') });
    const before = await kit.count();
    const del = await kit.api.delete(`/customers/external-accounts/${a.id}`);
    expect(del.status).toBe(204);
    expect((await kit.api.get(`/customers/external-accounts/${a.id}`)).status).toBe(404);
    expect(await kit.count()).toBe(before - 1);
    const again = await kit.api.delete(`/customers/external-accounts/${a.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('EXTERNAL_ACCOUNT_NOT_FOUND');
    // A deleted account no longer blocks registering the same details again.
    expect((await kit.registerUsd(kit.ada.id, '24681012')).status).toBe(201);
  });

  it('manages the platform’s own accounts separately from customers’', async () => {
    kit.clock.advance(1000);
    const own = await kit.api.post('/platform/external-accounts', {
      currency: 'EUR',
      accountInfo: eurInfo('NL91ABNA0417164300', { beneficiary: person('Sandbox', { address: ADDRESS }) }),
      platformAccountId: 'treasury',
    });
    expect(own.status).toBe(201);
    expect(own.body.customerId).toBeUndefined();
    expect(own.body).toMatchObject({
      currency: 'EUR',
      status: 'ACTIVE',
      platformAccountId: 'treasury',
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Sandbox' },
    });
    kit.clock.advance(1000);
    const named = await kit.api.post('/platform/external-accounts', {
      currency: 'USD',
      accountInfo: usd('11110103', { beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Sandbox Payments Inc' } }),
    });
    expect(named.body).toMatchObject({
      beneficiaryVerificationStatus: 'PARTIAL_MATCH',
      beneficiaryVerifiedData: { fullName: 'S. Inc' },
    });
    expect(
      (await kit.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usd('11110105') })).status,
    ).toBe(400);

    const list = await kit.api.get('/platform/external-accounts');
    expect(list.body.data.map((a: any) => a.id)).toEqual([named.body.id, own.body.id]);
    expect((await kit.api.get('/platform/external-accounts?currency=EUR')).body.data.map((a: any) => a.id)).toEqual([
      own.body.id,
    ]);
    const customers = await kit.api.get('/customers/external-accounts?limit=100');
    expect(customers.body.data.map((a: any) => a.id)).not.toContain(own.body.id);
    // Each path sees only its own kind.
    expect((await kit.api.get(`/customers/external-accounts/${own.body.id}`)).status).toBe(404);
    const customerAccount = (await kit.api.get('/customers/external-accounts?limit=1')).body.data[0];
    expect((await kit.api.get(`/platform/external-accounts/${customerAccount.id}`)).status).toBe(404);
    expect((await kit.api.delete(`/platform/external-accounts/${customerAccount.id}`)).status).toBe(404);
    expect((await kit.api.delete(`/customers/external-accounts/${own.body.id}`)).status).toBe(404);

    expect((await kit.api.get(`/platform/external-accounts/${own.body.id}`)).body).toEqual(own.body);
    expect((await kit.api.delete(`/platform/external-accounts/${named.body.id}`)).status).toBe(204);
    expect((await kit.api.get('/platform/external-accounts')).body.totalCount).toBe(1);
  });

  it('answers 404 to another platform and never lists its accounts', async () => {
    const a = await kit.add({ accountInfo: usd('13579111') });
    const own = (await kit.api.get('/platform/external-accounts')).body.data[0];
    const other = await kit.t.otherPlatform();
    for (const path of [`/customers/external-accounts/${a.id}`, `/platform/external-accounts/${own.id}`]) {
      const res = await other.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('EXTERNAL_ACCOUNT_NOT_FOUND');
      expect((await other.api.delete(path)).status).toBe(404);
    }
    expect((await other.api.get('/customers/external-accounts')).body).toEqual({
      data: [],
      hasMore: false,
      totalCount: 0,
    });
    expect((await other.api.get('/platform/external-accounts')).body).toEqual({
      data: [],
      hasMore: false,
      totalCount: 0,
    });
    expect((await kit.api.get(`/customers/external-accounts/${a.id}`)).status).toBe(200);
  });

  it('leaves the name check PENDING on a production platform (no suffix rules)', async () => {
    const prod = await kit.t.otherPlatform({ sandbox: false });
    const c = (
      await prod.api.post('/customers', { platformCustomerId: 'p1', customerType: 'INDIVIDUAL', fullName: 'Pat Doe' })
    ).body;
    const res = await kit.registerUsd(c.id, '5555105', prod.api);
    expect(res.status).toBe(201);
    expect(res.body.beneficiaryVerificationStatus).toBe('PENDING');
    expect(res.body.beneficiaryVerifiedData).toBeUndefined();
  });

  it(
    'loadExternalAccount gives the aggregate state to other features, 404 when missing, deleted or ' + 'foreign',
    async () => {
      const runner = kit.t.service.app.get(CommandRunner);
      const platformId = kit.t.service.sandbox!.platformId;
      const a = await kit.add({ accountInfo: usd('44440102'), platformAccountId: 'p-44' });
      const state = await loadExternalAccount(runner, a.id, platformId);
      expect(state).toMatchObject({
        exists: true,
        id: a.id,
        platformId,
        customerId: kit.ada.id,
        currency: 'USD',
        status: 'ACTIVE',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '44440102' },
        primaryIdentifier: '44440102',
        beneficiaryVerificationStatus: 'NOT_MATCHED',
        platformAccountId: 'p-44',
      });
      const own = (await kit.api.get('/platform/external-accounts')).body.data[0];
      expect((await loadExternalAccount(runner, own.id, platformId)).customerId).toBeUndefined();
      const notFound = async (id: string, platform = platformId) => {
        const error = await loadExternalAccount(runner, id, platform).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe('EXTERNAL_ACCOUNT_NOT_FOUND');
      };
      await notFound(a.id, 'Platform:00000000-0000-4000-8000-0000000000aa');
      await notFound('ExternalAccount:00000000-0000-4000-8000-0000000fffff');
      await notFound('not-an-id');
      expect((await kit.api.delete(`/customers/external-accounts/${a.id}`)).status).toBe(204);
      await notFound(a.id);
    },
  );
});
