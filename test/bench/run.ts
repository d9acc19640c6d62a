import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ScenarioReport } from './scenario.js';
import { scenarios } from './scenarios/index.js';

/**
 * Runs the benchmark scenarios in sequence: all of them, or only those named on the command line
 * (`node dist/test/bench/run.js event-append`). `--json FILE` also writes
 * `{ "<scenario>": { "ratio": <service/raw or null>, "figures": {...} } }` to FILE.
 */
async function main(argv: string[]): Promise<number> {
  const jsonAt = argv.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
  if (jsonAt >= 0 && !jsonFile) {
    console.error('--json needs a file name');
    return 2;
  }
  const names = argv.filter((_, i) => jsonAt < 0 || (i !== jsonAt && i !== jsonAt + 1));
  const unknown = names.filter((name) => !scenarios.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const selected = names.length === 0 ? scenarios : scenarios.filter((s) => names.includes(s.name));
  const results: Record<string, Omit<ScenarioReport, 'lines'> & { seconds: number; error?: string }> = {};
  let failed = 0;
  for (const scenario of selected) {
    console.log(`== ${scenario.name}: ${scenario.description}`);
    const started = performance.now();
    try {
      const outcome = await scenario.run();
      const report: ScenarioReport = Array.isArray(outcome) ? { lines: outcome, ratio: null, figures: {} } : outcome;
      for (const line of report.lines) console.log(`   ${line}`);
      const seconds = (performance.now() - started) / 1000;
      console.log(`   (${seconds.toFixed(1)} s)`);
      results[scenario.name] = { ratio: report.ratio, figures: report.figures, seconds: Number(seconds.toFixed(1)) };
    } catch (error) {
      failed += 1;
      console.log(`   FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
      results[scenario.name] = { ratio: null, figures: {}, seconds, error: String(error) };
    }
  }
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(results, null, 2)}\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
