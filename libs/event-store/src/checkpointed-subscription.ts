import { SubscriptionEnded, type EventStore, type RecordedEvent, type Subscription } from './event-store.js';
import { RunState } from './run-state.js';

export interface CheckpointedSubscriptionOptions {
  /**
   * Where to resume, read again on every (re)subscription: `{ after }` continues after that position (without it,
   * from the start of the log); `undefined` stands by (another process holds the work) until `restart()`.
   */
  resume(): Promise<{ after?: bigint } | undefined>;
  /**
   * Handles one batch, in log order, one batch at a time; it saves its own checkpoint. A throw drops whatever was
   * buffered after the batch and resubscribes from `resume()` after `retryDelayMs`, as after a crash: so a handler
   * throws only for what passes (see set-aside.ts), and sets aside an event that keeps failing instead.
   */
  handle(batch: RecordedEvent[]): Promise<void>;
  /** Most events per batch (default 256). */
  batchSize?: number;
  /** Wait before resubscribing after a failure (default 1000 ms). */
  retryDelayMs?: number;
  /** Told of every failure before the retry (for logs and waiters). */
  onFailure?(error: unknown, retryDelayMs: number): void;
  /** Told after every (re)subscription, standing by included. */
  onSubscribed?(): void;
}

/**
 * A consumer of the global log that resumes from its own checkpoint: it subscribes after the position `resume()`
 * gives, collects delivered events into batches (a full batch at once, a partial one when the delivery burst ends),
 * hands them to `handle` one at a time in log order, and resubscribes from the checkpoint after a failure, when the
 * store ends the subscription, or on `restart()` (a lease gained or lost). Every (re)subscription starts a new
 * generation: events, batches and failures of an older one are dropped, so a late delivery of an abandoned
 * subscription never runs after the new one started. The projection runner, the webhook dispatcher and the card
 * reactor are its three users.
 */
export class CheckpointedSubscription {
  private readonly batchSize: number;
  private readonly retryDelayMs: number;
  private readonly lifecycle = new RunState();
  private subscription?: Subscription;
  private generation = 0;
  private pending: RecordedEvent[] = [];
  private chain: Promise<void> = Promise.resolve();
  private scheduled?: NodeJS.Immediate;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly store: EventStore,
    private readonly options: CheckpointedSubscriptionOptions,
  ) {
    this.batchSize = options.batchSize ?? 256;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw new RangeError('batchSize must be a positive integer');
    this.retryDelayMs = options.retryDelayMs ?? 1000;
  }

  get isRunning(): boolean {
    return this.lifecycle.running;
  }

  /** Subscribes from `resume()`; rejects (and stays stopped) if that first resume fails. */
  start(): Promise<void> {
    return this.lifecycle.start(() => this.subscribe());
  }

  /** Stops the subscription and handles what it already delivered. */
  async stop(): Promise<void> {
    if (!this.lifecycle.stop()) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop();
    await this.flush(this.generation);
    this.generation++;
    this.pending = [];
  }

  /** Drops what is buffered and resubscribes from `resume()` after `delayMs` (a lease changed hands). */
  restart(delayMs = 0): void {
    if (!this.lifecycle.running) return;
    this.generation++;
    this.pending = [];
    this.retryAfter(delayMs);
  }

  private async subscribe(): Promise<void> {
    const generation = ++this.generation;
    this.pending = [];
    const from = await this.options.resume();
    if (!this.lifecycle.running || generation !== this.generation) return;
    if (from) {
      const subscription = this.store.subscribeToAll((event) => this.onEvent(event, generation), from);
      this.subscription = subscription;
      subscription.done.then(
        // An end without stop() is a failure too: resubscribe from the checkpoint.
        () => {
          if (this.subscription === subscription) this.fail(new SubscriptionEnded(), generation);
        },
        (error: unknown) => this.fail(error, generation),
      );
    }
    this.options.onSubscribed?.();
  }

  private async onEvent(event: RecordedEvent, generation: number): Promise<void> {
    if (generation !== this.generation) return;
    this.pending.push(event);
    // A full batch is handled before more is accepted; a partial one once the delivery burst ends.
    if (this.pending.length >= this.batchSize) await this.flush(generation);
    else if (!this.scheduled) {
      this.scheduled = setImmediate(() => {
        this.scheduled = undefined;
        void this.flush(this.generation);
      });
    }
  }

  /** Batches run one at a time, in log order; never rejects (failures go to fail()). */
  private flush(generation: number): Promise<void> {
    this.chain = this.chain.then(async () => {
      try {
        while (generation === this.generation && this.pending.length > 0) {
          await this.options.handle(this.pending.splice(0, this.batchSize));
        }
      } catch (error) {
        this.fail(error, generation);
      }
    });
    return this.chain;
  }

  private fail(error: unknown, generation: number): void {
    if (generation !== this.generation) return;
    // Whatever was buffered after the failed batch is dropped: it is read again from the checkpoint.
    this.generation++;
    this.pending = [];
    this.options.onFailure?.(error, this.retryDelayMs);
    if (this.lifecycle.running) this.retryAfter(this.retryDelayMs);
  }

  private retryAfter(delayMs: number): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.resubscribe();
    }, delayMs);
  }

  private async resubscribe(): Promise<void> {
    const previous = this.subscription;
    this.subscription = undefined;
    await previous?.stop();
    await this.chain;
    if (!this.lifecycle.running) return;
    try {
      await this.subscribe();
    } catch (error) {
      this.fail(error, this.generation);
    }
  }
}
