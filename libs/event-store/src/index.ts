import type { Clock } from '#domain/clock.js';
import type { EventStore } from './event-store.js';
import { SqliteEventStore } from './sqlite/event-store.js';

export * from './event-store.js';
export * from './snapshot-store.js';
export { SqliteEventStore, type SqliteEventStoreOptions, type GroupCommitStats } from './sqlite/event-store.js';

export type EventStoreConfig = { kind: 'sqlite'; path: string } | { kind: 'eventstoredb'; url: string };

/**
 * Opens the adapter selected by configuration. The clock stamps `recordedAt` in the embedded store;
 * EventStoreDB stamps events with its own time.
 */
export async function createEventStore(config: EventStoreConfig, options: { clock?: Clock } = {}): Promise<EventStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqliteEventStore(config.path, { clock: options.clock });
    case 'eventstoredb':
      // Loaded only when configured: the gRPC client weighs tens of megabytes in every process that loads it.
      return new (await import('./eventstoredb/event-store.js')).EventStoreDbEventStore(config.url);
  }
}
export {
  GENESIS_HASH,
  chainMetadata,
  eventHash,
  verifyChain,
  type ChainBreak,
  type ChainedFields,
} from './hash-chain.js';
