import { describe, expect, it } from '@jest/globals';
import { transferAmount } from './transfer-amount.js';

describe('transfer amounts', () => {
  it('moves the requested amount', () => {
    expect(transferAmount('OUT', 2_000, 5_000n)).toBe(2_000n);
    expect(transferAmount('IN', 500, 0n)).toBe(500n);
  });

  it('sends the whole available balance when a transfer-out leaves the amount out', () => {
    expect(transferAmount('OUT', undefined, 5_000n)).toBe(5_000n);
    expect(() => transferAmount('OUT', undefined, 0n)).toThrow(expect.objectContaining({ code: 'INVALID_AMOUNT' }));
  });

  it('needs the amount of a transfer-in', () => {
    expect(() => transferAmount('IN', undefined, 5_000n)).toThrow(
      expect.objectContaining({
        code: 'INVALID_AMOUNT',
        details: { errors: [expect.objectContaining({ field: 'amount' })] },
      }),
    );
  });
});
