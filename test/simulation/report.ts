import type { SimulationResult } from './simulation.js';

/** A run as people read it: its seed, steps, trace hash and, for a failure, what broke and the events around it. */
export function describeRun(result: SimulationResult): string {
  const { seed, steps, hash, stats, failure } = result;
  const lines = [`seed ${seed}: ${steps} steps, ${stats.events} events, ${stats.restarts} restarts, trace ${hash}`];
  if (failure) {
    lines.push(`INVARIANT BROKEN at step ${failure.step}: ${failure.invariant}`, `  ${failure.message}`);
    if (failure.lastEvents.length > 0) lines.push('  last events of the streams involved:');
    for (const event of failure.lastEvents) lines.push(`    ${event.slice(0, 400)}`);
    lines.push('  last lines of the trace:');
    for (const line of failure.lastTrace) lines.push(`    ${line.slice(0, 200)}`);
  }
  return lines.join('\n');
}
