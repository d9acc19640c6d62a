import { LeaseKeeper, type LeaseKeeperOptions } from './lease-keeper.js';
import { LeaseLost, type ReadModelStore } from '../read-model-store.js';

/**
 * The checkpoint of a single-active log processor (the webhook dispatcher, a reactor): a lease
 * and a checkpoint of the same name in the read-model store. Only the lease holder processes;
 * `save` writes the checkpoint only if it is still the one loaded and the lease still holds
 * (checked in the store's transaction), so a processor that lost its lease stops instead of
 * racing its successor. `onChange(true)` when this process became the active one (load and
 * subscribe), `onChange(false)` when it stopped being it (stop processing).
 */
export class LeasedCheckpoint {
  private readonly keeper: LeaseKeeper;
  private committed: bigint | undefined;
  /** The save in flight (settled or not): the next one starts after it. */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ReadModelStore,
    readonly name: string,
    onChange: (active: boolean) => void,
    options: LeaseKeeperOptions = {},
  ) {
    this.keeper = new LeaseKeeper(
      store,
      [name],
      ({ gained, lost }) => {
        if (lost.length) onChange(false);
        if (gained.length) onChange(true);
      },
      options,
    );
  }

  /** Whether this process is the active one. */
  get active(): boolean {
    return this.keeper.holds(this.name);
  }

  /** Last position saved or loaded. */
  get position(): bigint | undefined {
    return this.committed;
  }

  /** Competes for the lease (and keeps doing so until stop). */
  start(): Promise<void> {
    return this.keeper.start();
  }

  /** Releases the lease so a waiting process takes over at once. */
  stop(): Promise<void> {
    return this.keeper.stop();
  }

  /** Reads the stored checkpoint: where the active processor resumes. */
  async load(): Promise<bigint | undefined> {
    this.committed = await this.store.getCheckpoint(this.name);
    return this.committed;
  }

  /**
   * Moves the checkpoint from the loaded one; throws (ConcurrentProjectionUpdate, LeaseLost) when this process may not.
   * Saves are made one after the other, each from the checkpoint the previous one left: two saves in flight at once
   * would both expect the same stored checkpoint, and the second would be refused as if another process had moved it.
   */
  save(position: bigint): Promise<void> {
    const saved = this.saving.then(() => this.saveNow(position));
    this.saving = saved.catch(() => undefined);
    return saved;
  }

  private async saveNow(position: bigint): Promise<void> {
    if (this.committed !== undefined && position <= this.committed) return;
    const fence = this.keeper.fence(this.name);
    if (!fence) throw new LeaseLost(this.name, 0n);
    try {
      await this.store.commitBatch(this.name, this.committed, position, async () => undefined, fence);
    } catch (error) {
      if (error instanceof LeaseLost) this.keeper.forget(this.name, fence.token);
      throw error;
    }
    this.committed = position;
  }
}
