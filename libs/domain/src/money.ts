import { invalid } from './errors.js';

/** Currency object as the API shows it. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

const table: Currency[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2 },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2 },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
];

export const CURRENCIES: ReadonlyMap<string, Currency> = new Map(table.map((c) => [c.code, c]));
export const CURRENCY_CODES: readonly string[] = table.map((c) => c.code);
export const CRYPTO_CURRENCIES: ReadonlySet<string> = new Set(['BTC', 'USDC']);

/**
 * The shape of a currency code at the API's edge: an ISO 4217 code (three capital letters) or a
 * crypto asset code such as USDC. Whether the service moves money in it is `currency()`'s question.
 */
export const CURRENCY_CODE_PATTERN = /^[A-Z]{3,4}$/;
export const CURRENCY_CODE_TEXT = 'an ISO 4217 currency code such as USD (or a crypto code such as USDC)';

export function requireCurrencyCode(code: string, field = 'currency'): string {
  if (!CURRENCY_CODE_PATTERN.test(code))
    throw invalid('INVALID_INPUT', `${field} must be ${CURRENCY_CODE_TEXT}`, field);
  return code;
}

/**
 * A currency the service moves money in. Codes are free strings at the edge (as in the public API); where
 * money moves, one outside the supported set is refused with the public API's 400 `INVALID_CURRENCY`.
 */
export function currency(code: string, field = 'currency'): Currency {
  const c = CURRENCIES.get(code);
  if (!c)
    throw invalid(
      'INVALID_CURRENCY',
      `currency ${code} is not supported (supported: ${CURRENCY_CODES.join(', ')})`,
      field,
    );
  return c;
}

export const isSupportedCurrency = (code: string): boolean => CURRENCIES.has(code);

/**
 * An amount in the smallest unit of `code` as the currency writes it, for messages: `8000n, 'USD'` is `80.00 USD`,
 * `150000000n, 'BTC'` is `1.50000000 BTC`. A code outside the table (no known decimals) states the smallest unit as
 * such: `8000 XYZ (smallest unit)`.
 */
export function formatAmount(amount: bigint, code: string): string {
  const decimals = CURRENCIES.get(code)?.decimals;
  if (decimals === undefined) return `${amount} ${code} (smallest unit)`;
  const sign = amount < 0n ? '-' : '';
  const digits = (amount < 0n ? -amount : amount).toString();
  if (decimals === 0) return `${sign}${digits} ${code}`;
  const padded = digits.padStart(decimals + 1, '0');
  return `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)} ${code}`;
}

/** Largest amount accepted at the JSON edge (2^53 - 1): beyond it a JSON number loses precision. */
export const MAX_JSON_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** Amounts are integers in the smallest unit; bigint inside, decimal strings in events. */
export function toAmount(value: number | string | bigint, field = 'amount'): bigint {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw invalid('INVALID_AMOUNT', `${field} must be an integer no larger than 2^53-1`, field);
    n = BigInt(value);
  } else {
    if (!/^-?\d+$/.test(value)) throw invalid('INVALID_AMOUNT', `${field} must be an integer`, field);
    n = BigInt(value);
  }
  if (n > MAX_JSON_AMOUNT || n < -MAX_JSON_AMOUNT) throw invalid('INVALID_AMOUNT', `${field} is out of range`, field);
  return n;
}

/** A bigint that is known to fit a JSON number, for responses. */
export function toJsonNumber(n: bigint): number {
  if (n > MAX_JSON_AMOUNT || n < -MAX_JSON_AMOUNT) throw new RangeError(`amount ${n} does not fit a JSON number`);
  return Number(n);
}

/**
 * What a reader of recorded amounts states: the JSON number where it fits, and otherwise null with the exact
 * decimal beside it (amounts recorded before every balance was kept within range can be larger).
 */
export function statedAmount(n: bigint): { amount: number | null; exact?: string } {
  return n > MAX_JSON_AMOUNT || n < -MAX_JSON_AMOUNT ? { amount: null, exact: n.toString() } : { amount: Number(n) };
}
