import type { EventStore } from '#event-store/event-store.js';
import { allProjections } from '#read-models/projections/index.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';

/** How long a read waits for a projection to catch up with the log before it answers that a document is missing. */
const CATCH_UP_MS = 2_000;
const CATCH_UP_POLL_MS = 20;

/** Real time, which the wait is bounded by (a test's seam). */
export interface CatchUpTime {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTime: CatchUpTime = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A document that a request depends on (a token to authenticate, an account to fund), read from the read models. One
 * found missing is looked up once more after `projection`, which writes it, has reached the log's head as it stood (at
 * most `CATCH_UP_MS`), judged by the checkpoint in the store, which every process sees: while `read-models:rebuild`
 * replays, a collection is empty until the replay passes the document's creation, and a request must not fail for
 * it. A document that does not exist costs that one check of the checkpoint, which is at the head already.
 */
export async function getCaughtUp<T extends Doc>(
  store: Pick<ReadModelStore, 'get' | 'getCheckpoint'>,
  events: Pick<EventStore, 'headPosition'>,
  projection: string,
  collection: string,
  id: string,
  time: CatchUpTime = realTime,
): Promise<T | undefined> {
  const found = await store.get<T>(collection, id);
  if (found) return found;
  const head = await events.headPosition();
  const deadline = time.now() + CATCH_UP_MS;
  while (((await store.getCheckpoint(projection)) ?? -1n) < head) {
    if (time.now() >= deadline) return undefined;
    await time.sleep(CATCH_UP_POLL_MS);
  }
  return store.get<T>(collection, id);
}

/** The projection that writes each collection (a collection has one). */
const WRITERS = new Map(allProjections.flatMap((p) => p.collections.map((c) => [c, p.name] as const)));

/** The name of the projection that writes `collection`. */
export function writerOf(collection: string): string {
  const name = WRITERS.get(collection);
  if (name === undefined) throw new Error(`no projection writes ${collection}`);
  return name;
}

/**
 * The read models as the application reads them: a document read by id (`get`) and found missing is read once more
 * after the projection that writes its collection has reached the log's head (getCaughtUp), so no command or query
 * answers that something is missing because a rebuild is replaying its collection or because another process's
 * projection lags; every other member is the store's own. The projections and their runner use the store itself.
 */
export function caughtUpReads(
  store: ReadModelStore,
  events: Pick<EventStore, 'headPosition'>,
  time: CatchUpTime = realTime,
): ReadModelStore {
  const get = <T extends Doc>(collection: string, id: string): Promise<T | undefined> => {
    const projection = WRITERS.get(collection);
    if (projection === undefined) return store.get<T>(collection, id);
    return getCaughtUp<T>(store, events, projection, collection, id, time);
  };
  // The store's methods bound once, not at every call.
  const bound = new Map<PropertyKey, unknown>([['get', get]]);
  return new Proxy(store, {
    get(target, property) {
      if (bound.has(property)) return bound.get(property);
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method: unknown = value.bind(target);
      bound.set(property, method);
      return method;
    },
  });
}
