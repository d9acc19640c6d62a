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
 * A replay allocates a page of decoded events and its documents, all alive until the page commits: a young
 * generation large enough to hold them (semi-spaces of 64 MiB instead of 16) keeps the scavenger from copying them
 * again and again (7% of a replay's time on the benchmark's log). A fixed size: memory stays flat as the log grows.
 */
const YOUNG_MB = 192;

/**
 * A ReplayDelegate that replays both halves of a rebuild, each in a worker thread over its own connections to the
 * same stores, so a rebuild folds on two cores (the process's own thread only waits). None on a one-core machine,
 * or where the thread's entry is not compiled JavaScript (the sources run under a test runner): the runner then
 * replays everything itself.
 */
export function replayThread(config: AppConfig): ReplayDelegate | undefined {
  if (availableParallelism() < 2 || !existsSync(fileURLToPath(ENTRY))) return undefined;
  return {
    both: true,
    replay: (names, head, fences) =>
      new Promise<void>((resolve, reject) => {
        const input: ReplayThreadInput = {
          eventStore: config.eventStore,
          readModels: config.readModels,
          names,
          head,
          fences,
        };
        const worker = new Worker(ENTRY, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
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
