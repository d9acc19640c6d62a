import { describe, expect, it } from '@jest/globals';
import { ImportSlots } from './import-slots.js';

/** Lets promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ImportSlots', () => {
  it('runs at most its bound per process and per platform; the rest wait', async () => {
    const slots = new ImportSlots(2, 1);
    const a1 = slots.tryAcquire('A')!;
    expect(a1).toBeDefined();
    expect(slots.tryAcquire('A')).toBeUndefined();
    const b1 = slots.tryAcquire('B')!;
    expect(b1).toBeDefined();
    expect(slots.tryAcquire('C')).toBeUndefined();

    const granted: string[] = [];
    const a2 = slots.acquire('A').then((release) => (granted.push('A2'), release));
    const c1 = slots.acquire('C').then((release) => (granted.push('C1'), release));
    await settle();
    expect(granted).toEqual([]);

    // B's slot frees: A is still at its bound, so C (which came later) goes first.
    b1();
    await settle();
    expect(granted).toEqual(['C1']);
    a1();
    await settle();
    expect(granted).toEqual(['C1', 'A2']);
    (await c1)();
    (await a2)();
    expect(slots.tryAcquire('A')).toBeDefined();
  });

  it('gives slots to waiting callers in order of arrival; a release counts once', async () => {
    const slots = new ImportSlots(1, 1);
    const first = slots.tryAcquire('A')!;
    const granted: string[] = [];
    const waits = ['B', 'C', 'D'].map((p) => slots.acquire(p).then((release) => (granted.push(p), release)));
    first();
    first();
    await settle();
    expect(granted).toEqual(['B']);
    (await waits[0])();
    await settle();
    expect(granted).toEqual(['B', 'C']);
    (await waits[1])();
    await settle();
    expect(granted).toEqual(['B', 'C', 'D']);
    (await waits[2])();
  });
});
