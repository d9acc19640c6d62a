/** One benchmark: `run` performs the measurement and returns the lines to print. */
export interface Scenario {
  name: string;
  description: string;
  run(): Promise<string[]>;
}
