import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AppConfig } from '#config/config.js';
import type { Fence, ReplayDelegate } from '#read-models/index.js';

/** What the replay thread is started with (structured-cloned: plain data, bigints included). */
export interface ReplayThreadInput {
  eventStore: AppConfig['eventStore'];
  readModels: AppConfig['readModels'];
  names: string[];
  head: bigint;
  fences: ReadonlyMap<string, Fence>;
}

const ENTRY = new URL('./replay-thread-main.js', import.meta.url);

/**
 * A ReplayDelegate that replays its half of a rebuild in a worker thread over its own connections to the same
 * stores, so a rebuild folds on two cores. None on a one-core machine, or where the thread's entry is not compiled
 * JavaScript (the sources run under a test runner): the runner then replays everything itself.
 */
export function replayThread(config: AppConfig): ReplayDelegate | undefined {
  if (availableParallelism() < 2 || !existsSync(fileURLToPath(ENTRY))) return undefined;
  return {
    replay: (names, head, fences) =>
      new Promise<void>((resolve, reject) => {
        const input: ReplayThreadInput = {
          eventStore: config.eventStore,
          readModels: config.readModels,
          names,
          head,
          fences,
        };
        const worker = new Worker(ENTRY, { workerData: input });
        let failure: unknown;
        worker.on('error', (error) => (failure = error));
        worker.on('exit', (code) => {
          if (failure !== undefined) reject(failure);
          else if (code !== 0) reject(new Error(`the replay thread exited with ${code}`));
          else resolve();
        });
      }),
  };
}
