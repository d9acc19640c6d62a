import type { Projection } from '#read-models/projection.js';
import type { SimProcess } from './process.js';
import type { Run } from './simulation.js';
import { setEndpoint } from './webhooks.js';
import { expectedFailure, outcome } from './workload.js';

/* The steps of a run that are not requests: faults and the passing of time, each drawn from the seed. */

/** A projection is reset (its documents and checkpoint dropped) and replays the log, whatever else reads it. */
export async function replay(run: Run, n: number, projection: Projection, process: SimProcess): Promise<void> {
  await run.scheduler.hold('read models reset');
  if (!process.alive) return;
  run.world.record(`${n} replay ${projection.name}`);
  await run.readModels.reset(projection.name, projection.collections);
}

/** A receiver behaves otherwise from now on; its platform may turn its webhooks off or on again. */
export function shiftReceiver(run: Run, n: number): void {
  const shift = run.receivers.shift();
  run.world.record(`${n} receiver ${shift.url} ${shift.mode}`);
  if (shift.endpoint === undefined) return;
  const process = run.random.pick(run.processes);
  setEndpoint(process, shift.platformId, shift.endpoint).then(
    (result) => run.world.record(`${n} ${result}`),
    (error: unknown) => {
      if (!process.alive) return;
      run.world.record(`${n} endpoint failed ${outcome(error)}`);
      if (!expectedFailure(error)) run.unexpected ??= { step: n, error };
    },
  );
}

/** Mostly a little time passing; now and then a jump of hours. */
export function advanceClock(run: Run, n: number): void {
  const { random, scheduler } = run;
  const jump = random.chance(0.8) ? random.int(120_000) : random.int(3 * 3_600_000);
  scheduler.clock.advance(jump);
  run.world.record(`${n} clock +${jump}`);
  // The worker's timer poll: jobs due on the moved clock become runnable (webhook retries among them).
  void run.process.jobs.promoteDue();
}
