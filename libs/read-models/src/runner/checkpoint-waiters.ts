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
  /** The store's `commitVersion`, when it has one: checkpoints are read again only once it changed. */
  commitVersion?: () => number;
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
  /**
   * Waiters grouped by the projections they wait for (few distinct sets), each group ordered by position: a commit
   * releases a group's waiters from its front, without looking at the ones still behind.
   */
  private readonly groups = new Map<string, { names?: string[]; waiters: Waiter[] }>();
  private readonly failureListeners = new Set<(error: unknown) => void>();
  /** The shared checkpoint poller: one pending tick at most, whatever the number of waiters. */
  private pollTimer?: NodeJS.Timeout;
  private polling = false;
  private pollStarted = false;
  /** The store's commit version when the polled checkpoints were last read (undefined: read at the next tick). */
  private readAt: number | undefined;
  /** The polled projections whose checkpoints were read at `readAt`. */
  private readonly read = new Set<string>();

  constructor(private readonly deps: CheckpointWaitersDeps) {}

  /** Resolves true once the named projections (default all) passed `position`, false after `timeoutMs`. */
  wait(position: bigint, timeoutMs: number, names: string[]): Promise<boolean> {
    if (names.length === 0 || this.reachedBy(names, position)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.remove(waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        names,
        reached: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.add(waiter);
      if (names.some((name) => this.deps.polled(name))) this.schedulePoll();
    });
  }

  /** Resolves once the named projections passed `target`; rejects on the first failure reported. */
  reach(target: bigint, names: string[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        position: target,
        names,
        reached: () => (this.failureListeners.delete(onFailure), resolve()),
      };
      const onFailure = (error: unknown) => (
        this.remove(waiter),
        this.failureListeners.delete(onFailure),
        reject(error)
      );
      this.add(waiter);
      this.failureListeners.add(onFailure);
      this.notify();
    });
  }

  /** A batch failed: whoever waits to reach a position through this runner hears it. */
  failed(error: unknown): void {
    for (const listener of [...this.failureListeners]) listener(error);
  }

  /** Releases the waiters the checkpoints now satisfy (a released waiter is removed before it is told). */
  notify(): void {
    for (const [key, group] of [...this.groups]) {
      const passed = group.names ? this.lowest(group.names) : this.position;
      let released = 0;
      while (released < group.waiters.length && group.waiters[released]!.position <= passed) released++;
      if (released === 0) continue;
      const done = group.waiters.splice(0, released);
      if (group.waiters.length === 0) this.groups.delete(key);
      for (const waiter of done) waiter.reached();
    }
  }

  private add(waiter: Waiter): void {
    const key = groupOf(waiter);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { ...(waiter.names ? { names: waiter.names } : {}), waiters: [] }));
    // Positions mostly arrive in order: search from the back for the place that keeps the group ordered.
    const list = group.waiters;
    let at = list.length;
    while (at > 0 && list[at - 1]!.position > waiter.position) at--;
    list.splice(at, 0, waiter);
  }

  private remove(waiter: Waiter): void {
    const key = groupOf(waiter);
    const group = this.groups.get(key);
    const at = group ? group.waiters.indexOf(waiter) : -1;
    if (at < 0) return;
    group!.waiters.splice(at, 1);
    if (group!.waiters.length === 0) this.groups.delete(key);
  }

  private lowest(names: string[]): bigint {
    let low: bigint | undefined;
    for (const name of names) {
      const c = this.deps.checkpoints.get(name) ?? 0n;
      if (low === undefined || c < low) low = c;
    }
    return low ?? 0n;
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
    for (const group of this.groups.values()) {
      for (const name of group.names ?? this.deps.names()) if (this.deps.polled(name)) needed.add(name);
    }
    return [...needed];
  }

  private async pollTick(): Promise<void> {
    this.pollTimer = undefined;
    this.polling = true;
    try {
      const names = this.polledNames();
      // Read before the checkpoints: a commit after it shows as a change at the next tick.
      const version = this.deps.commitVersion?.();
      // Nothing committed to the store since the last read: the checkpoints read then still hold.
      const unchanged = version !== undefined && version === this.readAt && names.every((n) => this.read.has(n));
      if (!unchanged) {
        const read = await Promise.all(names.map((name) => this.deps.readCheckpoint(name)));
        this.read.clear();
        names.forEach((name, i) => {
          // Keeps `position` meaningful in a process that only waits (an API without a local projector).
          if (this.deps.polled(name)) this.deps.checkpoints.set(name, read[i]);
          this.read.add(name);
        });
        this.readAt = version;
        this.notify();
      }
    } catch (error) {
      this.readAt = undefined;
      this.deps.logger.error('reading projection checkpoints failed', error);
    } finally {
      this.polling = false;
    }
    if (this.groups.size > 0) this.schedulePoll();
    else this.pollStarted = false;
  }
}

/** The group a waiter belongs to: the projections it waits for (all of them when unnamed). */
function groupOf(waiter: Waiter): string {
  return waiter.names ? waiter.names.join('\u0000') : '*';
}
