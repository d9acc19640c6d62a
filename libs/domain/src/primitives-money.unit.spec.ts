import { describe, expect, it } from '@jest/globals';
import { DomainError } from './errors.js';
import { currency, formatAmount, isSupportedCurrency, requireCurrencyCode } from './primitives.js';

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

describe('formatAmount', () => {
  it('writes an amount in the smallest unit as its currency does', () => {
    expect(formatAmount(8000n, 'USD')).toBe('80.00 USD');
    expect(formatAmount(5n, 'EUR')).toBe('0.05 EUR');
    expect(formatAmount(0n, 'GBP')).toBe('0.00 GBP');
    expect(formatAmount(-1234n, 'USD')).toBe('-12.34 USD');
    expect(formatAmount(150_000_000n, 'BTC')).toBe('1.50000000 BTC');
    expect(formatAmount(1n, 'USDC')).toBe('0.000001 USDC');
    expect(formatAmount(9_007_199_254_740_991n, 'USD')).toBe('90071992547409.91 USD');
  });

  it('names the smallest unit where the currency is not one the service knows', () => {
    expect(formatAmount(8000n, 'JPY')).toBe('8000 JPY (smallest unit)');
  });
});
