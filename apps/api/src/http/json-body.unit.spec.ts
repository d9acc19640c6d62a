import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { nestsDeeperThan, unsafeBodyValues } from './json-body.js';

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

  it('accepts plain objects and refuses any other top level', () => {
    expect(unsafeBodyValues({ a: [1, { b: 'text' }], nested: { constructorName: 'ok' } })).toEqual([]);
    for (const body of [null, [], 'x', 5, true])
      expect(unsafeBodyValues(body)).toEqual([
        { field: 'body', constraint: 'isObject', message: 'the body must be a JSON object' },
      ]);
  });
});
