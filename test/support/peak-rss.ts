import { readFileSync } from 'node:fs';

/** The highest resident set size of a process seen while sampling its /proc status every 10 ms. */
export class PeakRss {
  peak = 0;
  private timer?: NodeJS.Timeout;
  constructor(private readonly pid: number) {}

  now(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  }

  start(): this {
    this.timer = setInterval(() => (this.peak = Math.max(this.peak, this.now())), 10);
    return this;
  }

  stop(): void {
    this.peak = Math.max(this.peak, this.now());
    clearInterval(this.timer);
  }
}
