import { simulate, type SimulationOptions, type SimulationResult } from './simulation.js';

/**
 * The shortest run of the same seed that still breaks the same invariant: a binary search over the step count (a
 * run of fewer steps is a prefix of the longer one, then its ending). Answers the failing result it found, or
 * undefined when the full run does not fail.
 */
export async function shrink(options: SimulationOptions): Promise<SimulationResult | undefined> {
  const full = await simulate(options);
  if (!full.failure) return undefined;
  const invariant = full.failure.invariant;
  let best = full;
  let low = 0;
  let high = Math.min(options.steps, full.failure.step);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const attempt = await simulate({ ...options, steps: middle });
    if (attempt.failure?.invariant === invariant) {
      best = attempt;
      high = middle;
    } else {
      low = middle;
    }
  }
  return best;
}
