/**
 * Snapshot codecs: how a decider's folded state is written to a snapshot and read back, and the bytes a snapshot's
 * binary part is read from. The command runner takes and restores snapshots (`StreamSnapshots` in
 * libs/application/src/command-runner-policy.ts) in the stores of libs/event-store; the codecs themselves are domain
 * rules (the ledger's, a wallet's), so their contract lives here, beside the deciders that declare them.
 */

/**
 * How a decider's state is written to and read from a snapshot. `decode(encode(s))` must give a state that every
 * later `evolve` and `decide` treat exactly as `s`: folding from a snapshot plus the events after it must equal
 * folding the whole stream. Bump `version` whenever `evolve`, the state or the encoding changes: a snapshot of
 * another name or version is ignored, and the stream is folded from its start (and snapshotted again).
 */
export interface SnapshotCodec<State> {
  /** Names the state's shape (not the decider): `ledger`, `wallet-auth`. */
  name: string;
  version: number;
  /** A JSON value (Maps, Sets and bigints spelled out). */
  encode(state: State): unknown;
  /**
   * Optional raw bytes kept beside the JSON value, for a large part of the state that is read without parsing (the
   * ledger's sorted table of settled transfers); `decode` then gets them back, as a source it may read by range
   * where they lie (a file of the embedded store) rather than whole.
   */
  encodeBinary?(state: State): Uint8Array;
  decode(encoded: unknown, binary?: ByteSource): State;
  /**
   * The same state, its binary part read from `binary` instead: the bytes `encodeBinary` gave for the snapshot the
   * state was last decoded from, as the store now keeps them (read by range), so the process can let go of its copy.
   */
  rebind?(state: State, binary: ByteSource): State;
}

/**
 * Bytes that never change, read by range: a snapshot's binary part where it lies (a file) or held whole (`bytes`).
 * A state may keep one and read from it while it decides; a read that fails throws.
 */
export interface ByteSource {
  readonly byteLength: number;
  /** The whole bytes when they are held in memory (reading a range is then a view of them). */
  readonly bytes?: Uint8Array;
  /** `length` bytes from `offset`; both within `byteLength`. */
  read(offset: number, length: number): Uint8Array;
}

/** Refuses a range that is not within a source's `byteLength` (RangeError). */
export function checkRange(offset: number, length: number, byteLength: number): void {
  if (offset < 0 || length < 0 || offset + length > byteLength)
    throw new RangeError(`bytes ${offset}..${offset + length} are outside ${byteLength}`);
}

/** A source over bytes held in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    byteLength: bytes.byteLength,
    bytes,
    read(offset, length) {
      checkRange(offset, length, bytes.byteLength);
      return bytes.subarray(offset, offset + length);
    },
  };
}

/** A state written through its codec and read back, with JSON text between as a snapshot store keeps it. */
export function throughSnapshot<State>(codec: SnapshotCodec<State>, state: State): State {
  const binary = codec.encodeBinary?.(state);
  return codec.decode(JSON.parse(JSON.stringify(codec.encode(state))), binary && bytesSource(binary));
}
