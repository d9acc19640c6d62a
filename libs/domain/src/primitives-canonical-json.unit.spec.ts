import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DomainError } from './errors.js';
import { canonicalJson } from './primitives.js';

/**
 * The canonical form by its definition: a copy with every object's keys in UTF-16 code-unit order and undefined
 * members left out, written by JSON.stringify. Hashes already stored (the event chain, idempotent requests) and
 * signatures already given depend on canonicalJson writing exactly this.
 */
function definition(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((member) => (member === undefined ? null : sorted(member)));
    if (v === null || typeof v !== 'object') return v;
    // Built from entries, as JSON.parse builds objects: a key `__proto__` is then a member, not the prototype.
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((key) => (v as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, sorted((v as Record<string, unknown>)[key])]),
    );
  };
  return JSON.stringify(sorted(value));
}

/** JSON values whose objects may also hold undefined members (left out) and arrays undefined elements (null). */
const withUndefined = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 0, stringUnit: 'binary' }),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('canonicalJson', () => {
  it('keeps array order, escapes strings like JSON and drops undefined members', () => {
    expect(canonicalJson({ b: [3, 1, { z: 1, a: null }], a: 'é"\n', c: undefined, d: true })).toBe(
      '{"a":"é\\"\\n","b":[3,1,{"a":null,"z":1}],"d":true}',
    );
  });

  it('writes a member named __proto__ as any other, as JSON.parse reads it', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":[]},"a":""}'))).toBe(
      '{"__proto__":{"x":[]},"a":"","b":1}',
    );
  });

  it('writes any JSON value as its definition does, keys in any script', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(canonicalJson(value)).toBe(definition(value));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out undefined members and writes undefined array elements as null, as its definition does', () => {
    fc.assert(
      fc.property(
        withUndefined.filter((value) => value !== undefined),
        (value) => {
          expect(canonicalJson(value)).toBe(definition(value));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives one text for objects that differ only in the order of their keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
    );
  });

  it('refuses what JSON cannot carry, at any depth', () => {
    for (const value of [Number.NaN, Infinity, 1n, Symbol('s'), () => 1]) {
      expect(() => canonicalJson(value)).toThrow(DomainError);
      expect(() => canonicalJson({ a: value })).toThrow(DomainError);
      expect(() => canonicalJson({ a: [{ b: value }] })).toThrow(DomainError);
    }
    expect(() => canonicalJson(undefined)).toThrow(DomainError);
  });
});
