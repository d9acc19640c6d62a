import { describe, expect, it } from '@jest/globals';
import { DISCOVERIES, discoveriesFor } from './discoveries.js';

describe('receiving institutions by corridor', () => {
  it('filters by country and currency, in any case', () => {
    const ph = discoveriesFor({ country: 'ph', currency: 'PHP' });
    expect(ph.map((d) => d.bankName)).toEqual(['BDO Unibank', 'BPI', 'GCash']);
    expect(ph[1]).toEqual({
      bankName: 'BPI',
      displayName: 'Bank of the Philippine Islands',
      country: 'PH',
      currency: 'PHP',
    });
    expect(discoveriesFor({ currency: 'eur' }).map((d) => d.country)).toEqual(['DE', 'ES', 'FR']);
  });

  it('lists everything without filters and nothing for an unknown corridor', () => {
    expect(discoveriesFor({})).toHaveLength(DISCOVERIES.length);
    expect(discoveriesFor({ country: 'PH', currency: 'USD' })).toEqual([]);
    expect(discoveriesFor({ country: 'ZZ' })).toEqual([]);
  });
});
