import { RecentCache, streams } from '#domain/primitives.js';
import { evolveLedger, initialLedgerState, type LedgerEvent, type LedgerState } from '#domain/ledger/ledger.js';
import { WEBHOOK_CONFIG_EVENTS, type WebhookConfigEvent } from '#domain/webhooks/webhook-config.js';
import type { WebhookEnvelope } from '#domain/webhooks/webhook-delivery.js';
import {
  WEBHOOK_EVENT_MAP,
  type InternalAccountResource,
  type WebhookSourceEvent,
  type WebhookSources,
} from '#domain/webhooks/webhook-event-map.js';
import { webhookIdsFor } from '#domain/webhooks/webhook-ids.js';
import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import { writerOf } from '#application/queries/caught-up-read.js';
import { stripPlatform } from '#application/queries/list-query.js';
import { Collections } from '#read-models/projections/collections.js';
import {
  toInternalAccount,
  type FundingPlatform,
  type InternalAccountDoc,
} from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';

const CACHE_LIMIT = 1000;

/** One webhook an event of the log makes: its ids (derived from the event and its place) and its envelope. */
export interface EventWebhook {
  webhookId: string;
  deliveryId: string;
  /** Its place among the event's webhooks. */
  index: number;
  payload: WebhookEnvelope;
}

/** The platform whose webhook endpoint an event of the log is for, when it makes webhooks (WEBHOOK_EVENT_MAP). */
export function webhookPlatformOf(event: WebhookSourceEvent): string | undefined {
  return WEBHOOK_EVENT_MAP[event.type]?.platform(event);
}

/**
 * The webhooks an event of the log makes, as every sender builds them: the event map's drafts in its order, each
 * with the ids derived from the event id and its index, so the dispatcher's deliveries and `listen`'s forwards of
 * one event carry the same ids and envelopes.
 */
export async function webhooksOf(event: WebhookSourceEvent, sources: WebhookSources): Promise<EventWebhook[]> {
  const mapping = WEBHOOK_EVENT_MAP[event.type];
  if (!mapping) return [];
  const drafts = await mapping.webhooks(event, sources);
  return drafts.map((draft, index) => {
    const { webhookId, deliveryId } = webhookIdsFor(event.id, index);
    const payload: WebhookEnvelope = { id: webhookId, type: draft.type, timestamp: draft.timestamp, data: draft.data };
    return { webhookId, deliveryId, index, payload };
  });
}

/**
 * Each platform's endpoint as of any position of the log: the configuration stream is short, so
 * its events are kept and folded up to the position asked for. Events the dispatcher sees in the
 * log are added to what was read, so a configuration change is picked up without reading again.
 */
export class EndpointHistory {
  private readonly configs = new RecentCache<string, RecordedEvent[]>(CACHE_LIMIT);

  constructor(private readonly store: EventStore) {}

  observe(event: RecordedEvent): void {
    if (!WEBHOOK_CONFIG_EVENTS.has(event.type)) return;
    const platformId = (event.data as { platformId?: string }).platformId;
    const known = platformId ? this.configs.get(platformId) : undefined;
    if (known && (known.length === 0 || known[known.length - 1].position < event.position)) known.push(event);
  }

  async endpointAt(platformId: string, position: bigint): Promise<string | null> {
    let events = this.configs.get(platformId);
    if (!events) {
      events = await this.store.readStream(streams.webhooks(platformId));
      this.configs.set(platformId, events);
    }
    let endpoint: string | null = null;
    for (const recorded of events) {
      if (recorded.position > position) break;
      const event = { type: recorded.type, data: recorded.data } as WebhookConfigEvent;
      if (event.type === 'WebhookEndpointChanged') endpoint = event.data.webhookEndpoint;
    }
    return endpoint;
  }
}

/**
 * Platform ledgers folded event by event with the ledger's own `evolve`, so a balance webhook
 * carries the balance right after its transfer even when the read model has moved on. Events the
 * dispatcher did not fold (skipped platforms, a restart) are read from the stream to fill the gap.
 */
export class LedgerReplay {
  private readonly ledgers = new RecentCache<string, { state: LedgerState; revision: bigint }>(CACHE_LIMIT);

  constructor(private readonly store: EventStore) {}

  async after(event: WebhookSourceEvent): Promise<LedgerState> {
    let entry = this.ledgers.get(event.streamName);
    // Ahead of this event (resubscribed from an older checkpoint): fold again from the start.
    if (!entry || entry.revision >= event.revision) entry = { state: initialLedgerState(), revision: -1n };
    if (entry.revision < event.revision - 1n) {
      const missing = await this.store.readStream(event.streamName, {
        fromRevision: entry.revision + 1n,
        maxCount: Number(event.revision - entry.revision - 1n),
      });
      for (const e of missing) {
        evolveLedger(entry.state, { type: e.type, data: e.data } as LedgerEvent);
        entry.revision = e.revision;
      }
    }
    evolveLedger(entry.state, { type: event.type, data: event.data } as LedgerEvent);
    entry.revision = event.revision;
    this.ledgers.set(event.streamName, entry);
    return entry.state;
  }
}

/** How the event map's reads wait for the read models to include the events being mapped. */
export interface ReadModelsPassing {
  /** The read models have passed the events, as this process knows them (asked once for a batch). */
  passed(): Promise<void>;
  /**
   * `projection`'s checkpoint in the store has passed the events. A rebuild (`read-models:rebuild`, in any process)
   * drops a projection's checkpoint with its documents, so this waits for its replay to pass them again.
   */
  storedPassed(projection: string): Promise<void>;
}

/** How many times a document found missing is read again, each after its projection passed the events in the store. */
const MISSING_REREADS = 3;

/** How often a stored checkpoint is read while a rebuild replays its projection. */
const STORED_CHECKPOINT_POLL_MS = 50;

/**
 * Resolves once `projection`'s checkpoint in `readModels` has passed `position`, reading it every `intervalMs` (a
 * ReadModelsPassing's `storedPassed` for a process on real time); rejects once `stopped()`.
 */
export async function storedCheckpointPassed(
  readModels: Pick<ReadModelStore, 'getCheckpoint'>,
  projection: string,
  position: bigint,
  { intervalMs = STORED_CHECKPOINT_POLL_MS, stopped }: { intervalMs?: number; stopped: () => boolean },
): Promise<void> {
  while (((await readModels.getCheckpoint(projection)) ?? -1n) < position) {
    if (stopped()) throw new Error(`stopped while waiting for the read models (${projection}) to pass ${position}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * The ReadModelsPassing of a process on real time mapping the events up to `position`: `passed` as the process
 * knows it, and the stored checkpoints read until they pass `position` (`storedCheckpointPassed`); stops once
 * `stopped()`.
 */
export function passingUpTo(
  readModels: Pick<ReadModelStore, 'getCheckpoint'>,
  position: bigint,
  passed: () => Promise<void>,
  stopped: () => boolean,
): ReadModelsPassing {
  return {
    passed,
    storedPassed: (projection) => storedCheckpointPassed(readModels, projection, position, { stopped }),
  };
}

/**
 * What the event map reads: customers and internal accounts as the API shows them, read once the read models have
 * passed the events being mapped (`passing`), and ledgers folded by `ledgers`. A document found missing is read
 * again once the projection that writes it has passed the events in the store: a rebuild under way drops documents
 * after the read models passed them, and a webhook must not be planned from their absence.
 */
export function webhookSources(
  readModels: ReadModelStore,
  passing: ReadModelsPassing,
  ledgers: LedgerReplay,
): WebhookSources {
  let passed: Promise<void> | undefined;
  const read = async <T extends Doc>(collection: string, id: string): Promise<T | undefined> => {
    await (passed ??= passing.passed());
    for (let reread = 0; ; reread++) {
      const doc = await readModels.get<T>(collection, id);
      if (doc || reread === MISSING_REREADS) return doc;
      await passing.storedPassed(writerOf(collection));
    }
  };
  return {
    async customer(id) {
      const doc = await read(Collections.customers, id);
      return doc ? stripPlatform(doc) : undefined;
    },
    async internalAccount(id) {
      const doc = await read<InternalAccountDoc>(Collections.internalAccounts, id);
      if (!doc) return undefined;
      const platform = await read<Doc & FundingPlatform>(Collections.platforms, doc.platformId);
      // The resource keeps the document's owner and balance.
      return toInternalAccount(doc, platform) as InternalAccountResource;
    },
    ledgerAfter: (event) => ledgers.after(event),
  };
}
