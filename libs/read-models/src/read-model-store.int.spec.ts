import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, describe } from '@jest/globals';
import { MongoClient } from 'mongodb';
import { MongoReadModelStore } from './mongodb/read-model-store.js';
import { readModelLeaseContract } from './read-model-store-leases.contract.js';
import { readModelQueryContract } from './read-model-store-queries.contract.js';
import { readModelStoreContract, type ReadModelStoreFactory } from './read-model-store.contract.js';
import { SqliteReadModelStore } from './sqlite/read-model-store.js';

const dir = mkdtempSync(join(tmpdir(), 'read-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// `commitThread: false` commits on the store's connection; with the compiled entry, on the commit thread.
const sqliteWith =
  (commitThread: false | URL): ReadModelStoreFactory =>
  async () => {
    const path = join(dir, `${randomUUID()}.db`);
    const store = new SqliteReadModelStore(path, { commitThread });
    return {
      store,
      connect: async () => new SqliteReadModelStore(path, { commitThread }),
      dispose: async () => {
        await store.close();
        rmSync(path, { force: true });
        rmSync(`${path}-wal`, { force: true });
        rmSync(`${path}-shm`, { force: true });
      },
    };
  };
const sqlite = sqliteWith(false);
readModelStoreContract('sqlite', sqlite);
readModelQueryContract('sqlite', sqlite);
readModelLeaseContract('sqlite', sqlite);

// The same contract with live batches committed on the commit thread (its compiled entry: `npm test` builds first).
const commitThread = pathToFileURL(resolve('dist/libs/read-models/src/sqlite/doc-thread.js'));
if (!existsSync(commitThread)) throw new Error(`${fileURLToPath(commitThread)} is missing: run npm run build first`);
const threaded = sqliteWith(commitThread);
readModelStoreContract('sqlite, commit thread', threaded);
readModelQueryContract('sqlite, commit thread', threaded);
readModelLeaseContract('sqlite, commit thread', threaded);

const mongoUrl = process.env.MONGODB_URL;
if (!mongoUrl) console.log('MongoDB contract suite skipped: MONGODB_URL is not set');

const mongodb: ReadModelStoreFactory = async () => {
  // A database per test keeps tests independent; it is dropped afterwards.
  const dbName = `read_models_contract_${randomUUID().replace(/-/g, '')}`;
  const store = await MongoReadModelStore.connect(mongoUrl!, dbName);
  return {
    store,
    connect: () => MongoReadModelStore.connect(mongoUrl!, dbName),
    dispose: async () => {
      await store.close();
      const client = await MongoClient.connect(mongoUrl!);
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
};
readModelStoreContract('mongodb', mongodb, mongoUrl ? describe : describe.skip);
readModelQueryContract('mongodb', mongodb, mongoUrl ? describe : describe.skip);
readModelLeaseContract('mongodb', mongodb, mongoUrl ? describe : describe.skip);
