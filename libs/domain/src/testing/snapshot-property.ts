import { expect } from '@jest/globals';
import type { Decider, Event } from '../decider.js';
import { throughSnapshot } from '../snapshot-codec.js';

/** Events as a store hands them back: fresh objects parsed from their JSON. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What `decide` answered: its events, or the refusal's code (an error without one is rethrown). */
function outcome<State, Command, E extends Event>(decider: Decider<State, Command, E>, cmd: Command, state: State) {
  try {
    return { events: decider.decide(cmd, state) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    return { refused: code };
  }
}

/**
 * The snapshot law for a decider that declares a codec: folding `events` up to `split`, writing the state through
 * the codec and JSON (as a snapshot store keeps it), reading it back and folding the rest gives the state folded
 * from the whole stream, and every probe command is decided alike on both. A codec that keeps part of the state in
 * another form (the ledger's settled transfers) names what must be equal through `observe`.
 */
export function expectSnapshotFoldsAlike<State, Command, E extends Event>(
  decider: Decider<State, Command, E>,
  events: E[],
  split: number,
  probes: Command[] = [],
  observe: (state: State) => unknown = (state) => state,
): void {
  const codec = decider.snapshot;
  if (!codec) throw new Error('the decider declares no snapshot codec');
  const fold = (from: State, list: E[]) => list.reduce((s, e) => decider.evolve(s, e), from);
  const whole = fold(decider.initialState(), stored(events));
  const copy = stored(events);
  const prefix = fold(decider.initialState(), copy.slice(0, split));
  const restored = throughSnapshot(codec, prefix);
  const resumed = fold(restored, copy.slice(split));
  expect(observe(resumed)).toEqual(observe(whole));
  for (const probe of probes) expect(outcome(decider, probe, resumed)).toEqual(outcome(decider, probe, whole));
}
