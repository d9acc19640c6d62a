import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../../errors.js';
import { CURRENCY_CODES } from '../../primitives.js';
import {
  INTERNAL_RAIL,
  assertQuotable,
  conversionRate,
  exchangeRateTable,
  networkRail,
  parseRatio,
  priceByReceiving,
  priceBySending,
  railsFor,
  rateDetails,
  toDisplayNumber,
} from './rate-table.js';

describe('sandbox rate table', () => {
  it('parses decimals exactly and displays ratios without floats in between', () => {
    expect(parseRatio('0.92')).toEqual({ num: 23n, den: 25n });
    expect(parseRatio('1480')).toEqual({ num: 1480n, den: 1n });
    expect(toDisplayNumber({ num: 1n, den: 3n })).toBe(0.3333333333);
    expect(() => parseRatio('1e3')).toThrow();
  });

  it('serves every currency with at least one rail and the rails the spec names', () => {
    for (const code of CURRENCY_CODES) expect(railsFor(code).length).toBeGreaterThan(0);
    const names = new Set(CURRENCY_CODES.flatMap((c) => railsFor(c).map((r) => r.name)));
    for (const rail of ['UPI', 'SEPA_INSTANT', 'SPEI', 'PIX', 'FASTER_PAYMENTS', 'ACH', 'RTP'])
      expect(names.has(rail)).toBe(true);
    expect(networkRail('USD').name).toBe('RTP');
    expect(networkRail('USD', 'ACH').name).toBe('ACH');
    expect(() => networkRail('USD', 'UPI')).toThrow(DomainError);
  });

  it('takes fees off first and rounds the receiving amount down', () => {
    const upi = networkRail('INR', 'UPI');
    const p = priceBySending('USD', 'INR', upi, 10_000n);
    expect(p.fees).toBe(20n);
    // 9980 cents * 83.12 * 0.995 = 825,389.9... paise
    expect(p.receivingAmount).toBe(825_389n);
    expect(p.minSendingAmount).toBe(100n);
    expect(p.maxSendingAmount).toBe(1_200_000n);
    expect(priceBySending('USD', 'INR', upi, 10n).receivingAmount).toBe(0n);
  });

  it('converts fees and limits into the sending currency, rounding fees and minimums up and maximums down', () => {
    const sepa = networkRail('EUR', 'SEPA_INSTANT');
    const fromBtc = priceBySending('BTC', 'EUR', sepa, 1_000_000n);
    // 30 US cents at 0.0000155 BTC per USD = 465 sats; the minimum (1 USD) is 1550 sats.
    expect(fromBtc.fees).toBe(465n);
    expect(fromBtc.minSendingAmount).toBe(1_550n);
    const fromNgn = priceBySending('NGN', 'USD', networkRail('USD', 'RTP'), 100_000n);
    expect(fromNgn.fees).toBe(74_000n);
    expect(fromNgn.maxSendingAmount).toBe(14_800_000_000n);
  });

  it('prices a receiving-locked amount so the receiver gets at least that much', () => {
    for (const [from, to, rail] of [
      ['USD', 'INR', 'UPI'],
      ['EUR', 'MXN', 'SPEI'],
      ['BTC', 'USD', 'RTP'],
      ['USD', 'BTC', 'LIGHTNING'],
      ['GBP', 'NGN', 'NIP'],
    ] as const) {
      for (const wanted of [1n, 7n, 999n, 123_457n]) {
        const p = priceByReceiving(from, to, networkRail(to, rail), wanted);
        expect(p.receivingAmount).toBe(wanted);
        expect(priceBySending(from, to, networkRail(to, rail), p.sendingAmount).receivingAmount >= wanted).toBe(true);
        // One unit less would not be enough (the sending amount is the smallest that works).
        expect(priceBySending(from, to, networkRail(to, rail), p.sendingAmount - 1n).receivingAmount < wanted).toBe(
          true,
        );
      }
    }
  });

  it('converts within one currency at exactly 1 and applies the margin across currencies', () => {
    expect(conversionRate('USD', 'USD')).toEqual({ num: 1n, den: 1n });
    expect(toDisplayNumber(conversionRate('USD', 'EUR'))).toBe(0.9154);
    const internal = priceBySending('USD', 'USD', INTERNAL_RAIL, 5_000n);
    expect(internal).toMatchObject({ fees: 0n, receivingAmount: 5_000n });
    expect(rateDetails(internal)).toEqual({
      counterpartyMultiplier: 1,
      counterpartyFixedFee: 0,
      gridApiMultiplier: 1,
      gridApiFixedFee: 0,
      gridApiVariableFeeRate: 0,
      gridApiVariableFeeAmount: 0,
    });
  });

  it('refuses quotes outside the rail limits or that deliver nothing', () => {
    const rtp = networkRail('USD', 'RTP');
    expect(() => assertQuotable(priceBySending('USD', 'USD', rtp, 99n))).toThrow(
      expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' }),
    );
    expect(() => assertQuotable(priceBySending('USD', 'USD', rtp, 10_000_001n))).toThrow(
      expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' }),
    );
    expect(() => assertQuotable(priceBySending('USD', 'USD', rtp, 10_000n))).not.toThrow();
  });

  it('lists one entry per destination rail', () => {
    const table = exchangeRateTable(['USD'], ['EUR', 'INR'], 10_000n);
    expect(table.map((p) => `${p.destinationCurrency}/${p.rail.name}`)).toEqual([
      'EUR/SEPA_INSTANT',
      'EUR/SEPA',
      'INR/UPI',
      'INR/IMPS',
    ]);
  });
});
