import { plantedFaults } from '#domain/planted-faults.js';
import type { Event } from '#domain/decider.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Doc, IndexSpec, ProjectionTransaction } from './read-model-store.js';

/**
 * A projection: folds the events it handles into documents of the collections it owns. It must
 * be deterministic (no clock, no randomness, no I/O besides `tx`) so that a rebuild from position
 * 0 yields the same documents. Each collection belongs to exactly one projection, so resetting a
 * projection never touches another's documents.
 */
export interface Projection {
  /** Stable name; also the checkpoint key. */
  name: string;
  /** Collections this projection owns (dropped on rebuild). */
  collections: string[];
  /** Event types passed to `apply`; the checkpoint still advances over all other events. */
  handles: string[];
  /**
   * Indexes the API's queries on these collections need (beyond `platformId` + `createdAt`, which every collection
   * has), created when a runner starts, so that no query scans a whole collection.
   */
  indexes?: IndexSpec[];
  /**
   * How costly replaying it is next to the others (1 when absent; the weights given are about the milliseconds each
   * took per 10,000 events of the replay benchmark's log): a rebuild that replays in two threads splits its
   * projections into halves of about equal weight.
   */
  replayWeight?: number;
  apply(event: RecordedEvent, tx: ProjectionTransaction): Promise<void>;
}

/**
 * One event type's handler: the event narrowed to its type, the transaction of the batch it is applied in, and the
 * event as recorded (its metadata and position).
 */
export type EventHandler<E extends Event> = (
  event: E,
  tx: ProjectionTransaction,
  recorded: RecordedEvent,
) => Promise<void> | void;

/** The events of `E` a handler of type `T` is given (an event whose `type` is a union of several, for each of them). */
export type EventOfType<E extends Event, T extends string> = E extends Event
  ? T extends E['type']
    ? E
    : never
  : never;

/** Handlers by event type; the keys are the event types the projection handles. */
export type EventHandlers<E extends Event> = { [T in E['type']]?: EventHandler<EventOfType<E, T>> };

/** A projection declared with a typed handler map (`on: { CardCreated: (e, tx) => … }`) in place of `handles`. */
export type ProjectionDeclaration<E extends Event> = Omit<Projection, 'handles' | 'apply'> & { on: EventHandlers<E> };

/**
 * The projection a handler map declares: it handles the map's event types, and applies an event with its type's
 * handler. `E` is the union of the events it reads (a domain's event type, or several).
 */
export function defineProjection<E extends Event>({ on, ...declaration }: ProjectionDeclaration<E>): Projection {
  const handlers = on as Partial<Record<string, EventHandler<E>>>;
  return {
    ...declaration,
    handles: Object.keys(on),
    async apply(recorded, tx) {
      const handler = handlers[recorded.type];
      if (handler) await handler({ type: recorded.type, data: recorded.data } as E, tx, recorded);
      if (handler && plantedFaults.applyProjectionTwice)
        await handler({ type: recorded.type, data: recorded.data } as E, tx, recorded);
    },
  };
}

/** Applies `changes` to the document `id` of `collection` where it exists (a projection never creates it here). */
export async function amendDoc<T extends Doc = Doc>(
  tx: ProjectionTransaction,
  collection: string,
  id: string,
  changes: Partial<T>,
): Promise<void> {
  const doc = await tx.get<T>(collection, id);
  if (doc) tx.put(collection, { ...doc, ...changes });
}
