import { evolveLedger, initialLedgerState, type LedgerEvent } from '../ledger/ledger.js';
import { currency } from '../primitives.js';
import {
  WEBHOOK_EVENT_MAP,
  type InternalAccountResource,
  type WebhookSourceEvent,
  type WebhookSources,
} from './webhook-event-map.js';

/** A read-model document as the fixtures give it. */
type Doc = Record<string, unknown> & { id: string };

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
): WebhookSourceEvent => ({
  id: `event-${++position}`,
  type,
  data,
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

/**
 * Read models as documents (shown as the API shows them: without the platform, and an account without its ledger
 * fields); the ledger folded from the given events up to the one asked for.
 */
export function sources(docs: Doc[], ledgerEvents: WebhookSourceEvent[]): WebhookSources {
  return {
    async customer(id) {
      const doc = docs.find((d) => d.id === id && 'customerType' in d);
      if (!doc) return undefined;
      const { platformId: _platformId, ...customer } = doc;
      return customer;
    },
    async internalAccount(id) {
      const doc = docs.find((d) => d.id === id && 'balance' in d);
      if (!doc) return undefined;
      const { platformId: _platformId, ledger: _ledger, currency: _currency, ...account } = doc;
      return account as unknown as InternalAccountResource;
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

export const map = async (event: WebhookSourceEvent, src: WebhookSources = sources([], [])) => {
  const mapping = WEBHOOK_EVENT_MAP[event.type];
  return { platform: mapping.platform(event), webhooks: await mapping.webhooks(event, src) };
};
