import { describe, expect, it } from '@jest/globals';
import {
  fullCollection,
  idleCollectionStep,
  initialIdleCollection,
  QUIET_UTILIZATION,
  type IdleCollectionState,
  type LoopSample,
} from './idle-collection.js';

const quiet = (elapsedMs = 1000): LoopSample => ({ elapsedMs, utilization: 0.01 });
const busy = (elapsedMs = 1000): LoopSample => ({ elapsedMs, utilization: 0.6 });

/** Feeds the samples in order and returns the indexes of those after which a collection ran. */
function collections(samples: LoopSample[], afterMs = 3000, start: IdleCollectionState = initialIdleCollection) {
  let state = start;
  const at: number[] = [];
  samples.forEach((sample, i) => {
    const step = idleCollectionStep(state, sample, afterMs);
    state = step.state;
    if (step.collect) at.push(i);
  });
  return at;
}

describe('idle collection', () => {
  it('collects once the loop has been quiet for the whole delay after start-up, then not again while quiet', () => {
    expect(collections([quiet(), quiet(), quiet(), quiet(), quiet(), quiet()])).toEqual([2]);
  });

  it('starts counting again after every busy interval', () => {
    expect(collections([busy(), quiet(), quiet(), busy(), quiet(), quiet(), quiet(), quiet()])).toEqual([6]);
  });

  it('collects again after each busy spell followed by quiet', () => {
    const spell = [busy(), busy(), quiet(), quiet(), quiet()];
    expect(collections([...spell, quiet(), ...spell])).toEqual([4, 10]);
  });

  it('counts the intervals by their length, not their number', () => {
    expect(collections([busy(), quiet(1500), quiet(1400), quiet(200)])).toEqual([3]);
  });

  it('treats the threshold itself as busy', () => {
    const atThreshold = { elapsedMs: 1000, utilization: QUIET_UTILIZATION };
    const justUnder = { elapsedMs: 1000, utilization: QUIET_UTILIZATION - 0.001 };
    expect(collections([justUnder, atThreshold, justUnder, justUnder, justUnder])).toEqual([4]);
  });

  it('never collects a process that stays busy', () => {
    expect(collections(Array.from({ length: 20 }, () => busy()))).toEqual([]);
  });

  it('the exposed collection frees what nothing references', async () => {
    const gc = fullCollection();
    const ref = new WeakRef(Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` })));
    // A WeakRef keeps its target until the job that created it ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(ref.deref()).toBeUndefined();
  });
});
