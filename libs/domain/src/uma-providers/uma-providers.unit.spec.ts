import { describe, expect, it } from '@jest/globals';
import { SANDBOX_UMA_PROVIDERS, matchesUmaProviderFilter } from './uma-providers.js';

const names = (filter: Parameters<typeof matchesUmaProviderFilter>[1]) =>
  SANDBOX_UMA_PROVIDERS.filter((p) => matchesUmaProviderFilter(p, filter)).map((p) => p.name);

describe('UMA provider table and filter', () => {
  it('has a dozen providers with unique names and domains', () => {
    expect(SANDBOX_UMA_PROVIDERS).toHaveLength(12);
    expect(new Set(SANDBOX_UMA_PROVIDERS.map((p) => p.name)).size).toBe(12);
    expect(new Set(SANDBOX_UMA_PROVIDERS.map((p) => p.domain)).size).toBe(12);
  });

  it('includes blocked providers unless hasBlockedProviders is false', () => {
    expect(names({})).toHaveLength(12);
    expect(names({ hasBlockedProviders: true })).toHaveLength(12);
    expect(names({ hasBlockedProviders: false })).not.toContain('Desert Exchange');
    expect(names({ hasBlockedProviders: false })).toHaveLength(10);
  });

  it('matches country and currency together', () => {
    expect(names({ countryCode: 'AE' })).toEqual(['Desert Exchange']);
    expect(names({ countryCode: 'AE', hasBlockedProviders: false })).toEqual([]);
    expect(names({ countryCode: 'PH', currencyCode: 'USD' })).toEqual(['Kapwa Padala', 'Pacific Bridge']);
  });
});
