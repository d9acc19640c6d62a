/** Time and identity are injected everywhere so that tests and the sandbox can control them. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: used by tests and by the sandbox clock. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | number = Date.UTC(2025, 9, 13)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
  set(at: Date): void {
    this.current = at.getTime();
  }
}

/**
 * Real time plus an offset that only grows: a base clock that benchmarks and tests can move
 * ahead for every platform at once (each platform's own sandbox offset comes on top).
 */
export class OffsetClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly base: Clock = systemClock) {}
  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }
  advance(ms: number): Date {
    if (ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
    return this.now();
  }
  get offset(): number {
    return this.offsetMs;
  }
}
