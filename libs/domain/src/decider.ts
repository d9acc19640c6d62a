/**
 * Emmett-style decider: plain values, no classes. `decide` is pure and must not mutate `state`;
 * `evolve` may return a new state or update the given one in place (the command runner only
 * evolves with events that are already committed).
 */
export interface Event<Type extends string = string, Data = object> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, E extends Event> {
  initialState(): State;
  evolve(state: State, event: E): State;
  decide(command: Command, state: State): E[];
  /**
   * Opt-in snapshots of the folded state (for long streams): only deciders that declare a codec are snapshotted.
   * Deciders that share a stream and a state (the ledger's) share one codec.
   */
  snapshot?: SnapshotCodec<State>;
}

/**
 * The fields of `T`, none of them set: the variant of a state before its stream created what `T` describes, so code
 * that has not told the variants apart still reads each field (as possibly undefined).
 */
export type Unset<T> = { [K in keyof T]?: undefined };

/** The end of an exhaustive `switch` over a union: a case left out no longer compiles. */
export function unreachable(value: never): never {
  throw new Error(`unexpected ${JSON.stringify(value)}`);
}

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

/**
 * A decider whose every event carries the whole snapshot it leaves (`snapshotOf` picks it out): folding keeps the
 * latest one, and `decide` sees `exists: false` before the first event.
 */
export function latestSnapshotDecider<State extends { exists: boolean }, Command, E extends Event>(
  snapshotOf: (event: E) => Omit<State, 'exists'>,
  decide: (command: Command, state: State) => E[],
): Decider<State, Command, E> {
  return {
    initialState: () => ({ exists: false }) as State,
    evolve: (_state, event) => ({ exists: true, ...snapshotOf(event) }) as State,
    decide,
  };
}

/** A creating command's fields as the data of the event it records: without `type`, its `now` as `createdAt`. */
export function createdFrom<C extends { type: string; now: string }>({
  type: _type,
  now,
  ...fields
}: C): Omit<C, 'type' | 'now'> & { createdAt: string } {
  return { ...fields, createdAt: now };
}
