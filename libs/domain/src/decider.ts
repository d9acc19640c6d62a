import type { SnapshotCodec } from './snapshot-codec.js';

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
