import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadModelStore, ScratchReadModels } from './read-model-store.js';
import { SqliteReadModelStore } from './sqlite/read-model-store.js';

export * from './read-model-store.js';
export type { Projection } from './projection.js';
export { ProjectionRunner, type ProjectionRunnerOptions, type ReplayDelegate } from './runner/projection-runner.js';
export { SqliteReadModelStore } from './sqlite/read-model-store.js';

export type ReadModelStoreConfig = { kind: 'sqlite'; path: string } | { kind: 'mongodb'; url: string; dbName: string };

/** The read-model adapter selected by configuration (READ_MODELS=sqlite|mongodb). */
export async function createReadModelStore(config: ReadModelStoreConfig): Promise<ReadModelStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteReadModelStore(config.path);
    case 'mongodb':
      // Loaded only when configured (the driver weighs tens of megabytes in every process that loads it).
      return (await import('./mongodb/read-model-store.js')).MongoReadModelStore.connect(config.url, config.dbName);
  }
}

/** An embedded store in a temporary file that is not synced to disk, removed on dispose. */
export async function createScratchReadModelStore(): Promise<ScratchReadModels> {
  const dir = mkdtempSync(join(tmpdir(), 'scratch-read-models-'));
  const store = new SqliteReadModelStore(join(dir, 'read-models.sqlite'), { scratch: true });
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
