import { describe, expect, it } from '@jest/globals';
import { DomainError } from './errors.js';
import { currency, isSupportedCurrency, requireCurrencyCode } from './money.js';

describe('currency codes', () => {
  it('takes any ISO 4217-shaped code (and four-letter crypto codes) at the edge', () => {
    for (const code of ['USD', 'JPY', 'KES', 'USDC', 'USDT']) expect(requireCurrencyCode(code)).toBe(code);
    for (const code of ['usd', 'US', 'USDCX', '12A', ''])
      expect(() => requireCurrencyCode(code, 'currencies[0]')).toThrow(
        expect.objectContaining({ kind: 'invalid', code: 'INVALID_INPUT' }),
      );
  });

  it('moves money only in the supported set: others are 400 INVALID_CURRENCY naming the field', () => {
    expect(currency('MXN')).toMatchObject({ code: 'MXN', decimals: 2 });
    expect(isSupportedCurrency('BTC')).toBe(true);
    expect(isSupportedCurrency('JPY')).toBe(false);
    let error: unknown;
    try {
      currency('JPY', 'receivingCurrencyCode');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      kind: 'invalid',
      code: 'INVALID_CURRENCY',
      details: { errors: [{ field: 'receivingCurrencyCode', constraint: 'INVALID_CURRENCY' }] },
    });
  });
});
