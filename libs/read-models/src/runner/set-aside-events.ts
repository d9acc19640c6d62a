import { describeFailure, type SetAsideFailure } from '#event-store/set-aside.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import { Collections } from '../projections/collections.js';
import { ConcurrentProjectionUpdate, type Doc, type ReadModelStore } from '../read-model-store.js';

/**
 * An event a shared processor could not handle and stepped over (see SetAsidePolicy), kept for the operator: which
 * processor, where in the log, whose event and what failed (the failure's kind and message only). One document per
 * processor and position, so setting the same event aside again (after a restart) rewrites it.
 */
export interface SetAsideEventDoc extends Doc {
  processor: string;
  /** Global log position, as a decimal string. */
  position: string;
  eventId: string;
  eventType: string;
  stream: string;
  /** The event's platform (from its metadata, or its data); null for an event of no platform. */
  platformId: string | null;
  error: string;
  attempts: number;
  recordedAt: string;
  setAsideAt: string;
}

export function setAsideEventDoc(
  processor: string,
  event: RecordedEvent,
  failure: SetAsideFailure,
  now: Date,
): SetAsideEventDoc {
  return {
    id: `${processor}:${event.position}`,
    processor,
    position: event.position.toString(),
    eventId: event.id,
    eventType: event.type,
    stream: event.streamName,
    platformId: [event.metadata?.platformId, event.data?.platformId].find((p) => typeof p === 'string') ?? null,
    error: describeFailure(failure.error),
    attempts: failure.attempts,
    recordedAt: event.recordedAt.toISOString(),
    setAsideAt: now.toISOString(),
  };
}

/** The line a processor logs when it sets an event aside (no event data, only where it is and what failed). */
export function setAsideMessage(doc: SetAsideEventDoc): string {
  return (
    `${doc.processor} set aside event ${doc.eventId} (${doc.eventType}, position ${doc.position}, ` +
    `platform ${doc.platformId ?? 'none'}) after ${doc.attempts} attempts: ${doc.error}`
  );
}

/**
 * Records set-aside events for a processor that keeps no documents of its own (the webhook dispatcher, a reactor):
 * under a checkpoint of its own (`set-aside:<processor>`) that moves to each recorded position, so that recording
 * an event that is already recorded (a restart from an older checkpoint) writes nothing.
 */
export class SetAsideLog {
  private readonly checkpoint: string;

  constructor(
    private readonly store: ReadModelStore,
    private readonly processor: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.checkpoint = `set-aside:${processor}`;
  }

  async record(event: RecordedEvent, failure: { error: unknown; attempts: number }): Promise<SetAsideEventDoc> {
    const doc = setAsideEventDoc(this.processor, event, failure, this.now());
    for (let attempt = 1; ; attempt++) {
      const expected = await this.store.getCheckpoint(this.checkpoint);
      if (expected !== undefined && expected >= event.position) return doc;
      try {
        await this.store.commitBatch(this.checkpoint, expected, event.position, async (tx) => {
          tx.put(Collections.setAsideEvents, doc);
        });
        return doc;
      } catch (error) {
        if (!(error instanceof ConcurrentProjectionUpdate) || attempt >= 5) throw error;
      }
    }
  }
}
