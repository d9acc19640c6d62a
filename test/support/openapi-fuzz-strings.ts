import fc from 'fast-check';
import type { Schema } from './openapi-fuzz.js';

/** Strings and query values of the OpenAPI fuzzer (openapi-fuzz.ts) that need some care to send. */

/** Strings that are not well-formed UTF-16: a lone high surrogate, a lone low one, a pair in the wrong order. */
export const LONE_SURROGATES = ['\ud800', '\udfff', '\ude00\ud83d'];

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is written as its WTF-8 bytes (`%ED%A0%80`),
 * as a client that does not check its strings sends it.
 */
export function encodeComponent(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(value[i]);
    }
  }
  return out;
}

/** Query values the parameter refuses (each list is the parameter's values in one query string). */
export function badQueryValue(name: string, s: Schema): fc.Arbitrary<string[]> {
  const oneOf = (...values: string[]) => fc.constantFrom(...values).map((v): string[] => [v]);
  const repeated = fc.constant<string[]>(['1', '2']);
  if (name === 'cursor')
    return fc.oneof(
      oneOf('!not-a-cursor', 'eyJub3QiOiJhIGN1cnNvciJ9', '%', ...LONE_SURROGATES),
      fc.constant<string[]>(['a'.repeat((s.maxLength ?? 512) + 1)]),
    );
  if (s.type === 'array') return oneOf('UNKNOWN_VALUE', 'usd', ...LONE_SURROGATES);
  const choices: fc.Arbitrary<string[]>[] = [repeated];
  // sent as WTF-8 bytes (encodeComponent): a value any check of its form refuses
  if (s.enum || s.pattern || s.oneOf || s.format || s.type === 'integer' || s.type === 'boolean')
    choices.push(oneOf(...LONE_SURROGATES, `1${LONE_SURROGATES[1]}`));
  if (s.enum) {
    const known = String(s.enum[0]);
    choices.push(oneOf('UNKNOWN_VALUE', known === known.toLowerCase() ? known.toUpperCase() : known.toLowerCase()));
  }
  if (s.pattern) choices.push(oneOf('!not-a-match', 'Customer:xyz'));
  if (s.oneOf) choices.push(oneOf('yesterday', '2026-13-45', '12/31/2025'));
  if (s.type === 'integer')
    choices.push(oneOf('abc', '1.5', 'Infinity', String((s.minimum ?? 0) - 1), String((s.maximum ?? 1e15) + 1)));
  if (s.type === 'boolean') choices.push(oneOf('maybe', 'yes', 'TRUE'));
  if (s.maxLength !== undefined)
    choices.push(fc.integer({ min: 1, max: 100 }).map((n) => ['a'.repeat(s.maxLength! + n)]));
  return fc.oneof(...choices);
}
