import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { nestsDeeperThan, scanJson, unsafeBodyValues } from './json-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Depth of a parsed value, computed independently of the byte scan. */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

describe('JSON body depth scan', () => {
  it('counts brackets outside strings only, escapes included', () => {
    expect(nestsDeeperThan(bytes('{"a":[1,{"b":2}]}'), 3)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":[1,{"b":2}]}'), 2)).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":"[[[[{{{{\\"[[[["}'), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a\\\\":[[]]}'), 2)).toBe(true);
    expect(nestsDeeperThan(bytes('"€[[["'), 0)).toBe(false);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, max) => {
        expect(nestsDeeperThan(bytes(JSON.stringify(value)), max)).toBe(depthOf(value) > max);
      }),
      { seed: 20251013, numRuns: 300 },
    );
  });
});

describe('JSON repeated keys scan', () => {
  const repeated = (text: string) => scanJson(bytes(text), 32).errors.map((e) => e.field);

  it('names every key given twice in one object, at any depth, escaped spellings included', () => {
    expect(repeated('{"amount":1,"amount":100000}')).toEqual(['amount']);
    expect(repeated('{"a":{"b":[{"c":1},{"c":2,"d":{"e":1,"\\u0065":2}}]},"a":3}')).toEqual(['a.b.1.d.e', 'a']);
    expect(repeated('{"a":"a","b":{"a":1},"c":[{"a":1},{"a":2}],"k\\"":1,"k\\\\":2}')).toEqual([]);
  });

  it('agrees with a parse for any JSON written with or without a repeated key', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.string(), (value, key) => {
        const text = JSON.stringify(value);
        expect(repeated(text)).toEqual([]);
        fc.pre(!Object.hasOwn(value, key));
        const rest = text.length > 2 ? `${text.slice(1, -1)},` : '';
        const twice = `{${JSON.stringify(key)}:1,${rest}${JSON.stringify(key)}:2}`;
        expect(repeated(twice)).toEqual([key]);
      }),
      { seed: 20251013, numRuns: 300 },
    );
  });
});

describe('unsafe body values', () => {
  it('names each prototype key and NUL character by its field path', () => {
    const body = JSON.parse('{"a":{"__proto__":1,"b":["ok","x\\u0000"]},"constructor":2,"c\\u0000":3,"prototype":{}}');
    expect(
      unsafeBodyValues(body)
        .map((e) => `${e.field}:${e.constraint}`)
        .sort(),
    ).toEqual(
      [
        'a.__proto__:forbiddenKey',
        'a.b.1:noNulCharacter',
        'c\u0000:noNulCharacter',
        'constructor:forbiddenKey',
        'prototype:forbiddenKey',
      ].sort(),
    );
  });

  it('names each string and key holding a lone surrogate; pairs are fine', () => {
    const body = JSON.parse('{"email":"\\ud800@example.com","ok":"\\ud83d\\ude00","a":["\\udc00x"],"\\udbff":1}');
    expect(unsafeBodyValues(body).map((e) => `${e.field}:${e.constraint}`)).toEqual(
      expect.arrayContaining(['email:wellFormedUnicode', 'a.0:wellFormedUnicode', 'body:wellFormedUnicode']),
    );
    expect(unsafeBodyValues(body)).toHaveLength(3);
  });

  it('accepts plain objects and refuses any other top level', () => {
    expect(unsafeBodyValues({ a: [1, { b: 'text' }], nested: { constructorName: 'ok' } })).toEqual([]);
    for (const body of [null, [], 'x', 5, true])
      expect(unsafeBodyValues(body)).toEqual([
        { field: 'body', constraint: 'isObject', message: 'the body must be a JSON object' },
      ]);
  });
});
