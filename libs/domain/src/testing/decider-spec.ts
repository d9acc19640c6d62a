import { expect } from '@jest/globals';
import type { Decider, Event } from '../decider.js';
import { DomainError, type DomainErrorKind } from '../errors.js';

/** What a refused command must have answered; every given field is compared, the others are not. */
export interface ExpectedFailure {
  kind?: DomainErrorKind;
  code?: string;
  /** Compared with `details.reason`: equal to a string, or matching a pattern. */
  reason?: string | RegExp;
  details?: Record<string, unknown>;
}

/**
 * The one given/when/then harness for unit specs of deciders: `given` past events, `when` a command,
 * `then` the events decided, `thenEmits` to inspect them, or `thenFails` with the domain error expected.
 * Every run folds the given events into a fresh state, so a decider whose `evolve` mutates in place is safe.
 */
export function deciderSpec<State, Command, E extends Event>(decider: Decider<State, Command, E>) {
  const fold = (events: E[]): State => events.reduce((s, e) => decider.evolve(s, e), decider.initialState());

  /** Runs commands in order, each against the state folded so far, and returns the whole history. */
  const history = (...commands: Command[]): E[] => {
    const events: E[] = [];
    for (const command of commands) events.push(...decider.decide(command, fold(events)));
    return events;
  };

  const given = (events: E[]) => ({
    when(command: Command) {
      const run = () => decider.decide(command, fold(events));
      return {
        then(expected: E[]): void {
          expect(run()).toEqual(expected);
        },
        thenEmits(): E[] {
          return run();
        },
        thenFails(expected: ExpectedFailure): DomainError {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(DomainError);
          const error = caught as DomainError;
          if (expected.kind) expect(error.kind).toBe(expected.kind);
          if (expected.code) expect(error.code).toBe(expected.code);
          if (typeof expected.reason === 'string') expect(error.details?.reason).toBe(expected.reason);
          if (expected.reason instanceof RegExp) expect(String(error.details?.reason)).toMatch(expected.reason);
          if (expected.details) expect(error.details).toMatchObject(expected.details);
          return error;
        },
      };
    },
  });

  return { fold, history, given };
}
