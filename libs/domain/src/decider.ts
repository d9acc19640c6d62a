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
}
