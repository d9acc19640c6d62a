import { describe, expect, it } from '@jest/globals';
import { isPublicId, publicId, uuidOf } from './primitives.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('public ids', () => {
  it('accepts exactly `<Kind>:<uuid>` of the kind asked, every time it is asked', () => {
    const id = publicId('InternalAccount', UUID);
    // the kind's pattern is kept between calls: repeated and interleaved checks answer alike
    for (let i = 0; i < 3; i++) {
      expect(isPublicId('InternalAccount', id)).toBe(true);
      expect(isPublicId('Card', id)).toBe(false);
      expect(isPublicId('Card', publicId('Card', UUID))).toBe(true);
    }
    expect(isPublicId('InternalAccount', `${id} `)).toBe(false);
    expect(isPublicId('InternalAccount', `x${id}`)).toBe(false);
    expect(isPublicId('InternalAccount', id.toUpperCase())).toBe(false);
    expect(isPublicId('InternalAccount', undefined)).toBe(false);
    expect(isPublicId('InternalAccount', 42)).toBe(false);
  });

  it('gives the uuid of an id of the kind, and nothing for another kind', () => {
    expect(uuidOf('Quote', `Quote:${UUID}`)).toBe(UUID);
    expect(uuidOf('Quote', `Transaction:${UUID}`)).toBeUndefined();
  });
});
