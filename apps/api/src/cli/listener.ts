import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProjectionWaiter } from '#application/command-runner.js';
import type { PlatformClocks } from '#application/command-context.js';
import type { SecretBox } from '#crypto/secret-box.js';
import { notFound } from '#domain/errors.js';
import { streams } from '#domain/primitives.js';
import { webhookConfigDecider, webhookSecretNotSet, type WebhookConfigEvent } from '#domain/webhooks/webhook-config.js';
import { attemptOutcome } from '#domain/webhooks/webhook-delivery.js';
import { WEBHOOK_EVENT_MAP } from '#domain/webhooks/webhook-event-map.js';
import { webhookIdsFor } from '#domain/webhooks/webhook-ids.js';
import { CheckpointedSubscription } from '#event-store/checkpointed-subscription.js';
import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { AllowedHost } from '#net/address-policy.js';
import type { Resolver } from '#net/resolve-target.js';
import { postWebhook, type SendResult } from '../../../host/src/webhooks/sender.js';
import { WebhookSigner } from '../../../host/src/webhooks/signer.js';
import {
  LedgerReplay,
  webhookPlatformOf,
  passingUpTo,
  webhookSources,
  webhooksOf,
  type EventWebhook,
} from '../../../host/src/webhooks/sources.js';

/**
 * Where a listener stands: the last webhook it forwarded, the log event that made it and its place among that event's
 * webhooks, and a position of the log before that event (reading after it finds the event again; null: the log's
 * start). Resuming from it forwards exactly the webhooks after this one.
 */
export interface ListenCursor {
  webhookId: string;
  eventId: string;
  index: number;
  after: string | null;
}

/** What a listener reports: each webhook forwarded (`status` 2xx or 409), and each attempt that failed. */
export type ListenReport =
  | { event: 'delivered'; id: string; type: string; timestamp: string; status: number }
  | { event: 'failed'; id: string; type: string; status?: number; error?: string; retryInMs: number };

export interface ListenerDeps {
  eventStore: EventStore;
  readModels: ReadModelStore;
  projections: ProjectionWaiter;
  clocks: PlatformClocks;
  box: SecretBox;
  platformId: string;
  /** The developer's receiver. */
  url: string;
  timeoutMs: number;
  /** Hosts the address policy lets through (the operator's list, and the loopback target named on the command line). */
  allowedHosts: readonly AllowedHost[];
  /** DNS for the receiver's host (the system's unless given). */
  resolve?: Resolver;
  /** Where the last forwarded webhook is kept (see ListenCursor). */
  stateFile: string;
  report(report: ListenReport): void;
  /** Told once while the read models lag the log (is the service running?). */
  warn(message: string): void;
  /** First wait before retrying a failed webhook (doubled per failure, at most `maxRetryMs`); default 250 ms. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/** Types of the log that make webhooks: the only ones a search for a webhook id reads. */
const MAPPED_TYPES = Object.keys(WEBHOOK_EVENT_MAP);
/** The most webhooks one event of the log makes, as far as a search for a webhook id looks. */
const MAX_WEBHOOKS_PER_EVENT = 64;
const SEARCH_PAGE = 1000;

/** The state file of a platform's listener under the data directory. */
export const listenStateFile = (dataDir: string, platformId: string) =>
  join(dataDir, 'listen', `${platformId.split(':')[1]}.json`);

export function readListenState(file: string): ListenCursor | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { last?: ListenCursor }).last;
  } catch {
    return undefined;
  }
}

function writeListenState(file: string, platformId: string, last: ListenCursor): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify({ platformId, last }) + '\n');
  renameSync(temporary, file);
}

/**
 * Finds where the platform's webhook `webhookId` stands in the log: from the state file when it is the last one
 * forwarded, else by reading the log's mapped events for the event whose derived webhook ids include it.
 */
export async function locateWebhook(
  store: EventStore,
  platformId: string,
  webhookId: string,
  saved?: ListenCursor,
): Promise<ListenCursor> {
  if (saved?.webhookId === webhookId) return saved;
  let after: bigint | undefined;
  for (;;) {
    const page = await store.readAll({
      ...(after === undefined ? {} : { after }),
      maxCount: SEARCH_PAGE,
      types: MAPPED_TYPES,
    });
    for (const event of page) {
      if (webhookPlatformOf(event) === platformId)
        for (let index = 0; index < MAX_WEBHOOKS_PER_EVENT; index++)
          if (webhookIdsFor(event.id, index).webhookId === webhookId)
            return { webhookId, eventId: event.id, index, after: after === undefined ? null : String(after) };
      after = event.position;
    }
    if (page.length < SEARCH_PAGE) throw notFound('WEBHOOK', webhookId);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

/**
 * Forwards one platform's webhooks from the event log to a developer's URL, one at a time in log order: each event
 * the platform's webhooks come from is turned into webhooks as the dispatcher does (`webhooksOf`: the same ids and
 * envelopes, timestamps on the platform's clock) and signed as deliveries are (`WebhookSigner`: both signatures).
 * A webhook is retried, with a short backoff, until the receiver takes it (2xx or 409); the ones after it wait, so
 * the order holds. After each one the cursor is written to the state file.
 */
export class WebhookListener {
  private readonly feed: CheckpointedSubscription;
  private readonly ledgers: LedgerReplay;
  private readonly stopping = new AbortController();
  /** The log position the feed (re)subscribes after: every event up to it is handled. */
  private after: bigint | undefined;
  /** The last webhook forwarded: an event taken up again half-way skips its webhooks up to this one. */
  private last: ListenCursor | undefined;
  private warned = false;
  forwarded = 0;

  constructor(
    private readonly deps: ListenerDeps,
    start: { after?: bigint; last?: ListenCursor },
  ) {
    this.after = start.after;
    this.last = start.last;
    this.ledgers = new LedgerReplay(deps.eventStore);
    this.feed = new CheckpointedSubscription(deps.eventStore, {
      resume: async () => (this.after === undefined ? {} : { after: this.after }),
      handle: (batch) => this.handle(batch),
      batchSize: 64,
      retryDelayMs: 1000,
      onFailure: (error, delay) =>
        this.stopping.signal.aborted || deps.warn(`reading the log failed (${String(error)}); again in ${delay} ms`),
    });
  }

  /** The last webhook forwarded (or the one resumed after). */
  get cursor(): ListenCursor | undefined {
    return this.last;
  }

  start(): Promise<void> {
    return this.feed.start();
  }

  /** Stops after the webhook being sent (a retry's wait ends at once); what was forwarded is in the state file. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.feed.stop();
  }

  private async handle(batch: RecordedEvent[]): Promise<void> {
    for (const event of batch) {
      if (this.stopping.signal.aborted) return;
      if (webhookPlatformOf(event) === this.deps.platformId) {
        const done = await this.forwardEvent(event);
        if (!done) return;
      }
      this.after = event.position;
    }
  }

  /** Forwards the event's webhooks not forwarded yet; false when stopped half-way. */
  private async forwardEvent(event: RecordedEvent): Promise<boolean> {
    const sources = webhookSources(
      this.deps.readModels,
      passingUpTo(
        this.deps.readModels,
        event.position,
        () => this.caughtUp(event.position),
        () => this.stopping.signal.aborted,
      ),
      this.ledgers,
    );
    const webhooks = await webhooksOf(event, sources);
    const resumed = this.last?.eventId === event.id ? this.last.index : -1;
    const after = this.after === undefined ? null : String(this.after);
    for (const webhook of webhooks) {
      if (webhook.index <= resumed) continue;
      if (!(await this.forward(webhook))) return false;
      this.last = { webhookId: webhook.webhookId, eventId: event.id, index: webhook.index, after };
      writeListenState(this.deps.stateFile, this.deps.platformId, this.last);
      this.forwarded++;
    }
    return true;
  }

  /** Sends until the receiver takes it; false when stopped first. */
  private async forward({ webhookId, payload }: EventWebhook): Promise<boolean> {
    const body = JSON.stringify(payload);
    let delay = this.deps.firstRetryMs ?? 250;
    for (;;) {
      if (this.stopping.signal.aborted) return false;
      const result = await this.send(webhookId, body);
      const { statusCode } = result;
      const received =
        attemptOutcome({ statusCode, attempt: 1, maxAttempts: 2, webhookType: payload.type }) === 'DELIVERED';
      const { id, type, timestamp } = payload;
      if (received) {
        this.deps.report({ event: 'delivered', id, type, timestamp, status: statusCode! });
        return true;
      }
      const error = statusCode === undefined ? (result.cause ?? result.error) : undefined;
      this.deps.report({
        event: 'failed',
        id,
        type,
        ...(statusCode !== undefined ? { status: statusCode } : {}),
        ...(error ? { error } : {}),
        retryInMs: delay,
      });
      await sleep(delay, this.stopping.signal);
      delay = Math.min(delay * 2, this.deps.maxRetryMs ?? 5000);
    }
  }

  /** Signs with the platform's current keys (read each time: a rotation is followed at once) and POSTs. */
  private async send(webhookId: string, body: string): Promise<SendResult> {
    const { deps } = this;
    const events = await deps.eventStore.readStream(streams.webhooks(deps.platformId));
    let state = webhookConfigDecider.initialState();
    for (const e of events)
      state = webhookConfigDecider.evolve(state, { type: e.type, data: e.data } as WebhookConfigEvent);
    if (!state.keys) throw webhookSecretNotSet();
    const signer = new WebhookSigner(deps.box, deps.platformId, state.keys, state.previousSecret);
    const platformNow = await deps.clocks.now(deps.platformId);
    // The Standard Webhooks timestamp is real time, as for deliveries: receivers compare it with their own clock.
    const headers = await signer.headers(webhookId, body, new Date(), platformNow);
    const { timeoutMs, allowedHosts, resolve } = deps;
    return postWebhook(deps.url, body, headers, { timeoutMs, allowedHosts, ...(resolve ? { resolve } : {}) });
  }

  /** Snapshots come from read models that include the event; waits as long as it takes, unless stopping. */
  private async caughtUp(position: bigint): Promise<void> {
    for (;;) {
      if (await this.deps.projections.waitForPosition(position, 1000)) return;
      if (this.stopping.signal.aborted) throw new Error('stopped while waiting for the read models');
      if (!this.warned)
        this.deps.warn(`the read models have not reached the log's position ${position}: is the service running?`);
      this.warned = true;
    }
  }
}
