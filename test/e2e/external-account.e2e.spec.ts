import { describe, expect, it } from '@jest/globals';
import { expectInvalidInputs, type InvalidCase } from '../support/invalid-input.js';
import { ADDRESS, externalAccountsHarness, person, usd, USD_RAILS } from './external-account-support.js';

const START = Date.UTC(2026, 1, 2, 9);

describe('external accounts over HTTP', () => {
  const kit = externalAccountsHarness(START);

  it('adds an account with exactly the resource fields and reads it back', async () => {
    const a = await kit.add({
      accountInfo: usd('000123456789', { bankName: 'First Bank' }),
      platformAccountId: 'bank-1',
    });
    expect(a).toEqual({
      id: expect.stringMatching(/^ExternalAccount:[0-9a-f-]{36}$/),
      customerId: kit.ada.id,
      currency: 'USD',
      status: 'ACTIVE',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        bankName: 'First Bank',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
        paymentRails: USD_RAILS,
      },
      platformAccountId: 'bank-1',
      defaultUmaDepositAccount: false,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Ada Lovelace' },
      createdAt: new Date(kit.clock.now()).toISOString(),
      updatedAt: new Date(kit.clock.now()).toISOString(),
    });
    const got = await kit.api.get(`/customers/external-accounts/${a.id}`);
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
      const a = await kit.add({ accountInfo: usd(accountNumber, { beneficiary: person('Grace Brewster Hopper') }) });
      expect({ accountNumber, status: a.beneficiaryVerificationStatus }).toEqual({ accountNumber, status });
      expect(a.beneficiaryVerifiedData).toEqual(verified);
    }
    // The digits of identifiers with a domain part go in the name part.
    const upi = await kit.add({
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'ada103@okbank', beneficiary: person() },
    });
    expect(upi.beneficiaryVerificationStatus).toBe('PARTIAL_MATCH');
    expect(upi.beneficiaryVerifiedData).toEqual({ fullName: 'A. Lovelace' });
    // IBANs, CLABEs, phone numbers and wallet addresses use their own last three characters.
    const outcome = async (currency: string, accountInfo: Record<string, unknown>) =>
      (await kit.add({ currency, accountInfo })).beneficiaryVerificationStatus;
    const adaAt = person('Ada Lovelace', { address: ADDRESS });
    expect(
      await outcome('EUR', { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013104', beneficiary: adaAt }),
    ).toBe('PENDING');
    expect(
      await outcome('MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: '032180000118359107', beneficiary: person() }),
    ).toBe('CHECKED_BY_RECEIVING_FI');
    const kes = { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345106', provider: 'M-PESA', beneficiary: person() };
    expect(await outcome('KES', kes)).toBe('UNSUPPORTED');
  });

  it('refuses suffix 105 as an invalid account and creates nothing', async () => {
    const before = await kit.count();
    const head = await kit.t.service.infra.eventStore.headPosition();
    const res = await kit.api.post('/customers/external-accounts', {
      customerId: kit.ada.id,
      currency: 'USD',
      accountInfo: usd('7777105'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_EXTERNAL_ACCOUNT',
      details: { errors: [{ field: 'accountInfo' }] },
    });
    const upi = await kit.api.post('/customers/external-accounts', {
      customerId: kit.ada.id,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'x105@bank', beneficiary: person() },
    });
    expect(upi.status).toBe(400);
    expect(await kit.count()).toBe(before);
    expect(await kit.t.service.infra.eventStore.headPosition()).toBe(head);
  });

  it('accepts the public API’s account types with their own fields and shows their payment rails', async () => {
    const ada = person();
    const adaAt = person('Ada Lovelace', { address: ADDRESS });
    const valid: [string, Record<string, unknown>, string[] | undefined][] = [
      ['USD', usd('12345678', { accountCategory: 'SAVINGS' }), USD_RAILS],
      [
        'EUR',
        { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606', swiftCode: 'BNPAFRPP', beneficiary: adaAt },
        ['SEPA', 'SEPA_INSTANT'],
      ],
      ['AED', { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', beneficiary: adaAt }, ['BANK_TRANSFER']],
      [
        'GBP',
        { accountType: 'GBP_ACCOUNT', accountNumber: '31926819', sortCode: '601613', beneficiary: ada },
        ['FASTER_PAYMENTS'],
      ],
      ['MXN', { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771', beneficiary: ada }, ['SPEI']],
      [
        'CAD',
        {
          accountType: 'CAD_ACCOUNT',
          accountNumber: '1234567',
          bankCode: '001',
          branchCode: '12345',
          beneficiary: person('Ada Lovelace', { registrationNumber: 'R-1' }),
        },
        ['BANK_TRANSFER'],
      ],
      ['INR', { accountType: 'INR_ACCOUNT', vpa: 'kit.ada.lovelace@okhdfc', beneficiary: ada }, ['UPI']],
      [
        'BRL',
        {
          accountType: 'BRL_ACCOUNT',
          pixKey: 'ada@example.com',
          pixKeyType: 'EMAIL',
          taxId: '12345678901',
          beneficiary: ada,
        },
        ['PIX'],
      ],
      [
        'PHP',
        { accountType: 'PHP_ACCOUNT', accountNumber: '12345678', bankName: 'BDO Unibank', beneficiary: ada },
        ['BANK_TRANSFER'],
      ],
      [
        'NGN',
        { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'Access Bank', beneficiary: ada },
        ['BANK_TRANSFER'],
      ],
      [
        'XOF',
        {
          accountType: 'XOF_ACCOUNT',
          phoneNumber: '+221771234567',
          provider: 'Orange Money',
          region: 'SN',
          beneficiary: ada,
        },
        ['MOBILE_MONEY'],
      ],
      [
        'JPY',
        {
          accountType: 'SWIFT_ACCOUNT',
          country: 'JP',
          swiftCode: 'MHCBJPJT',
          bankName: 'Mizuho Bank',
          accountNumber: '1234567',
          beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Ada Analytical Engines KK' },
        },
        ['SWIFT'],
      ],
      [
        'BTC',
        { accountType: 'SPARK_WALLET', address: 'sp1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjz' },
        undefined,
      ],
      ['BTC', { accountType: 'LIGHTNING', lightningAddress: 'ada@wallet.example.com' }, undefined],
      ['USDC', { accountType: 'ETHEREUM_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' }, undefined],
      ['USDC', { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE8' }, undefined],
      ['USDC', { accountType: 'POLYGON_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE9' }, undefined],
      ['USDC', { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }, undefined],
      ['USDT', { accountType: 'TRON_WALLET', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' }, undefined],
    ];
    for (const [currency, accountInfo, rails] of valid) {
      const a = await kit.add({ currency, accountInfo });
      expect(a.accountInfo).toEqual(rails ? { ...accountInfo, paymentRails: rails } : accountInfo);
      expect(a.currency).toBe(currency);
    }
  });

  it('accepts requests shaped as the public API’s examples (bank account and Spark wallet)', async () => {
    const bank = {
      accountType: 'USD_ACCOUNT',
      accountNumber: '98765432101',
      routingNumber: '021000021',
      bankAccountType: 'SAVINGS',
      bankName: 'Hudson Savings',
      platformAccountId: 'ext-usd-77',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        birthDate: '1815-12-10',
        nationality: 'GB',
        address: { line1: '12 St James Square', city: 'London', state: 'LDN', postalCode: 'SW1Y 4JH', country: 'GB' },
      },
    };
    const customer = await kit.add({ currency: 'USD', accountInfo: bank });
    expect(customer).toMatchObject({
      customerId: kit.ada.id,
      currency: 'USD',
      status: 'ACTIVE',
      platformAccountId: 'ext-usd-77',
      accountInfo: { ...bank, paymentRails: USD_RAILS },
      beneficiaryVerificationStatus: 'MATCHED',
    });
    const platform = await kit.api.post('/platform/external-accounts', {
      currency: 'USD',
      accountInfo: { ...bank, accountNumber: '98765432102' },
    });
    expect(platform.status).toBe(201);
    expect(platform.body.customerId).toBeUndefined();
    const spark = { accountType: 'SPARK_WALLET', address: 'spark1qq9z8kq7m3vw6r2l0t4d8x5c7n2h6j9p3s4a5' };
    const wallet = await kit.add({ currency: 'BTC', accountInfo: spark });
    expect(wallet.accountInfo).toEqual(spark);
    const platformWallet = await kit.api.post('/platform/external-accounts', { currency: 'BTC', accountInfo: spark });
    expect(platformWallet.status).toBe(201);
  });

  it('takes a customer-path account without customerId as the platform’s own', async () => {
    const res = await kit.api.post('/customers/external-accounts', { currency: 'USD', accountInfo: usd('24242424') });
    expect(res.status).toBe(201);
    expect(res.body.customerId).toBeUndefined();
    expect((await kit.api.get(`/platform/external-accounts/${res.body.id}`)).body).toEqual(res.body);
  });

  it('refuses invalid input with field errors and changes nothing', async () => {
    const before = await kit.count();
    const post = (body: Record<string, unknown>) =>
      kit.api.post('/customers/external-accounts', {
        customerId: kit.ada.id,
        currency: 'USD',
        accountInfo: usd('5555'),
        ...body,
      });
    const cases: InvalidCase[] = [
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
        () =>
          post({
            currency: 'MXN',
            accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '1234', beneficiary: person() },
          }),
        'accountInfo.clabeNumber',
      ],
      [
        'retired field name',
        () => post({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' } }),
        'accountInfo.clabe',
      ],
      [
        'bank account without beneficiary',
        () => post({ accountInfo: usd('5555', { beneficiary: undefined }) }),
        'accountInfo.beneficiary',
      ],
      [
        'EUR beneficiary without address',
        () =>
          post({
            currency: 'EUR',
            accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: person() },
          }),
        'accountInfo.beneficiary.address',
      ],
      [
        'GBP sort code with dashes',
        () =>
          post({
            currency: 'GBP',
            accountInfo: {
              accountType: 'GBP_ACCOUNT',
              accountNumber: '31926819',
              sortCode: '60-16-13',
              beneficiary: person(),
            },
          }),
        'accountInfo.sortCode',
      ],
      [
        'retired type',
        () => post({ currency: 'INR', accountInfo: { accountType: 'UPI', vpa: 'a@b' } }),
        'accountInfo.accountType',
      ],
      [
        'INR without vpa',
        () => post({ currency: 'INR', accountInfo: { accountType: 'INR_ACCOUNT', beneficiary: person() } }),
        'accountInfo.vpa',
      ],
      [
        'NGN without bank',
        () =>
          post({
            currency: 'NGN',
            accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', beneficiary: person() },
          }),
        'accountInfo.bankName',
      ],
      [
        'empty wallet address',
        () => post({ currency: 'USDC', accountInfo: { accountType: 'ETHEREUM_WALLET', address: '' } }),
        'accountInfo.address',
      ],
      ['currency not ISO 4217-shaped', () => post({ currency: 'usd' }), 'currency'],
      ['unknown top-level field', () => post({ nickname: 'x' }), 'nickname'],
      ['beneficiary beside accountInfo', () => post({ beneficiary: { fullName: 'A' } }), 'beneficiary'],
      [
        'empty beneficiary name',
        () => post({ accountInfo: usd('5555', { beneficiary: person('') }) }),
        'accountInfo.beneficiary.fullName',
      ],
      [
        'unknown beneficiary field',
        () => post({ accountInfo: usd('5555', { beneficiary: person('A', { age: '3' }) }) }),
        'accountInfo.beneficiary.age',
      ],
      ['default flag not boolean', () => post({ defaultUmaDepositAccount: 'yes' }), 'defaultUmaDepositAccount'],
      ['bad customerId', () => post({ customerId: 'Customer:1' }), 'customerId'],
      [
        'customerId on the platform path',
        () =>
          kit.api.post('/platform/external-accounts', {
            customerId: kit.ada.id,
            currency: 'USD',
            accountInfo: usd('5555'),
          }),
        'customerId',
      ],
      ['bad currency filter', () => kit.api.get('/customers/external-accounts?currency=us'), 'currency'],
      ['bad customerId filter', () => kit.api.get('/customers/external-accounts?customerId=nope'), 'customerId'],
      ['limit 0', () => kit.api.get('/customers/external-accounts?limit=0'), 'limit'],
      ['limit 101', () => kit.api.get('/platform/external-accounts?limit=101'), 'limit'],
      ['bad cursor', () => kit.api.get('/customers/external-accounts?cursor=garbage'), 'cursor'],
      [
        'bad path id',
        () => kit.api.get('/customers/external-accounts/Customer:00000000-0000-4000-8000-000000000001'),
        'externalAccountId',
      ],
      ['bad path id on delete', () => kit.api.delete('/platform/external-accounts/x'), 'externalAccountId'],
    ];
    await expectInvalidInputs(cases, 'among');
    expect(await kit.count()).toBe(before);
  });
});
