/** OpenAPI prose of the rates routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of exchange-rates.controller.ts, by handler. */
export const EXCHANGE_RATES_TEXT = {
  list:
    'The sandbox rate table: one entry per corridor and destination rail. Fees are fixed per rail ' +
    'and charged in the source currency; the rest converts at the rate ' +
    '(receiving units per sending unit after a 0.5% margin on cross-currency corridors) and the ' +
    'receiving amount is rounded down. sendingAmount defaults to 10000.',
};
