import type { ReadModelStore } from '#read-models/read-model-store.js';

/**
 * The read-model store as the simulated process sees it: every read and commit waits for the scheduler to let it
 * complete, so a read of the read models may come back before or after a commit that started later. The store itself
 * (the SQLite adapter on an in-memory database) is the durable state every process shares.
 */
export function heldReadModels(store: ReadModelStore, hold: (label: string) => Promise<void>): ReadModelStore {
  const held = new Set<string>(['get', 'find', 'getCheckpoint', 'commitBatch', 'commitBatches', 'reset']);
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!held.has(property)) return method.bind(target);
      return async (...args: unknown[]) => {
        await hold(`read models ${property}`);
        return method.apply(target, args);
      };
    },
  });
}
