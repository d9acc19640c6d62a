import { describe, expect, it } from '@jest/globals';
import { acceptedPermissions, permits, tokenPermissions } from './permissions.js';
import { defaultSupportedCurrencies, proxyUmaSubdomain } from './platform-config.js';

describe('API token permissions', () => {
  it('asks VIEW of reads, TRANSACT of payments, MANAGE of other changes', () => {
    expect(acceptedPermissions('GET', '/customers')).toEqual(['VIEW']);
    expect(acceptedPermissions('HEAD', '/transactions')).toEqual(['VIEW']);
    for (const path of [
      '/quotes',
      '/quotes/Quote:1/execute',
      '/transfer-out',
      '/transactions/Transaction:1/approve',
      '/sandbox/send',
      '/sandbox/uma/receive',
      '/sandbox/internal-accounts/InternalAccount:1/fund',
      '/agents/Agent:1/actions/AgentAction:1/approve',
    ])
      expect({ path, accepted: acceptedPermissions('POST', path) }).toEqual({ path, accepted: ['TRANSACT'] });
    for (const [method, path] of [
      ['POST', '/customers'],
      ['PATCH', '/config'],
      ['POST', '/tokens'],
      ['DELETE', '/tokens/ApiToken:1'],
      ['POST', '/customers/external-accounts'],
      ['PATCH', '/cards/Card:1'],
    ])
      expect(acceptedPermissions(method, path)).toEqual(['MANAGE']);
    expect(acceptedPermissions('POST', '/auth/credentials/AuthMethod:1/verify')).toEqual(['TRANSACT', 'MANAGE']);
  });

  it('lets a token act when it holds one accepted permission; tokens from before permissions hold all', () => {
    expect(permits(['VIEW'], ['VIEW'])).toBe(true);
    expect(permits(['VIEW'], ['MANAGE'])).toBe(false);
    expect(permits(['TRANSACT'], ['TRANSACT', 'MANAGE'])).toBe(true);
    expect(permits(undefined, ['MANAGE'])).toBe(true);
  });

  it('takes permissions as given (all three when omitted) and refuses empty, unknown or repeated ones', () => {
    expect(tokenPermissions(undefined)).toEqual(['VIEW', 'TRANSACT', 'MANAGE']);
    expect(tokenPermissions(['TRANSACT'])).toEqual(['TRANSACT']);
    for (const bad of [[], ['ADMIN'], ['VIEW', 'VIEW']])
      expect(() => tokenPermissions(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('platform configuration defaults', () => {
  it('offers every supported currency both ways with the rails’ limits', () => {
    const currencies = defaultSupportedCurrencies();
    expect(currencies.map((c) => c.currencyCode)).toContain('BTC');
    const usd = currencies.find((c) => c.currencyCode === 'USD')!;
    expect(usd).toMatchObject({ minAmount: 100, enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
    expect(usd.maxAmount).toBeGreaterThan(usd.minAmount);
    expect(proxyUmaSubdomain('Platform:0123abcd-0000-4000-8000-000000000001', 'uma.example')).toBe(
      '0123abcd.uma.example',
    );
  });
});
