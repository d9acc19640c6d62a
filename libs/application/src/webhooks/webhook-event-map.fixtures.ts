import { evolveLedger, initialLedgerState, type LedgerEvent } from '#domain/ledger/ledger.js';
import { currency } from '#domain/money.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Doc } from '#read-models/read-model-store.js';
import { WEBHOOK_EVENT_MAP, type WebhookSources } from './webhook-event-map.js';

/** Shared by the unit specs of the event -> webhook table. */
export const platformUuid = '00000000-0000-4000-8000-0000000000aa';
export const platformId = `Platform:${platformUuid}`;
export const customerId = 'Customer:00000000-0000-4000-8000-000000000001';
export const alice = 'InternalAccount:00000000-0000-4000-8000-000000000011';
export const bob = 'InternalAccount:00000000-0000-4000-8000-000000000012';
export const settlement = 'InternalAccount:00000000-0000-4000-8000-000000000099';

let position = 0n;
export const recorded = (
  type: string,
  data: Record<string, unknown>,
  streamName = 'x-1',
  revision = 0n,
): RecordedEvent => ({
  id: `event-${++position}`,
  type,
  data,
  metadata: {},
  streamName,
  revision,
  position,
  recordedAt: new Date(0),
});

export const accountDoc = (id: string, owner?: string): Doc => ({
  id,
  platformId,
  ...(owner ? { customerId: owner } : {}),
  type: 'INTERNAL_FIAT',
  status: 'ACTIVE',
  currency: 'USD',
  balance: { amount: 999, currency: currency('USD') },
  ledger: { debitsPosted: '0', creditsPosted: '999', debitsPending: '0', creditsPending: '0' },
  fundingPaymentInstructions: [],
  createdAt: 't0',
  updatedAt: 't9',
});

/** Read models as documents; the ledger folded from the given events up to the one asked for. */
export function sources(docs: Doc[], ledgerEvents: RecordedEvent[]): WebhookSources {
  return {
    async readModel<T extends Doc>(collection: string, id: string) {
      return docs.find(
        (d) => d.id === id && (collection === Collections.internalAccounts ? 'balance' in d : 'customerType' in d),
      ) as T | undefined;
    },
    async ledgerAfter(event) {
      const state = initialLedgerState();
      for (const e of ledgerEvents) {
        evolveLedger(state, { type: e.type, data: e.data } as LedgerEvent);
        if (e === event) break;
      }
      return state;
    },
  };
}

export const map = async (event: RecordedEvent, src: WebhookSources = sources([], [])) => {
  const mapping = WEBHOOK_EVENT_MAP[event.type];
  return { platform: mapping.platform(event), webhooks: await mapping.webhooks(event, src) };
};
