import { mkdirSync } from 'node:fs';
import type { AppConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import { createEventStore } from '#event-store/index.js';
import type { EventStore } from '#event-store/event-store.js';
import { createJobQueue } from '#jobs/index.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { PlatformClocks } from './platforms/platform-clocks.js';
import { ProjectionRunner } from '#read-models/projection-runner.js';
import { allProjections } from '#read-models/projections/index.js';
import { createReadModelStore } from '#read-models/index.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';

/** The storage adapters selected by configuration, plus the local projector. */
export interface Infrastructure {
  eventStore: EventStore;
  readModels: ReadModelStore;
  jobs: JobQueue;
  projections: ProjectionRunner;
  /** What the infrastructure was built with; worker duties (webhooks, timers) need both. */
  config: AppConfig;
  /** The base clock (real time, or a test's manual clock); the queue clock. */
  clock: Clock;
  /** Every platform's own clock: the base clock plus the platform's sandbox offset. */
  clocks: PlatformClocks;
  close(): Promise<void>;
}

export async function createInfrastructure(config: AppConfig, clock: Clock): Promise<Infrastructure> {
  mkdirSync(config.dataDir, { recursive: true });
  const eventStore = await createEventStore(config.eventStore);
  const readModels = await createReadModelStore(config.readModels);
  const jobs = await createJobQueue({ ...config.jobs, clock });
  const projections = new ProjectionRunner(eventStore, readModels, allProjections);
  return {
    eventStore,
    readModels,
    jobs,
    projections,
    config,
    clock,
    clocks: new PlatformClocks(eventStore, clock),
    async close() {
      await projections.stop();
      await jobs.close();
      await readModels.close();
      await eventStore.close();
    },
  };
}
