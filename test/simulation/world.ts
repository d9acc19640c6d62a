import { createHash } from 'node:crypto';
import type { AppendResult } from '#event-store/event-store.js';
import type { SimProcess } from './process.js';
import type { SimWallet } from './workload-wallet.js';

export interface SimAccount {
  id: string;
  currency: string;
}

export interface SimPlatform {
  id: string;
  sandbox: boolean;
  /** Settlement account per currency. */
  settlement: Map<string, string>;
  /** Customer ids this platform's requests pick from (a few, so that their streams are contended). */
  platformCustomerIds: string[];
}

export interface SimCustomer {
  id: string;
  platformId: string;
  accounts: SimAccount[];
}

/** A request the workload sent under an Idempotency-Key: what it asked for. */
export interface KeyedRequest {
  key: string;
  accountId: string;
  amount: number;
}

/**
 * What the simulation knows besides the service (survives the service's restarts): the platforms and customers it
 * created, the keys it uses, what the service acknowledged, and the trace whose hash shows a run is reproducible.
 */
export class World {
  readonly platforms: SimPlatform[] = [];
  readonly customers: SimCustomer[] = [];
  /** Idempotency keys per platform, each bound to the request first sent with it. */
  readonly keys = new Map<string, KeyedRequest[]>();
  /** Appends acknowledged to a caller: the stream must hold at least this revision forever after. */
  readonly acknowledged = new Map<string, bigint>();
  /** Ledger transfers whose command was answered with success, by platform. */
  readonly ackedTransfers = new Map<string, Set<string>>();
  /** Pending transfers (holds) the workload may post or void, by platform. */
  readonly holds = new Map<string, { id: string; accountId: string }[]>();
  /** Ids of recent payments (a repeat of one, same or different fields, must be a no-op or a conflict). */
  readonly payments: { platformId: string; id: string; from: string; to: string; amount: bigint }[] = [];
  /** Agents and the USD account each spends from. */
  readonly agents: { id: string; platformId: string; accountId: string }[] = [];
  /** Cards the workload created (issued or not). */
  readonly cards: { id: string; platformId: string; customerId: string }[] = [];
  /** Customers' bank accounts, with the sandbox suffix that decides their transfers' outcomes. */
  readonly externalAccounts: { id: string; customerId: string; platformId: string; suffix: string }[] = [];
  /** Transfers in and out the workload started. */
  readonly transactions: { id: string; platformId: string }[] = [];
  /** Quotes the workload created. */
  readonly quotes: { id: string; platformId: string }[] = [];
  /** Embedded wallets and the devices that hold their sessions (see workload-wallet.ts). */
  readonly wallets: SimWallet[] = [];
  /** Every stamp a device sent with a requestId (step 2 of a signed retry), by requestId. */
  readonly stamps = new Map<string, string[]>();
  /** The processes running now (a device's retry goes to any of them, also to one started since its first step). */
  processes: () => SimProcess[] = () => [];
  /** Every (collection, id) the projector wrote. */
  readonly touched = new Map<string, Set<string>>();
  private readonly trace = createHash('sha256');
  /** The trace's lines not hashed yet (hashed in chunks), which are also the last lines a failure report shows. */
  private pending: string[] = [];
  private previous: string[] = [];
  traceLines = 0;

  /** Adds a line to the trace (its hash is the run's fingerprint); the last lines are kept for a failure report. */
  record(line: string): void {
    this.pending.push(line);
    this.traceLines++;
    if (this.pending.length >= 1000) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.trace.update(this.pending.join('\n') + '\n');
    this.previous = this.pending;
    this.pending = [];
  }

  /** The last `count` lines of the trace. */
  lastLines(count = 40): string[] {
    return [...this.previous, ...this.pending].slice(-count);
  }

  hash(): string {
    this.flush();
    return this.trace.copy().digest('hex');
  }

  acknowledge(stream: string, result: AppendResult): void {
    const revision = result.nextExpectedRevision;
    if ((this.acknowledged.get(stream) ?? -1n) < revision) this.acknowledged.set(stream, revision);
  }

  ackTransfer(platformId: string, transferId: string): void {
    let set = this.ackedTransfers.get(platformId);
    if (!set) this.ackedTransfers.set(platformId, (set = new Set()));
    set.add(transferId);
  }

  accountsOf(platformId: string): SimAccount[] {
    return this.customers.filter((c) => c.platformId === platformId).flatMap((c) => c.accounts);
  }

  platformOfAccount(accountId: string): string | undefined {
    for (const p of this.platforms) if ([...p.settlement.values()].includes(accountId)) return p.id;
    return this.customers.find((c) => c.accounts.some((a) => a.id === accountId))?.platformId;
  }
}
