import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ScenarioReport } from './scenario.js';
import { scenarios } from './scenarios/index.js';

type Result = Omit<ScenarioReport, 'lines'> & { seconds: number; error?: string };

/**
 * Runs one scenario in a child process (this script with that scenario alone), so that no scenario measures in a
 * process that an earlier one left with a large heap, threads or timers; its lines go straight to this output.
 */
async function isolated(name: string): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
  const file = join(dir, 'report.json');
  try {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--json', file, name], {
      stdio: 'inherit',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Result>)[name]!;
    } catch {
      return { ratio: null, figures: {}, seconds: 0, error: `the scenario's process exited with ${code}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the benchmark scenarios in sequence: all of them, or only those named on the command line
 * (`node dist/test/bench/run.js event-append`), each in a process of its own when there are several. `--json FILE`
 * also writes `{ "<scenario>": { "ratio": <service/raw or null>, "figures": {...} } }` to FILE.
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
  const results: Record<string, Result> = {};
  let failed = 0;
  if (selected.length > 1) {
    for (const { name } of selected) {
      results[name] = await isolated(name);
      if (results[name].error) failed += 1;
    }
    if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(results, null, 2)}\n`);
    return failed === 0 ? 0 : 1;
  }
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
