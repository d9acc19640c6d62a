import { performance } from 'node:perf_hooks';
import { plantedFaults, type PlantedFault } from '#domain/planted-faults.js';
import { describeRun } from './report.js';
import { shrink } from './shrink.js';
import { simulate } from './simulation.js';

/**
 * `npm run simulate -- --seed S --steps N [--seeds K] [--shrink] [--plant FAULT]`: runs the simulation of seeds S to
 * S+K-1 and prints each run's trace hash; a broken invariant prints its report (shrunk to the fewest steps with
 * `--shrink`) and exits with 1. `--plant` switches a planted fault on (libs/domain/src/planted-faults.ts).
 */
function option(name: string, fallback?: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function main(): Promise<number> {
  const seed = Number(option('seed', '1'));
  const steps = Number(option('steps', '2000'));
  const seeds = Number(option('seeds', '1'));
  const plant = option('plant');
  if (plant) {
    if (!(plant in plantedFaults))
      throw new Error(`no planted fault ${plant}: ${Object.keys(plantedFaults).join(', ')}`);
    plantedFaults[plant as PlantedFault] = true;
  }
  const started = performance.now();
  for (let s = seed; s < seed + seeds; s++) {
    const result = await simulate({ seed: s, steps });
    console.log(describeRun(result));
    if (result.failure) {
      if (process.argv.includes('--shrink')) {
        const shortest = await shrink({ seed: s, steps });
        if (shortest) console.log(`shrunk to ${shortest.steps} steps:\n${describeRun(shortest)}`);
      }
      return 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${seeds} seeds, ${seeds * steps} steps in ${seconds.toFixed(1)} s ` +
      `(${Math.round((seeds * steps) / seconds)} steps/s)`,
  );
  return 0;
}

process.exitCode = await main();
