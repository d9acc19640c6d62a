import { invalid } from './errors.js';

/**
 * JSON with object keys sorted (by UTF-16 code units), undefined members left out and no whitespace: the one
 * canonical form for what is signed (wallet payloads), hashed (idempotent requests, the event hash chain) and
 * compared (audit digests).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid('INVALID_INPUT', 'numbers in a signed or hashed payload must be finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw invalid('INVALID_INPUT', `a ${typeof value} cannot be part of a signed or hashed payload`);
}
