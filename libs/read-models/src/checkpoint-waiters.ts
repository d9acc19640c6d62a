interface Waiter {
  position: bigint;
  /** Only these projections count (default all). */
  names?: string[];
  reached(): void;
}

export interface CheckpointWaitersDeps {
  /** The checkpoints as this process knows them (shared with the runner, which moves them as it commits). */
  checkpoints: Map<string, bigint | undefined>;
  /** Every projection's name. */
  names(): string[];
  /** Whether only the store knows this projection's checkpoint (another process projects it). */
  polled(name: string): boolean;
  readCheckpoint(name: string): Promise<bigint | undefined>;
  pollIntervalMs: number;
  logger: { error(message: string, error?: unknown): void };
}

/**
 * Waiting for read models to pass a position (read-your-writes). Waiters on projections this process
 * projects are released as the runner commits; those on projections another process projects are
 * followed through their stored checkpoints by one shared poller: a tick reads each needed checkpoint
 * once, whatever the number of waiters, and releases every waiter whose own projections are past its position.
 */
export class CheckpointWaiters {
  private readonly waiters = new Set<Waiter>();
  private readonly failureListeners = new Set<(error: unknown) => void>();
  /** The shared checkpoint poller: one pending tick at most, whatever the number of waiters. */
  private pollTimer?: NodeJS.Timeout;
  private polling = false;
  private pollStarted = false;

  constructor(private readonly deps: CheckpointWaitersDeps) {}

  /** Resolves true once the named projections (default all) passed `position`, false after `timeoutMs`. */
  wait(position: bigint, timeoutMs: number, names: string[]): Promise<boolean> {
    if (names.length === 0 || this.reachedBy(names, position)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        names,
        reached: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(true);
        },
      };
      this.waiters.add(waiter);
      this.schedulePoll();
    });
  }

  /** Resolves once the named projections passed `target`; rejects on the first failure reported. */
  reach(target: bigint, names: string[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        this.waiters.delete(waiter);
        this.failureListeners.delete(onFailure);
      };
      const waiter: Waiter = { position: target, names, reached: () => (cleanup(), resolve()) };
      const onFailure = (error: unknown) => (cleanup(), reject(error));
      this.waiters.add(waiter);
      this.failureListeners.add(onFailure);
      this.notify();
    });
  }

  /** A batch failed: whoever waits to reach a position through this runner hears it. */
  failed(error: unknown): void {
    for (const listener of [...this.failureListeners]) listener(error);
  }

  /** Releases the waiters the checkpoints now satisfy. */
  notify(): void {
    const position = this.position;
    for (const waiter of [...this.waiters]) {
      const reached = waiter.names ? this.reachedBy(waiter.names, waiter.position) : position >= waiter.position;
      if (reached) waiter.reached();
    }
  }

  private reachedBy(names: string[], position: bigint): boolean {
    return names.every((name) => (this.deps.checkpoints.get(name) ?? 0n) >= position);
  }

  /** The highest position every projection has processed (0n before any). */
  get position(): bigint {
    let low: bigint | undefined;
    for (const name of this.deps.names()) {
      const c = this.deps.checkpoints.get(name) ?? 0n;
      if (low === undefined || c < low) low = c;
    }
    return low ?? 0n;
  }

  /** Starts the shared poller when a waiter needs a checkpoint another process advances. */
  private schedulePoll(): void {
    if (this.pollTimer || this.polling) return;
    if (!this.polledNames().length) return;
    // The first tick comes at once (a write usually is projected already); later ones every pollIntervalMs.
    this.pollTimer = setTimeout(() => void this.pollTick(), this.pollStarted ? this.deps.pollIntervalMs : 0);
    this.pollStarted = true;
  }

  private polledNames(): string[] {
    const needed = new Set<string>();
    for (const waiter of this.waiters) {
      for (const name of waiter.names ?? this.deps.names()) if (this.deps.polled(name)) needed.add(name);
    }
    return [...needed];
  }

  private async pollTick(): Promise<void> {
    this.pollTimer = undefined;
    this.polling = true;
    try {
      const names = this.polledNames();
      const read = await Promise.all(names.map((name) => this.deps.readCheckpoint(name)));
      names.forEach((name, i) => {
        // Keeps `position` meaningful in a process that only waits (an API without a local projector).
        if (this.deps.polled(name)) this.deps.checkpoints.set(name, read[i]);
      });
      this.notify();
    } catch (error) {
      this.deps.logger.error('reading projection checkpoints failed', error);
    } finally {
      this.polling = false;
    }
    if (this.waiters.size > 0) this.schedulePoll();
    else this.pollStarted = false;
  }
}
