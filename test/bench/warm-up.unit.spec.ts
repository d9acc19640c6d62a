import { describe, expect, it } from '@jest/globals';
import { warmUntilSteady, warmupText, type BenchProcess, type CpuTimes, type Measured } from './bench-process.js';

/**
 * A server whose CPU time grows by the next of `perOp` (µs per operation) times the window's operations in each
 * measured window, and by `readying` µs whenever a window is readied.
 */
function scripted(perOp: number[], readying = 0) {
  let total = 0;
  let windows = 0;
  const ops = 100;
  const server = {
    cpu: async (): Promise<CpuTimes> => ({ total, kernel: 0, mainThread: null }),
  } as unknown as BenchProcess<unknown>;
  const window = async (): Promise<Measured> => {
    total += (perOp[windows] ?? perOp[perOp.length - 1]!) * ops;
    windows += 1;
    return { ops, seconds: 1, latencies: [] };
  };
  const ready = async () => {
    total += readying;
  };
  return { server, window, ready, windows: () => windows };
}

describe('warmUntilSteady', () => {
  it('drives windows until the last three are within 10% of the largest of them', async () => {
    const { server, window, windows } = scripted([8_000, 6_000, 5_000, 4_800, 4_600, 4_550]);

    expect(await warmUntilSteady(server, window)).toEqual([8_000, 6_000, 5_000, 4_800, 4_600]);
    expect(windows()).toBe(5);
  });

  it('goes on while the figure still falls, though two windows in a row agree', async () => {
    const { server, window } = scripted([10_000, 8_000, 6_600, 5_800, 5_700, 4_000, 3_900, 3_900]);

    expect(await warmUntilSteady(server, window)).toEqual([10_000, 8_000, 6_600, 5_800, 5_700, 4_000, 3_900, 3_900]);
  });

  it('drives at least three windows, even when the first two agree', async () => {
    const { server, window } = scripted([5_000, 5_000, 5_000, 5_000]);

    expect(await warmUntilSteady(server, window)).toEqual([5_000, 5_000, 5_000]);
  });

  it('stops after ten windows when the figure never settles', async () => {
    const { server, window, windows } = scripted(Array.from({ length: 12 }, (_, i) => (i % 2 ? 2_000 : 1_000)));

    expect(await warmUntilSteady(server, window)).toHaveLength(10);
    expect(windows()).toBe(10);
  });

  it('readies each window before it and leaves that time out of its figure', async () => {
    const { server, window, ready } = scripted([3_000, 2_000, 2_000, 2_000], 1_000_000);

    expect(await warmUntilSteady(server, window, ready)).toEqual([3_000, 2_000, 2_000, 2_000]);
  });

  it('writes the figures window by window', () => {
    expect(warmupText([6_669, 4_980, 4_286])).toBe('6,669 → 4,980 → 4,286 µs');
  });
});
