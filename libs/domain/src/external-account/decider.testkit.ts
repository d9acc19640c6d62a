import { expect } from '@jest/globals';
import type { Decider, Event } from '../decider.js';
import { DomainError, type DomainErrorKind } from '../errors.js';

/**
 * Given/when/then over any decider, for unit specs: `given` past events, `when` a command,
 * `then` the events decided, or `thenFails` with the domain error's kind and code.
 */
export function deciderSpec<State, Command, E extends Event>(decider: Decider<State, Command, E>) {
  const fold = (events: E[]) => events.reduce((s, e) => decider.evolve(s, e), decider.initialState());
  return {
    fold,
    given(events: E[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, fold(events));
          return {
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenFails(expected: { kind: DomainErrorKind; code: string }) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect({ kind: (caught as DomainError).kind, code: (caught as DomainError).code }).toEqual(expected);
            },
          };
        },
      };
    },
  };
}
