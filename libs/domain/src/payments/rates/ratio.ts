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
