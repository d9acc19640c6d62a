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

/** A count for a table: rounded, with thousands separators. */
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The `p` quantile (0 to 1) of ascending `sorted` values. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** The body of an answer with the expected status; otherwise an error naming `what` and the answer. */
export async function expectStatus(reply: Promise<{ status: number; body: any }>, status: number, what: string) {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}
