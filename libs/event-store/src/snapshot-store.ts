import type { ByteSource } from '#domain/snapshot-codec.js';

/**
 * The snapshot port: the folded state of one stream, kept beside the stream so that loading a long stream reads the
 * snapshot and only the events after it. Snapshots are not events: they never appear in `readStream`, `readAll`,
 * `readLast` or a subscription, have no position, and take no part in the hash chain. Losing one (or all) changes
 * nothing but load time.
 */
export interface Snapshot {
  streamName: string;
  /** The state's codec (`ledger`, `wallet-auth`); a reader of another name ignores the snapshot. */
  decider: string;
  /** The codec's version; a reader that declares another version ignores the snapshot. */
  version: number;
  /** Revision of the last event folded into the state. */
  revision: bigint;
  /** Id of the event at `revision`: a reader uses the snapshot only if the stream still has that event there. */
  eventId: string;
  /** The encoded state (JSON text). */
  state: string;
  /** Raw bytes kept beside the state (a codec's tables read without parsing); absent when the codec has none. */
  binary?: Uint8Array;
}

/**
 * A snapshot as a store reads it back: its binary part is a source read by range where it lies (a file of the
 * embedded store, kept open while the source is referenced) or the bytes themselves, whichever the store has.
 */
export interface StoredSnapshot extends Omit<Snapshot, 'binary'> {
  binary?: ByteSource;
}

export interface SnapshotStore {
  /** The stream's newest snapshot, or undefined when it has none. */
  readSnapshot(streamName: string): Promise<StoredSnapshot | undefined>;
  /**
   * Keeps a snapshot as the stream's newest. A snapshot older than the one kept (a lower revision of the same decider
   * and version, from a slower writer) is dropped; one of another decider or version replaces it. Answers the binary
   * part as the store now keeps it when it reads it by range (the writer may then let go of its own copy), and
   * undefined otherwise: no binary part, a snapshot not kept, or a store that reads binary parts whole.
   */
  writeSnapshot(snapshot: Snapshot): Promise<ByteSource | undefined>;
}

/** Whether `incoming` should replace `kept` as a stream's snapshot. */
export function supersedes(incoming: Snapshot, kept: Pick<Snapshot, 'decider' | 'version' | 'revision'>): boolean {
  return incoming.decider !== kept.decider || incoming.version !== kept.version || incoming.revision > kept.revision;
}
