import { DomainError, invalid } from '../../errors.js';
import { CURRENCIES, CURRENCY_CODES, MAX_JSON_AMOUNT, currency, formatAmount } from '../../primitives.js';

/**
 * Exact non-negative rationals over bigint, for exchange rates. Money never passes through a
 * float: amounts are scaled by rates as `amount * num / den` with an explicit rounding direction.
 */
export interface Ratio {
  num: bigint;
  den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(num: bigint, den: bigint): Ratio {
  if (den === 0n) throw new RangeError('zero denominator');
  const g = gcd(num < 0n ? -num : num, den);
  return { num: num / g, den: den / g };
}

/** Parses a plain decimal string such as `0.92` or `1480`. */
export function parseRatio(decimal: string): Ratio {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) throw new RangeError(`not a decimal: ${decimal}`);
  const fraction = match[2] ?? '';
  return reduce(BigInt(match[1] + fraction), 10n ** BigInt(fraction.length));
}

export const ONE: Ratio = { num: 1n, den: 1n };

export function multiply(a: Ratio, b: Ratio): Ratio {
  return reduce(a.num * b.num, a.den * b.den);
}

export function divide(a: Ratio, b: Ratio): Ratio {
  if (b.num === 0n) throw new RangeError('division by zero');
  return reduce(a.num * b.den, a.den * b.num);
}

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** floor(x / y) for x >= 0, y > 0. */
export const divFloor = (x: bigint, y: bigint): bigint => x / y;

/** ceil(x / y) for x >= 0, y > 0. */
export const divCeil = (x: bigint, y: bigint): bigint => (x + y - 1n) / y;

/** `amount * r`, rounded down. */
export const scaleDown = (amount: bigint, r: Ratio): bigint => divFloor(amount * r.num, r.den);

/** `amount * r`, rounded up. */
export const scaleUp = (amount: bigint, r: Ratio): bigint => divCeil(amount * r.num, r.den);

/** A display value (never used for money): the ratio as a JSON number with 10 decimals at most. */
export function toDisplayNumber(r: Ratio, decimals = 10): number {
  const scaled = (r.num * pow10(decimals) + r.den / 2n) / r.den;
  const s = scaled.toString().padStart(decimals + 1, '0');
  return Number(`${s.slice(0, -decimals)}.${s.slice(-decimals)}`);
}

/**
 * The sandbox rate table: fixed mid-market rates against USD, a margin on cross-currency
 * conversions, and per-rail fixed fees and sending limits (defined in US cents and converted into
 * the sending currency). Fixed values make every quote reproducible.
 *
 * Rounding, always explicit: receiving amounts round down, fees and minimum sending amounts round
 * up, maximum sending amounts round down. A receiving-locked quote rounds the sending amount up so
 * the receiver gets at least the locked amount; the locked amount is what is credited.
 */

/** Units of each currency per 1 USD. */
const UNITS_PER_USD: Record<string, string> = {
  USD: '1',
  EUR: '0.92',
  MXN: '17.05',
  GBP: '0.79',
  INR: '83.12',
  BRL: '5.02',
  AED: '3.6725',
  PHP: '56.3',
  NGN: '1480',
  CAD: '1.36',
  BTC: '0.0000155',
  USDC: '1',
};

/** Margin on conversions between different currencies, in basis points. */
export const CROSS_CURRENCY_MARGIN_BPS = 50n;

export interface Rail {
  name: string;
  currencies: readonly string[];
  instant: boolean;
  /** Fixed fee in US cents, charged in the sending currency. */
  fixedFeeUsdCents: bigint;
  minUsdCents: bigint;
  maxUsdCents: bigint;
  /** How long a quote's rate stays locked on this rail. */
  quoteWindowSeconds: number;
}

const rail = (
  name: string,
  currencies: readonly string[],
  instant: boolean,
  fee: number,
  min: number,
  max: number,
  window?: number,
): Rail => ({
  name,
  currencies,
  instant,
  fixedFeeUsdCents: BigInt(fee),
  minUsdCents: BigInt(min),
  maxUsdCents: BigInt(max),
  quoteWindowSeconds: window ?? (instant ? 300 : 900),
});

/** Rails to external networks, as GET /exchange-rates lists them. */
export const NETWORK_RAILS: readonly Rail[] = [
  rail('RTP', ['USD'], true, 50, 100, 10_000_000),
  rail('ACH', ['USD'], false, 25, 100, 100_000_000),
  rail('WIRE', ['USD'], false, 1500, 10_000, 1_000_000_000),
  rail('SEPA_INSTANT', ['EUR'], true, 30, 100, 10_000_000),
  rail('SEPA', ['EUR'], false, 20, 100, 100_000_000),
  rail('SPEI', ['MXN'], true, 40, 100, 100_000_000),
  rail('FASTER_PAYMENTS', ['GBP'], true, 30, 100, 100_000_000),
  rail('UPI', ['INR'], true, 20, 100, 1_200_000),
  rail('IMPS', ['INR'], true, 30, 100, 5_000_000),
  rail('PIX', ['BRL'], true, 20, 100, 100_000_000),
  rail('UAEFTS', ['AED'], false, 100, 1_000, 100_000_000),
  rail('INSTAPAY', ['PHP'], true, 30, 100, 1_000_000),
  rail('PESONET', ['PHP'], false, 20, 100, 100_000_000),
  rail('NIP', ['NGN'], true, 50, 100, 10_000_000),
  rail('INTERAC', ['CAD'], true, 50, 100, 2_500_000),
  rail('EFT', ['CAD'], false, 25, 100, 100_000_000),
  rail('LIGHTNING', ['BTC'], true, 1, 1, 10_000_000, 120),
  rail('SPARK', ['BTC'], true, 0, 1, 10_000_000, 120),
  rail('SOLANA', ['USDC'], true, 5, 100, 100_000_000, 120),
  rail('BASE', ['USDC'], true, 5, 100, 100_000_000, 120),
];

/** Book transfer between two internal accounts of one platform. */
export const INTERNAL_RAIL: Rail = rail('INTERNAL', CURRENCY_CODES, true, 0, 0, 1_000_000_000_000);
/** Payment to a UMA address (settled over Lightning by the receiving institution). */
export const UMA_RAIL: Rail = rail('UMA', CURRENCY_CODES, true, 10, 1, 10_000_000);

const ALL_RAILS = [...NETWORK_RAILS, INTERNAL_RAIL, UMA_RAIL];

export function railsFor(code: string): Rail[] {
  return NETWORK_RAILS.filter((r) => r.currencies.includes(code));
}

/** The rail named for a destination currency; without a name the first instant rail (else the first). */
export function networkRail(code: string, name?: string): Rail {
  currency(code); // an account held in a currency the service does not trade in: 400 INVALID_CURRENCY
  const rails = railsFor(code);
  if (name !== undefined) {
    const found = rails.find((r) => r.name === name);
    if (!found) {
      throw invalid(
        'UNSUPPORTED_PAYMENT_RAIL',
        `payment rail ${name} does not serve ${code}; use one of ${rails.map((r) => r.name).join(', ')}`,
        'paymentRail',
      );
    }
    return found;
  }
  const chosen = rails.find((r) => r.instant) ?? rails[0];
  if (!chosen) throw invalid('UNSUPPORTED_CURRENCY', `no payment rail serves ${code}`, 'currency');
  return chosen;
}

export function railByName(name: string): Rail | undefined {
  return ALL_RAILS.find((r) => r.name === name);
}

function unitsPerUsd(code: string): Ratio {
  currency(code);
  return parseRatio(UNITS_PER_USD[code]);
}

/** Minor units of `code` per US cent (exact). */
function minorPerCent(code: string): Ratio {
  return multiply(unitsPerUsd(code), { num: pow10(CURRENCIES.get(code)!.decimals), den: 100n });
}

/** Receiving major units per sending major unit, after the margin. */
export function conversionRate(source: string, destination: string): Ratio {
  if (source === destination) return ONE;
  const mid = divide(unitsPerUsd(destination), unitsPerUsd(source));
  return multiply(mid, { num: 10_000n - CROSS_CURRENCY_MARGIN_BPS, den: 10_000n });
}

/** Receiving minor units per sending minor unit, after the margin. */
function minorRate(source: string, destination: string): Ratio {
  const decimals = (code: string) => pow10(CURRENCIES.get(code)!.decimals);
  return multiply(conversionRate(source, destination), { num: decimals(destination), den: decimals(source) });
}

export interface Pricing {
  sourceCurrency: string;
  destinationCurrency: string;
  rail: Rail;
  sendingAmount: bigint;
  receivingAmount: bigint;
  /** In the sending currency's smallest unit. */
  fees: bigint;
  /** The fees expressed in the receiving currency (rounded down). */
  feesInReceivingCurrency: bigint;
  rate: Ratio;
  minSendingAmount: bigint;
  maxSendingAmount: bigint;
}

function limits(source: string, r: Rail) {
  const perCent = minorPerCent(source);
  const fee = scaleUp(r.fixedFeeUsdCents, perCent);
  const min = scaleUp(r.minUsdCents, perCent);
  return { fee, min: min > fee ? min : fee + 1n, max: scaleDown(r.maxUsdCents, perCent) };
}

function priced(source: string, destination: string, r: Rail, sending: bigint, receiving: bigint): Pricing {
  const { fee, min, max } = limits(source, r);
  return {
    sourceCurrency: source,
    destinationCurrency: destination,
    rail: r,
    sendingAmount: sending,
    receivingAmount: receiving,
    fees: fee,
    feesInReceivingCurrency: scaleDown(fee, minorRate(source, destination)),
    rate: conversionRate(source, destination),
    minSendingAmount: min,
    maxSendingAmount: max,
  };
}

/** What `sendingAmount` buys: fees come off first, the rest converts, rounded down (never below zero). */
export function priceBySending(source: string, destination: string, r: Rail, sendingAmount: bigint): Pricing {
  const { fee } = limits(source, r);
  const net = sendingAmount > fee ? sendingAmount - fee : 0n;
  return priced(source, destination, r, sendingAmount, scaleDown(net, minorRate(source, destination)));
}

/** The smallest sending amount that delivers `receivingAmount` (the net amount rounds up). */
export function priceByReceiving(source: string, destination: string, r: Rail, receivingAmount: bigint): Pricing {
  const { fee } = limits(source, r);
  const rate = minorRate(source, destination);
  const net = divCeil(receivingAmount * rate.den, rate.num);
  return priced(source, destination, r, net + fee, receivingAmount);
}

const outOfRange = (message: string) =>
  new DomainError('invalid', 'AMOUNT_OUT_OF_RANGE', message, {
    errors: [{ field: 'lockedCurrencyAmount', constraint: 'AMOUNT_OUT_OF_RANGE', message }],
  });

/** A quote may only be priced within the rail's limits and must deliver something. */
export function assertQuotable(p: Pricing): void {
  const written = (n: bigint) => formatAmount(n, p.sourceCurrency);
  const sending = `the sending amount ${written(p.sendingAmount)}`;
  if (p.sendingAmount < p.minSendingAmount)
    throw outOfRange(`${sending} is below the minimum ${written(p.minSendingAmount)} for ${p.rail.name}`);
  if (p.sendingAmount > p.maxSendingAmount)
    throw outOfRange(`${sending} is above the maximum ${written(p.maxSendingAmount)} for ${p.rail.name}`);
  if (p.receivingAmount <= 0n) throw outOfRange('the amount does not cover the fees');
  if (p.receivingAmount > MAX_JSON_AMOUNT) throw outOfRange('the receiving amount is too large');
}

/** The rate and fee breakdown of the API (`counterparty*` describe the receiving institution: none in the sandbox). */
export function rateDetails(p: Pricing) {
  return {
    counterpartyMultiplier: 1,
    counterpartyFixedFee: 0,
    gridApiMultiplier: toDisplayNumber(p.rate),
    gridApiFixedFee: Number(p.fees),
    gridApiVariableFeeRate: 0,
    gridApiVariableFeeAmount: 0,
  };
}

export type RateDetails = ReturnType<typeof rateDetails>;

/** The exchange-rate table for the given corridors, one entry per destination rail. */
export function exchangeRateTable(
  sources: readonly string[],
  destinations: readonly string[],
  sendingAmount: bigint,
): Pricing[] {
  const out: Pricing[] = [];
  for (const source of sources) {
    for (const destination of destinations) {
      for (const r of railsFor(destination)) out.push(priceBySending(source, destination, r, sendingAmount));
    }
  }
  return out;
}

export const SUPPORTED_RATE_CURRENCIES: readonly string[] = CURRENCY_CODES;
