import { describe, expect, it } from '@jest/globals';
import { generatedPlatformCardId, sandboxIssuerRejects } from './card-issuer.js';

describe('generated platform card ids', () => {
  it('are never the sandbox issuer rejection value: one that would end in 002 is drawn again', () => {
    const drawn = ['00000000-0000-0000-0002-000000000000', '00000000-0000-0000-0003-000000000000'];
    const uuid = () => drawn.shift()!;
    expect(sandboxIssuerRejects('card_00000000000000000002')).toBe(true);
    expect(generatedPlatformCardId(uuid)).toBe('card_00000000000000000003');
    expect(drawn).toEqual([]);
  });

  it('take 20 hex digits of one fresh id otherwise', () => {
    expect(generatedPlatformCardId(() => '0123abcd-4567-89ef-0123-456789abcdef')).toBe('card_0123abcd456789ef0123');
  });
});
