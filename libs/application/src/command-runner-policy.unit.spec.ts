import { describe, expect, it } from '@jest/globals';
import { KeyedLock } from './command-runner-policy.js';

/** A promise resolved from outside, to hold work open while the test looks. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('KeyedLock', () => {
  it('runs work of one key in call order, one at a time, and other keys alongside', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const first = gate();
    const a1 = lock.run('a', async () => {
      log.push('a1 start');
      await first.opened;
      log.push('a1 end');
    });
    const a2 = lock.run('a', async () => void log.push('a2'));
    const b1 = lock.run('b', async () => void log.push('b1'));
    await b1;
    expect(log).toEqual(['a1 start', 'b1']);
    first.open();
    await Promise.all([a1, a2]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
    expect(lock.size).toBe(0);
  });

  it('passes a failure to its caller without blocking the work queued behind it', async () => {
    const lock = new KeyedLock();
    const failed = lock.run('a', async () => {
      throw new Error('boom');
    });
    const next = lock.run('a', async () => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
    expect(lock.size).toBe(0);
  });
});
