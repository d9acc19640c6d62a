import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import { platformDecider, type PlatformCommand } from './platform.js';

const spec = deciderSpec(platformDecider);
const PLATFORM = 'Platform:00000000-0000-4000-8000-000000000001';
const NOW = '2026-01-05T00:00:00.000Z';
const create: PlatformCommand = {
  type: 'CreatePlatform',
  platformId: PLATFORM,
  name: 'Acme',
  sandbox: true,
  umaDomain: 'acme.example',
  settlementAccounts: [
    { accountId: 'InternalAccount:usd', currency: 'USD', crypto: false },
    { accountId: 'InternalAccount:btc', currency: 'BTC', crypto: true },
  ],
  now: NOW,
};
const token = (tokenId: string): PlatformCommand => ({
  type: 'CreateApiToken',
  tokenId,
  name: tokenId,
  secretHash: `hash-${tokenId}`,
  permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
  now: NOW,
});
const revoke = (tokenId: string): PlatformCommand => ({ type: 'RevokeApiToken', tokenId, now: NOW });

describe('platform decider', () => {
  it('creates a platform with a settlement account per currency, crypto ones typed INTERNAL_CRYPTO', () => {
    const events = spec.given([]).when(create).thenEmits();
    expect(events.map((e) => e.type)).toEqual(['PlatformCreated', 'PlatformAccountOpened', 'PlatformAccountOpened']);
    const state = spec.fold(events);
    expect(state).toMatchObject({ exists: true, id: PLATFORM, sandbox: true, umaDomain: 'acme.example' });
    expect([...state.settlementAccounts]).toEqual([
      ['USD', 'InternalAccount:usd'],
      ['BTC', 'InternalAccount:btc'],
    ]);
    expect(events[2].data).toMatchObject({ type: 'INTERNAL_CRYPTO', currency: 'BTC' });
  });

  it('refuses to create a platform twice and to act on one that does not exist', () => {
    spec.given(spec.history(create)).when(create).thenFails({ kind: 'conflict', code: 'PLATFORM_EXISTS' });
    spec.given([]).when(token('t1')).thenFails({ kind: 'not_found', code: 'PLATFORM_NOT_FOUND' });
  });

  it('creates tokens with distinct ids and refuses a duplicate id', () => {
    const events = spec.history(create, token('t1'));
    expect(spec.fold(events).tokens.get('t1')).toMatchObject({ name: 't1', secretHash: 'hash-t1', createdAt: NOW });
    spec.given(events).when(token('t1')).thenFails({ kind: 'conflict', code: 'TOKEN_EXISTS' });
  });

  it('never revokes the last active token, and a revoked or unknown token is not found', () => {
    const one = spec.history(create, token('t1'));
    spec.given(one).when(revoke('t1')).thenFails({ kind: 'conflict', code: 'LAST_TOKEN' });
    const two = spec.history(create, token('t1'), token('t2'), revoke('t1'));
    expect(spec.fold(two).tokens.get('t1')?.revokedAt).toBe(NOW);
    spec.given(two).when(revoke('t1')).thenFails({ kind: 'not_found' });
    spec.given(two).when(revoke('nope')).thenFails({ kind: 'not_found' });
    spec.given(two).when(revoke('t2')).thenFails({ code: 'LAST_TOKEN' });
  });

  it('keeps a token’s permissions; tokens from before permissions hold none of their own (all)', () => {
    const limited: PlatformCommand = { ...token('t1'), permissions: ['VIEW'] } as PlatformCommand;
    expect(spec.fold(spec.history(create, limited)).tokens.get('t1')?.permissions).toEqual(['VIEW']);
    const legacy = spec
      .history(create, token('t2'))
      .map((e) => (e.type === 'ApiTokenCreated' ? { ...e, data: { ...e.data, permissions: undefined } } : e));
    expect(spec.fold(legacy).tokens.get('t2')?.permissions).toBeUndefined();
  });

  it('updates the configuration: given fields only, embedded wallet settings merged, currencies checked', () => {
    const later = '2026-01-06T00:00:00.000Z';
    const usd = {
      currencyCode: 'USD',
      minAmount: 100,
      maxAmount: 1_000_000,
      requiredCounterpartyFields: [{ name: 'FULL_NAME' as const, mandatory: true }],
      enabledTransactionTypes: ['OUTGOING' as const],
    };
    const first = spec.history(create, {
      type: 'UpdatePlatformConfig',
      changes: { embeddedWalletConfig: { appName: 'Acme', otpLength: 6 }, supportedCurrencies: [usd] },
      now: NOW,
    });
    spec
      .given(first)
      .when({ type: 'UpdatePlatformConfig', changes: { embeddedWalletConfig: { otpLength: 8 } }, now: later })
      .then([
        {
          type: 'PlatformConfigUpdated',
          data: {
            platformId: PLATFORM,
            changes: { embeddedWalletConfig: { appName: 'Acme', otpLength: 8 } },
            updatedAt: later,
          },
        },
      ]);
    expect(spec.fold(first)).toMatchObject({
      supportedCurrencies: [usd],
      configUpdatedAt: NOW,
      umaDomain: 'acme.example',
    });
    spec.given(first).when({ type: 'UpdatePlatformConfig', changes: {}, now: later }).then([]);
    const bad = (supportedCurrencies: (typeof usd)[]) =>
      spec.given(first).when({ type: 'UpdatePlatformConfig', changes: { supportedCurrencies }, now: later });
    bad([{ ...usd, currencyCode: 'JPY' }]).thenFails({ kind: 'invalid', code: 'INVALID_CURRENCY' });
    bad([usd, usd]).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    bad([{ ...usd, minAmount: 10, maxAmount: 1 }]).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });
});
