import { describe, expect, it } from '@jest/globals';
import { TurnMemo } from './turn-memo.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnMemo', () => {
  it('shares an answer among the callers of one turn and computes it again in the next', async () => {
    const memo = new TurnMemo<string, number>();
    let computed = 0;
    const compute = async () => ++computed;
    expect(await Promise.all([memo.get('a', compute), memo.get('a', compute)])).toEqual([1, 1]);
    expect(await memo.get('a', compute)).toBe(1);
    expect(await memo.get('b', compute)).toBe(2);
    await nextTurn();
    expect(await memo.get('a', compute)).toBe(3);
  });

  it('computes again after `forget`, and does not share a failure', async () => {
    const memo = new TurnMemo<string, number>();
    let computed = 0;
    expect(await memo.get('a', async () => ++computed)).toBe(1);
    memo.forget('a');
    expect(await memo.get('a', async () => ++computed)).toBe(2);
    const failed = memo.get('f', () => Promise.reject(new Error('store unavailable')));
    await expect(failed).rejects.toThrow('store unavailable');
    expect(await memo.get('f', async () => 7)).toBe(7);
  });
});
