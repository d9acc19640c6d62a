import { MongoReadModelStore } from './mongodb-read-model-store.js';
import type { ReadModelStore } from './read-model-store.js';
import { SqliteReadModelStore } from './sqlite-read-model-store.js';

export * from './read-model-store.js';
export type { Projection } from './projection.js';
export { ProjectionRunner, type ProjectionRunnerOptions } from './projection-runner.js';
export { SqliteReadModelStore } from './sqlite-read-model-store.js';
export { MongoReadModelStore } from './mongodb-read-model-store.js';

export type ReadModelStoreConfig = { kind: 'sqlite'; path: string } | { kind: 'mongodb'; url: string; dbName: string };

/** The read-model adapter selected by configuration (READ_MODELS=sqlite|mongodb). */
export async function createReadModelStore(config: ReadModelStoreConfig): Promise<ReadModelStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteReadModelStore(config.path);
    case 'mongodb':
      return MongoReadModelStore.connect(config.url, config.dbName);
  }
}
