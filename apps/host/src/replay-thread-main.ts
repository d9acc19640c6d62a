import { workerData } from 'node:worker_threads';
import { createEventStore } from '#event-store/index.js';
import { createReadModelStore, ProjectionRunner } from '#read-models/index.js';
import { allProjections } from '#read-models/projections/index.js';
import type { ReplayThreadInput } from './replay-thread.js';

/**
 * The replay thread (see replay-thread.ts): replays its projections, closes its connections and ends. The factories
 * load only the configured adapters' modules.
 */
const input = workerData as ReplayThreadInput;
const eventStore = await createEventStore(input.eventStore);
const readModels = await createReadModelStore(input.readModels);
try {
  const runner = new ProjectionRunner(eventStore, readModels, allProjections, { lease: false });
  await runner.replayDelegated(input.names, input.head, input.fences);
} finally {
  await readModels.close();
  await eventStore.close();
}
