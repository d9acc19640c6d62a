import { performance } from 'node:perf_hooks';
import { scenarios } from './scenarios/index.js';

/**
 * Runs the benchmark scenarios in sequence: all of them, or only those named on the command line
 * (`node dist/test/bench/run.js event-append`).
 */
async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((name) => !scenarios.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const selected = argv.length === 0 ? scenarios : scenarios.filter((s) => argv.includes(s.name));
  let failed = 0;
  for (const scenario of selected) {
    console.log(`== ${scenario.name}: ${scenario.description}`);
    const started = performance.now();
    try {
      for (const line of await scenario.run()) console.log(`   ${line}`);
      console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed += 1;
      console.log(`   FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
