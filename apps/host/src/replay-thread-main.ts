import { workerData } from 'node:worker_threads';
import type { EventStore } from '#event-store/event-store.js';
import { ProjectionRunner } from '#read-models/projection-runner.js';
import { allProjections } from '#read-models/projections/index.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { ReplayThreadInput } from './replay-thread.js';

/**
 * The replay thread (see replay-thread.ts): replays its projections, closes its connections and ends. Only the
 * configured adapters' modules are loaded (the EventStoreDB and MongoDB clients take longer to load than a small
 * replay takes to run).
 */
const input = workerData as ReplayThreadInput;

async function openEventStore(config: ReplayThreadInput['eventStore']): Promise<EventStore> {
  if (config.kind === 'sqlite')
    return new (await import('#event-store/sqlite-event-store.js')).SqliteEventStore(config.path);
  return new (await import('#event-store/eventstoredb-event-store.js')).EventStoreDbEventStore(config.url);
}

async function openReadModels(config: ReplayThreadInput['readModels']): Promise<ReadModelStore> {
  if (config.kind === 'sqlite')
    return new (await import('#read-models/sqlite-read-model-store.js')).SqliteReadModelStore(config.path);
  const { MongoReadModelStore } = await import('#read-models/mongodb-read-model-store.js');
  return MongoReadModelStore.connect(config.url, config.dbName);
}

const eventStore = await openEventStore(input.eventStore);
const readModels = await openReadModels(input.readModels);
try {
  const runner = new ProjectionRunner(eventStore, readModels, allProjections, { lease: false });
  await runner.replayDelegated(input.names, input.head, input.fences);
} finally {
  await readModels.close();
  await eventStore.close();
}
