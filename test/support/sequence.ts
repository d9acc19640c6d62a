/**
 * Deterministic unique values for tests: a counter per name prefix within one test file's module
 * (each file starts its own service, so values only need to be unique inside it).
 */
const counters = new Map<string, number>();

export function uniqueValue(prefix: string): string {
  const next = (counters.get(prefix) ?? 0) + 1;
  counters.set(prefix, next);
  return `${prefix}-${next}`;
}

/** `length` decimal digits, unique per prefix (account numbers and the like). */
export function uniqueDigits(prefix: string, length: number): string {
  const next = (counters.get(`#${prefix}`) ?? 0) + 1;
  counters.set(`#${prefix}`, next);
  return String(next).padStart(length, '0');
}
