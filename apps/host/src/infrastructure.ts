import { CommandRunner } from '#application/command-runner.js';
import type { Infrastructure } from '#application/infrastructure.js';
import { PlatformClocks } from '#application/command-context.js';
import type { AppConfig } from '#config/config.js';
import { ensurePrivateDir } from '#config/private-files.js';
import type { Clock } from '#domain/clock.js';
import { createBlobStore } from '#blob-store/index.js';
import { createEventStore } from '#event-store/index.js';
import { createJobQueue } from '#jobs/index.js';
import { ProjectionRunner } from '#read-models/runner/projection-runner.js';
import { allProjections } from '#read-models/projections/index.js';
import { createReadModelStore } from '#read-models/index.js';

/**
 * The composition root every process shares (API, worker, CLI): builds the adapters configuration selects
 * (EVENT_STORE, READ_MODELS, JOBS), the projector over them and the process's one command runner. Closing stops the
 * projector first. A process that serves writes (the API, the worker) says so with `writes`: the event store's write
 * path is set up at start.
 */
export async function createInfrastructure(
  config: AppConfig,
  clock: Clock,
  { writes = false }: { writes?: boolean } = {},
): Promise<Infrastructure> {
  ensurePrivateDir(config.dataDir);
  const eventStore = await createEventStore(config.eventStore);
  if (writes) eventStore.prepareWrites?.();
  const readModels = await createReadModelStore(config.readModels);
  const jobs = await createJobQueue({ ...config.jobs, clock });
  const blobs = await createBlobStore(config.documents.store);
  const projections = new ProjectionRunner(eventStore, readModels, allProjections);
  const runner = new CommandRunner(eventStore, projections, {
    readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
    snapshots: { every: config.snapshotEvery },
  });
  return {
    eventStore,
    readModels,
    jobs,
    blobs,
    projections,
    config,
    clock,
    clocks: new PlatformClocks(eventStore, clock),
    runner,
    async close() {
      await projections.stop();
      await jobs.close();
      await blobs.close();
      await readModels.close();
      await eventStore.close();
    },
  };
}
