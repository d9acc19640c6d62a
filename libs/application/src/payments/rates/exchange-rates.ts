import { invalid } from '#domain/errors.js';
import { currency, CURRENCY_CODES, isSupportedCurrency, MAX_JSON_AMOUNT, toJsonNumber } from '#domain/primitives.js';
import { exchangeRateTable, toDisplayNumber } from '#domain/payments/rates/rate-table.js';

export interface ExchangeRateQuery {
  sourceCurrency?: string;
  destinationCurrency?: string[];
  sendingAmount: bigint;
}

/**
 * GET /exchange-rates: one entry per corridor and destination rail from the sandbox rate table.
 * The table is fixed, so `updatedAt` is the current minute (when the figures were last confirmed).
 */
export function listExchangeRates(query: ExchangeRateQuery, now: Date): Record<string, unknown>[] {
  // Codes are free strings (as in the public API): one the service does not trade in has no rates.
  const sources = query.sourceCurrency ? [query.sourceCurrency].filter(isSupportedCurrency) : CURRENCY_CODES;
  const destinations = query.destinationCurrency?.length
    ? [...new Set(query.destinationCurrency.filter(isSupportedCurrency))]
    : CURRENCY_CODES;
  const updatedAt = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
  const table = exchangeRateTable(sources, destinations, query.sendingAmount);
  if (table.some((p) => p.receivingAmount > MAX_JSON_AMOUNT)) {
    throw invalid(
      'AMOUNT_OUT_OF_RANGE',
      'sendingAmount converts to more than 2^53-1 in a destination currency',
      'sendingAmount',
    );
  }
  return table.map((p) => ({
    sourceCurrency: currency(p.sourceCurrency),
    sendingAmount: toJsonNumber(p.sendingAmount),
    minSendingAmount: toJsonNumber(p.minSendingAmount),
    maxSendingAmount: toJsonNumber(p.maxSendingAmount),
    destinationCurrency: currency(p.destinationCurrency),
    destinationPaymentRail: p.rail.name,
    receivingAmount: toJsonNumber(p.receivingAmount),
    exchangeRate: toDisplayNumber(p.rate),
    fees: { fixed: toJsonNumber(p.fees) },
    updatedAt,
  }));
}
