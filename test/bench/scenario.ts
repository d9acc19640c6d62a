/** What a scenario measured: lines to print, and the figures `--json` writes. */
export interface ScenarioReport {
  lines: string[];
  /** The service's figure over the raw reference's in the same run (higher is better), or null without one. */
  ratio: number | null;
  /** Named measurements: rates per second, latencies in ms, sizes in MB. */
  figures: Record<string, number | string>;
}

/** One benchmark: `run` performs the measurement and returns its report (or, for older scenarios, only lines). */
export interface Scenario {
  name: string;
  description: string;
  run(): Promise<ScenarioReport | string[]>;
}

/** A number rounded to `digits` decimals, for figures. */
export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));
