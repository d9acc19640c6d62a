import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandRunner } from '../../libs/application/src/command-runner.js';
import { loadExternalAccount } from '../../libs/application/src/external-accounts/load-external-account.js';
import { ManualClock } from '../../libs/domain/src/clock.js';
import { DomainError } from '../../libs/domain/src/errors.js';
import { startTestService, type Client, type TestService } from '../support/service.js';

const START = Date.UTC(2026, 1, 2, 9);
const usd = (accountNumber: string, extra: Record<string, unknown> = {}) => ({
  accountType: 'USD_ACCOUNT',
  accountNumber,
  routingNumber: '021000021',
  ...extra,
});

describe('external accounts over HTTP', () => {
  let t: TestService;
  let api: Client;
  const clock = new ManualClock(START);
  let ada: { id: string };
  let bob: { id: string };

  const customer = async (body: Record<string, unknown>) => {
    const res = await api.post('/customers', { customerType: 'INDIVIDUAL', ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const add = async (body: Record<string, unknown>, expected = 201) => {
    clock.advance(1000);
    const res = await api.post('/customers/external-accounts', { customerId: ada.id, currency: 'USD', ...body });
    expect({ status: res.status, body: res.body }).toEqual({ status: expected, body: expect.anything() });
    return res.body;
  };
  const count = async (path = '/customers/external-accounts') => (await api.get(path)).body.totalCount as number;

  beforeAll(async () => {
    t = await startTestService({ clock });
    api = t.api;
    ada = await customer({ platformCustomerId: 'ada', fullName: 'Ada Lovelace', currencies: ['USD', 'EUR', 'MXN'] });
    bob = await customer({ platformCustomerId: 'bob', fullName: 'Bob Marley', currencies: ['USD'] });
  });
  afterAll(async () => t?.close());

  it('adds an account with exactly the resource fields and reads it back', async () => {
    const a = await add({ accountInfo: usd('000123456789', { bankName: 'First Bank' }), platformAccountId: 'bank-1' });
    expect(a).toEqual({
      id: expect.stringMatching(/^ExternalAccount:[0-9a-f-]{36}$/),
      customerId: ada.id,
      currency: 'USD',
      status: 'ACTIVE',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        bankName: 'First Bank',
      },
      platformAccountId: 'bank-1',
      defaultUmaDepositAccount: false,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Ada Lovelace' },
      createdAt: new Date(clock.now()).toISOString(),
      updatedAt: new Date(clock.now()).toISOString(),
    });
    const got = await api.get(`/customers/external-accounts/${a.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(a);
  });

  it('applies every sandbox beneficiary verification outcome by the primary identifier suffix', async () => {
    const cases: [string, string, Record<string, unknown> | undefined][] = [
      ['4444102', 'NOT_MATCHED', { fullName: 'Sandbox Account Holder' }],
      ['4444103', 'PARTIAL_MATCH', { fullName: 'G. Hopper' }],
      ['4444104', 'PENDING', undefined],
      ['4444106', 'UNSUPPORTED', undefined],
      ['4444107', 'CHECKED_BY_RECEIVING_FI', undefined],
      ['4444108', 'MATCHED', { fullName: 'Grace Brewster Hopper' }],
      ['4444001', 'MATCHED', { fullName: 'Grace Brewster Hopper' }],
    ];
    for (const [accountNumber, status, verified] of cases) {
      const a = await add({ accountInfo: usd(accountNumber), beneficiary: { fullName: 'Grace Brewster Hopper' } });
      expect({ accountNumber, status: a.beneficiaryVerificationStatus }).toEqual({ accountNumber, status });
      expect(a.beneficiaryVerifiedData).toEqual(verified);
    }
    // The digits of identifiers with a domain part go in the name part.
    const upi = await add({ currency: 'INR', accountInfo: { accountType: 'UPI', vpa: 'ada103@okbank' } });
    expect(upi.beneficiaryVerificationStatus).toBe('PARTIAL_MATCH');
    expect(upi.beneficiaryVerifiedData).toEqual({ fullName: 'A. Lovelace' });
    // IBANs, CLABEs and wallet addresses use their own last three characters.
    expect(
      (await add({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013104' } }))
        .beneficiaryVerificationStatus,
    ).toBe('PENDING');
    expect(
      (await add({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '032180000118359107' } }))
        .beneficiaryVerificationStatus,
    ).toBe('CHECKED_BY_RECEIVING_FI');
  });

  it('refuses suffix 105 as an invalid account and creates nothing', async () => {
    const before = await count();
    const head = await t.service.infra.eventStore.headPosition();
    const res = await api.post('/customers/external-accounts', {
      customerId: ada.id,
      currency: 'USD',
      accountInfo: usd('7777105'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_EXTERNAL_ACCOUNT',
      details: { errors: [{ field: 'accountInfo' }] },
    });
    const upi = await api.post('/customers/external-accounts', {
      customerId: ada.id,
      currency: 'INR',
      accountInfo: { accountType: 'UPI', vpa: 'x105@bank' },
    });
    expect(upi.status).toBe(400);
    expect(await count()).toBe(before);
    expect(await t.service.infra.eventStore.headPosition()).toBe(head);
  });

  it('accepts every account type with its own fields', async () => {
    const valid: [string, Record<string, unknown>][] = [
      ['USD', usd('12345678', { accountCategory: 'SAVINGS' })],
      ['EUR', { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606', swiftCode: 'BNPAFRPP' }],
      ['GBP', { accountType: 'IBAN_ACCOUNT', iban: 'GB29NWBK60161331926819' }],
      ['AED', { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', swiftCode: 'EBILAEAD' }],
      ['GBP', { accountType: 'GBP_ACCOUNT', accountNumber: '31926819', sortCode: '601613' }],
      ['MXN', { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' }],
      [
        'CAD',
        { accountType: 'CAD_ACCOUNT', accountNumber: '1234567', institutionNumber: '001', transitNumber: '12345' },
      ],
      ['INR', { accountType: 'UPI', vpa: 'ada.lovelace@okhdfc' }],
      ['BRL', { accountType: 'PIX', pixKey: 'ada@example.com', pixKeyType: 'EMAIL' }],
      ['PHP', { accountType: 'PHP_ACCOUNT', accountNumber: '1234567890', bankName: 'BDO Unibank' }],
      ['NGN', { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'Access Bank' }],
      [
        'BTC',
        { accountType: 'SPARK_WALLET', address: 'sp1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' },
      ],
      ['BTC', { accountType: 'LIGHTNING', address: 'ada@wallet.example.com' }],
      ['USDC', { accountType: 'ETHEREUM_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' }],
      ['USDC', { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }],
    ];
    for (const [currency, accountInfo] of valid) {
      const a = await add({ currency, accountInfo });
      expect(a.accountInfo).toEqual(accountInfo);
      expect(a.currency).toBe(currency);
    }
  });

  it('refuses invalid input with field errors and changes nothing', async () => {
    const before = await count();
    const post = (body: Record<string, unknown>) =>
      api.post('/customers/external-accounts', {
        customerId: ada.id,
        currency: 'USD',
        accountInfo: usd('5555'),
        ...body,
      });
    const cases: [string, () => Promise<any>, string][] = [
      [
        'missing accountInfo field',
        () => post({ accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '12345' } }),
        'accountInfo.routingNumber',
      ],
      [
        'bad routing number',
        () => post({ accountInfo: usd('12345', { routingNumber: '12' }) }),
        'accountInfo.routingNumber',
      ],
      [
        'field of another type',
        () => post({ accountInfo: usd('12345', { iban: 'DE89370400440532013000' }) }),
        'accountInfo.iban',
      ],
      ['non-string field', () => post({ accountInfo: usd('12345', { bankName: 7 }) }), 'accountInfo.bankName'],
      ['unknown account type', () => post({ accountInfo: { accountType: 'ZZZ_ACCOUNT' } }), 'accountInfo.accountType'],
      ['no account type', () => post({ accountInfo: { accountNumber: '1' } }), 'accountInfo.accountType'],
      ['currency the type cannot hold', () => post({ currency: 'EUR' }), 'currency'],
      ['accountInfo not an object', () => post({ accountInfo: 'USD_ACCOUNT' }), 'accountInfo'],
      [
        'CLABE too short',
        () => post({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '1234' } }),
        'accountInfo.clabe',
      ],
      [
        'AED without swift',
        () => post({ currency: 'AED', accountInfo: { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456' } }),
        'accountInfo.swiftCode',
      ],
      [
        'GBP sort code with dashes',
        () =>
          post({
            currency: 'GBP',
            accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819', sortCode: '60-16-13' },
          }),
        'accountInfo.sortCode',
      ],
      ['UPI without vpa', () => post({ currency: 'INR', accountInfo: { accountType: 'UPI' } }), 'accountInfo.vpa'],
      [
        'NGN without bank',
        () => post({ currency: 'NGN', accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789' } }),
        'accountInfo.bankName',
      ],
      [
        'bad wallet address',
        () => post({ currency: 'USDC', accountInfo: { accountType: 'ETHEREUM_WALLET', address: '0x123' } }),
        'accountInfo.address',
      ],
      ['unknown currency', () => post({ currency: 'XYZ' }), 'currency'],
      ['unknown top-level field', () => post({ nickname: 'x' }), 'nickname'],
      ['empty beneficiary name', () => post({ beneficiary: { fullName: '' } }), 'beneficiary.fullName'],
      ['unknown beneficiary field', () => post({ beneficiary: { fullName: 'A', age: 3 } }), 'beneficiary.age'],
      ['default flag not boolean', () => post({ defaultUmaDepositAccount: 'yes' }), 'defaultUmaDepositAccount'],
      ['bad customerId', () => post({ customerId: 'Customer:1' }), 'customerId'],
      [
        'missing customerId',
        () => api.post('/customers/external-accounts', { currency: 'USD', accountInfo: usd('5555') }),
        'customerId',
      ],
      [
        'customerId on the platform path',
        () =>
          api.post('/platform/external-accounts', { customerId: ada.id, currency: 'USD', accountInfo: usd('5555') }),
        'customerId',
      ],
      ['bad currency filter', () => api.get('/customers/external-accounts?currency=XYZ'), 'currency'],
      ['bad customerId filter', () => api.get('/customers/external-accounts?customerId=nope'), 'customerId'],
      ['limit 0', () => api.get('/customers/external-accounts?limit=0'), 'limit'],
      ['limit 101', () => api.get('/platform/external-accounts?limit=101'), 'limit'],
      ['bad cursor', () => api.get('/customers/external-accounts?cursor=garbage'), 'cursor'],
      [
        'bad path id',
        () => api.get('/customers/external-accounts/Customer:00000000-0000-4000-8000-000000000001'),
        'externalAccountId',
      ],
      ['bad path id on delete', () => api.delete('/platform/external-accounts/x'), 'externalAccountId'],
    ];
    for (const [name, call, field] of cases) {
      const res = await call();
      expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status: 400, code: 'INVALID_INPUT' });
      expect({ name, fields: res.body.details.errors.map((e: any) => e.field) }).toEqual({
        name,
        fields: expect.arrayContaining([field]),
      });
    }
    expect(await count()).toBe(before);
  });

  it('refuses unknown, deleted and other platforms’ customers with 404, and duplicates with 409', async () => {
    const unknown = await api.post('/customers/external-accounts', {
      customerId: 'Customer:00000000-0000-4000-8000-0000000fffff',
      currency: 'USD',
      accountInfo: usd('9999'),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CUSTOMER_NOT_FOUND');
    const gone = await customer({ platformCustomerId: 'gone' });
    expect((await api.delete(`/customers/${gone.id}`)).status).toBe(200);
    expect(
      (
        await api.post('/customers/external-accounts', {
          customerId: gone.id,
          currency: 'USD',
          accountInfo: usd('9999'),
        })
      ).status,
    ).toBe(404);
    const other = await t.otherPlatform();
    const foreign = await other.api.post('/customers/external-accounts', {
      customerId: ada.id,
      currency: 'USD',
      accountInfo: usd('9999'),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('CUSTOMER_NOT_FOUND');

    await add({ accountInfo: usd('31415926') });
    const dup = await api.post('/customers/external-accounts', {
      customerId: ada.id,
      currency: 'USD',
      accountInfo: usd('31415926'),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    // The same bank account may belong to another customer.
    expect(
      (
        await api.post('/customers/external-accounts', {
          customerId: bob.id,
          currency: 'USD',
          accountInfo: usd('31415926'),
        })
      ).status,
    ).toBe(201);
  });

  it('keeps one default UMA deposit account per customer and currency', async () => {
    const first = await add({ accountInfo: usd('88880001'), defaultUmaDepositAccount: true });
    expect(first.defaultUmaDepositAccount).toBe(true);
    const eur = await add({
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' },
      defaultUmaDepositAccount: true,
    });
    const bobs = await api.post('/customers/external-accounts', {
      customerId: bob.id,
      currency: 'USD',
      accountInfo: usd('88880002'),
      defaultUmaDepositAccount: true,
    });
    const second = await add({ accountInfo: usd('88880003'), defaultUmaDepositAccount: true });
    expect(second.defaultUmaDepositAccount).toBe(true);
    const reread = (await api.get(`/customers/external-accounts/${first.id}`)).body;
    expect(reread.defaultUmaDepositAccount).toBe(false);
    expect(reread.updatedAt).toBe(second.createdAt);
    expect((await api.get(`/customers/external-accounts/${eur.id}`)).body.defaultUmaDepositAccount).toBe(true);
    expect((await api.get(`/customers/external-accounts/${bobs.body.id}`)).body.defaultUmaDepositAccount).toBe(true);
  });

  it('lists with the currency and customerId filters and cursor pagination', async () => {
    const carol = await customer({
      platformCustomerId: 'carol',
      fullName: 'Carol Danvers',
      currencies: ['USD', 'EUR'],
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await add({ customerId: carol.id, accountInfo: usd(`6000${i}00`) })).id);
    const eur = await add({
      customerId: carol.id,
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013555' },
    });
    const q = async (query: string) => {
      const res = await api.get(`/customers/external-accounts?${query}`);
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
    expect(usdOnly.data.some((a: any) => a.customerId === bob.id)).toBe(true);
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
    const a = await add({ accountInfo: usd('24681012') });
    const before = await count();
    const del = await api.delete(`/customers/external-accounts/${a.id}`);
    expect(del.status).toBe(204);
    expect((await api.get(`/customers/external-accounts/${a.id}`)).status).toBe(404);
    expect(await count()).toBe(before - 1);
    const again = await api.delete(`/customers/external-accounts/${a.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('EXTERNAL_ACCOUNT_NOT_FOUND');
    // A deleted account no longer blocks registering the same details again.
    expect(
      (
        await api.post('/customers/external-accounts', {
          customerId: ada.id,
          currency: 'USD',
          accountInfo: usd('24681012'),
        })
      ).status,
    ).toBe(201);
  });

  it('manages the platform’s own accounts separately from customers’', async () => {
    clock.advance(1000);
    const own = await api.post('/platform/external-accounts', {
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'NL91ABNA0417164300' },
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
    clock.advance(1000);
    const named = await api.post('/platform/external-accounts', {
      currency: 'USD',
      accountInfo: usd('11110103'),
      beneficiary: { fullName: 'Sandbox Payments Inc' },
    });
    expect(named.body).toMatchObject({
      beneficiaryVerificationStatus: 'PARTIAL_MATCH',
      beneficiaryVerifiedData: { fullName: 'S. Inc' },
    });
    expect(
      (await api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usd('11110105') })).status,
    ).toBe(400);

    const list = await api.get('/platform/external-accounts');
    expect(list.body.data.map((a: any) => a.id)).toEqual([named.body.id, own.body.id]);
    expect((await api.get('/platform/external-accounts?currency=EUR')).body.data.map((a: any) => a.id)).toEqual([
      own.body.id,
    ]);
    const customers = await api.get('/customers/external-accounts?limit=100');
    expect(customers.body.data.map((a: any) => a.id)).not.toContain(own.body.id);
    // Each path sees only its own kind.
    expect((await api.get(`/customers/external-accounts/${own.body.id}`)).status).toBe(404);
    const customerAccount = (await api.get('/customers/external-accounts?limit=1')).body.data[0];
    expect((await api.get(`/platform/external-accounts/${customerAccount.id}`)).status).toBe(404);
    expect((await api.delete(`/platform/external-accounts/${customerAccount.id}`)).status).toBe(404);
    expect((await api.delete(`/customers/external-accounts/${own.body.id}`)).status).toBe(404);

    expect((await api.get(`/platform/external-accounts/${own.body.id}`)).body).toEqual(own.body);
    expect((await api.delete(`/platform/external-accounts/${named.body.id}`)).status).toBe(204);
    expect((await api.get('/platform/external-accounts')).body.totalCount).toBe(1);
  });

  it('answers 404 to another platform and never lists its accounts', async () => {
    const a = await add({ accountInfo: usd('13579111') });
    const own = (await api.get('/platform/external-accounts')).body.data[0];
    const other = await t.otherPlatform();
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
    expect((await api.get(`/customers/external-accounts/${a.id}`)).status).toBe(200);
  });

  it('leaves the name check PENDING on a production platform (no suffix rules)', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const c = (
      await prod.api.post('/customers', { platformCustomerId: 'p1', customerType: 'INDIVIDUAL', fullName: 'Pat Doe' })
    ).body;
    const res = await prod.api.post('/customers/external-accounts', {
      customerId: c.id,
      currency: 'USD',
      accountInfo: usd('5555105'),
    });
    expect(res.status).toBe(201);
    expect(res.body.beneficiaryVerificationStatus).toBe('PENDING');
    expect(res.body.beneficiaryVerifiedData).toBeUndefined();
  });

  it(
    'loadExternalAccount gives the aggregate state to other features, 404 when missing, deleted or ' + 'foreign',
    async () => {
      const runner = t.service.app.get(CommandRunner);
      const platformId = t.service.sandbox!.platformId;
      const a = await add({ accountInfo: usd('44440102'), platformAccountId: 'p-44' });
      const state = await loadExternalAccount(runner, a.id, platformId);
      expect(state).toMatchObject({
        exists: true,
        id: a.id,
        platformId,
        customerId: ada.id,
        currency: 'USD',
        status: 'ACTIVE',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '44440102' },
        primaryIdentifier: '44440102',
        beneficiaryVerificationStatus: 'NOT_MATCHED',
        platformAccountId: 'p-44',
      });
      const own = (await api.get('/platform/external-accounts')).body.data[0];
      expect((await loadExternalAccount(runner, own.id, platformId)).customerId).toBeUndefined();
      const notFound = async (id: string, platform = platformId) => {
        const error = await loadExternalAccount(runner, id, platform).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe('EXTERNAL_ACCOUNT_NOT_FOUND');
      };
      await notFound(a.id, 'Platform:00000000-0000-4000-8000-0000000000aa');
      await notFound('ExternalAccount:00000000-0000-4000-8000-0000000fffff');
      await notFound('not-an-id');
      expect((await api.delete(`/customers/external-accounts/${a.id}`)).status).toBe(204);
      await notFound(a.id);
    },
  );
});
