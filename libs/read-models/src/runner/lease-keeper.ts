import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Fence, LeaseGrant, ReadModelStore } from '../read-model-store.js';

export interface LeaseKeeperOptions {
  /** Unique per keeper (default host, pid and a random suffix). */
  holder?: string;
  /**
   * How long a lease outlives its holder's last renewal, i.e. how soon a standby takes over from a dead one (default
   * 5000 ms).
   */
  ttlMs?: number;
  /** How often held leases are renewed and free ones sought (default a fifth of the TTL). */
  renewEveryMs?: number;
  /** Wall time in epoch ms: leases measure process liveness across processes, not a platform's clock. */
  now?: () => number;
  logger?: { warn(message: string): void };
}

/** Names gained and lost since the previous call. */
export type LeaseChange = (change: { gained: string[]; lost: string[] }) => void;

export const defaultLeaseHolder = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Keeps a set of leases in the read-model store for one holder: acquires those that are free,
 * renews those it holds, and reports gains and losses. Whoever does the leased work (a projector,
 * the webhook dispatcher, a reactor) writes with `fence(name)`, which the store checks in the same
 * transaction as the write, so a holder that lost its lease (paused past the TTL, or preempted by
 * a rebuild) cannot write after its successor started. Several processes may run keepers for the
 * same names: one holds each lease, the others wait and take over once it expires.
 */
export class LeaseKeeper {
  readonly holder: string;
  private readonly ttlMs: number;
  private readonly renewEveryMs: number;
  private readonly now: () => number;
  private readonly logger: NonNullable<LeaseKeeperOptions['logger']>;
  private readonly held = new Map<string, LeaseGrant>();
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private active = false;

  constructor(
    private readonly store: ReadModelStore,
    private readonly names: readonly string[],
    private readonly onChange: LeaseChange = () => undefined,
    options: LeaseKeeperOptions = {},
  ) {
    this.holder = options.holder ?? defaultLeaseHolder();
    this.ttlMs = options.ttlMs ?? 5000;
    this.renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(this.ttlMs / 5));
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? { warn: (message) => console.warn(message) };
  }

  /** Acquires what is free now, then keeps renewing and seeking; idempotent. */
  async start(): Promise<void> {
    this.active = true;
    this.timer ??= setInterval(() => void this.tick(), this.renewEveryMs);
    await this.tick();
  }

  /** Stops renewing and releases every held lease, so a waiting keeper takes over at once. */
  async stop(): Promise<void> {
    this.active = false;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.serialized(async () => {
      const released = [...this.held];
      this.held.clear();
      await Promise.all(
        released.map(([name, grant]) => this.store.releaseLease(name, this.holder, grant.token).catch(() => undefined)),
      );
    });
  }

  /** Takes the leases even from a live holder (an operator's rebuild); keeps renewing them until stop(). */
  async seize(names: readonly string[]): Promise<void> {
    await this.serialized(async () => {
      const gained: string[] = [];
      for (const name of names) {
        if (!this.names.includes(name)) throw new Error(`lease ${name} is not kept by this keeper`);
        const grant = await this.store.acquireLease({
          name,
          holder: this.holder,
          ttlMs: this.ttlMs,
          now: this.now(),
          force: true,
        });
        if (!grant) throw new Error(`lease ${name} could not be seized`);
        if (!this.held.has(name)) gained.push(name);
        this.held.set(name, grant);
      }
      if (gained.length) this.onChange({ gained, lost: [] });
    });
    this.active = true;
    this.timer ??= setInterval(() => void this.tick(), this.renewEveryMs);
  }

  /**
   * Waits (at most one TTL and a renewal) until every lease is held. A process restarted after a
   * crash finds its own dead leases still valid for up to one TTL: waiting lets it resume them
   * instead of serving stale read models meanwhile. Resolves false when a live holder kept any.
   */
  async settle(): Promise<boolean> {
    const deadline = this.now() + this.ttlMs + this.renewEveryMs;
    while (this.active && !this.names.every((name) => this.held.has(name))) {
      if (this.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, this.renewEveryMs));
      await this.chain;
    }
    return this.names.every((name) => this.held.has(name));
  }

  /** The fence to write with, or undefined when this keeper does not hold the lease. */
  fence(name: string): Fence | undefined {
    const grant = this.held.get(name);
    return grant ? { lease: name, token: grant.token } : undefined;
  }

  holds(name: string): boolean {
    return this.held.has(name);
  }

  /** A write was refused with LeaseLost: drop the lease now instead of at the next renewal. */
  forget(name: string, token: bigint): void {
    if (this.held.get(name)?.token !== token) return;
    this.held.delete(name);
    this.onChange({ gained: [], lost: [name] });
  }

  private tick(): Promise<void> {
    return this.serialized(async () => {
      if (!this.active) return;
      const gained: string[] = [];
      const lost: string[] = [];
      for (const name of this.names) {
        const grant = this.held.get(name);
        try {
          if (grant) {
            const renewed = await this.store.renewLease(name, this.holder, grant.token, this.ttlMs, this.now());
            if (renewed) this.held.set(name, renewed);
            else {
              this.held.delete(name);
              lost.push(name);
            }
          } else {
            const acquired = await this.store.acquireLease({
              name,
              holder: this.holder,
              ttlMs: this.ttlMs,
              now: this.now(),
            });
            if (acquired) {
              this.held.set(name, acquired);
              gained.push(name);
            }
          }
        } catch (error) {
          // The store is unreachable: a lease that may have expired meanwhile is given up.
          this.logger.warn(`lease ${name}: ${String(error)}`);
          if (grant && this.now() >= grant.expiresAt) {
            this.held.delete(name);
            lost.push(name);
          }
        }
      }
      if (gained.length || lost.length) this.onChange({ gained, lost });
    });
  }

  private serialized(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
