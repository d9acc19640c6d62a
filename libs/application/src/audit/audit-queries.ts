import { Inject, Injectable } from '@nestjs/common';
import { ledgerLegs, ledgerPostings, ledgerTotals, toCustomerResource } from '#domain/audit/as-of.js';
import { effectiveTimes, eventsUpTo, fold, type HistoryEntry, pageOf, toHistoryEntry } from '#domain/audit/history.js';
import { cardDecider, toCardResource } from '#domain/cards/card.js';
import type { CardEvent } from '#domain/cards/card-types.js';
import { customerDecider, type CustomerEvent } from '#domain/customers/customer.js';
import { notFound } from '#domain/errors.js';
import { streams } from '#domain/primitives.js';
import type { PlatformEvent } from '#domain/platforms/platform.js';
import { quoteDecider, type QuoteEvent } from '#domain/payments/quotes/quote.js';
import {
  toTransactionResource,
  transactionDecider,
  type TransactionEvent,
} from '#domain/payments/transactions/transaction.js';
import type { EventStore, RecordedEvent } from '#event-store/event-store.js';
import { Collections } from '#read-models/projections/collections.js';
import {
  type InternalAccountDoc,
  openAccountDoc,
  toInternalAccount,
} from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import type { SetAsideEventDoc } from '#read-models/runner/set-aside-events.js';
import { getForPlatform, listForPlatform, stripPlatform } from '../queries/list-query.js';
import { EVENT_STORE, READ_MODELS } from '../tokens.js';

export type AuditResource = 'cards' | 'transactions' | 'internal-accounts' | 'customers';
type StreamResource = Exclude<AuditResource, 'internal-accounts'>;
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

const typed = <E>(events: readonly RecordedEvent[]) =>
  events.map((e) => ({ type: e.type, data: e.data }) as unknown as E);
const KIND: Record<AuditResource, string> = {
  cards: 'CARD',
  transactions: 'TRANSACTION',
  'internal-accounts': 'INTERNAL_ACCOUNT',
  customers: 'CUSTOMER',
};
const latest = (first: string, times: string[]) =>
  times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a), first);

/**
 * Audit read side: histories and point-in-time states folded from the event log. The read models
 * only say where a resource's events are (a quote's stream, an account's owner); the answer comes
 * from the events. Scoped to the caller's platform: another platform's resource is a 404.
 */
@Injectable()
export class AuditQueries {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
  ) {}

  async history(platformId: string, resource: AuditResource, id: string, page: PageRequest) {
    if (resource === 'internal-accounts') {
      await this.ownAccount(platformId, id);
      return pageOf(ledgerPostings(await this.events.readStream(streams.ledger(platformId)), id), page);
    }
    const events = await this.ownStream(platformId, resource, id);
    return pageOf<HistoryEntry>(events.map(toHistoryEntry), page);
  }

  /** The platform's events that a shared processor set aside with their failure, newest first (see SetAsidePolicy). */
  setAsideEvents(platformId: string, page: PageRequest) {
    const request = { filters: [], sortBy: 'setAsideAt', sortOrder: 'desc' as const, ...page };
    return listForPlatform<SetAsideEventDoc>(this.store, Collections.setAsideEvents, platformId, request, (doc) => {
      const { id: _id, ...rest } = stripPlatform(doc);
      return rest;
    });
  }

  /**
   * The ledger legs a transaction moved (holds, posts, voids and settled transfers referencing it), in ledger order.
   */
  async transactionLedger(platformId: string, id: string, page: PageRequest) {
    await this.ownStream(platformId, 'transactions', id);
    return pageOf(ledgerLegs(await this.events.readStream(streams.ledger(platformId)), id), page);
  }

  async state(platformId: string, resource: AuditResource, id: string, asOf: Date): Promise<Record<string, unknown>> {
    if (resource === 'internal-accounts') return this.accountAsOf(platformId, id, asOf);
    const events = eventsUpTo(await this.ownStream(platformId, resource, id), asOf);
    const missing = () => notFound(KIND[resource], id);
    switch (resource) {
      case 'cards': {
        const state = fold(cardDecider.initialState(), cardDecider.evolve, typed<CardEvent>(events));
        if (!state.card) throw missing();
        return { ...toCardResource(state.card) };
      }
      case 'customers': {
        const state = fold(customerDecider.initialState(), customerDecider.evolve, typed<CustomerEvent>(events));
        if (!state.exists) throw missing();
        const times = effectiveTimes(events).map((t) => new Date(t).toISOString());
        return toCustomerResource(state, { createdAt: times[0], updatedAt: times[times.length - 1] });
      }
      case 'transactions': {
        const tx = events[0]?.streamName.startsWith('quote-')
          ? fold(quoteDecider.initialState(), quoteDecider.evolve, typed<QuoteEvent>(events)).transaction
          : fold(transactionDecider.initialState(), transactionDecider.evolve, typed<TransactionEvent>(events))
              .transaction;
        if (!tx) throw missing();
        return toTransactionResource(tx);
      }
    }
  }

  /** The events of the stream that holds the resource, after checking it belongs to the platform. */
  private async ownStream(platformId: string, resource: StreamResource, id: string): Promise<RecordedEvent[]> {
    const events = await this.events.readStream(await this.streamOf(platformId, resource, id));
    if (events.length === 0 || events[0].data.platformId !== platformId) throw notFound(KIND[resource], id);
    return events;
  }

  private async streamOf(platformId: string, resource: StreamResource, id: string): Promise<string> {
    if (resource === 'cards') return streams.card(id);
    if (resource === 'customers') return streams.customer(id);
    // A transaction created from a quote lives in the quote's stream (see PaymentRef).
    const doc = await this.store.get<Doc & { platformId: string; quoteId?: string }>(Collections.transactions, id);
    if (doc?.platformId === platformId && typeof doc.quoteId === 'string') return streams.quote(doc.quoteId);
    return streams.transaction(id);
  }

  /** Which stream opened the account: its customer's, or the platform's for settlement accounts. */
  private async ownAccount(platformId: string, id: string): Promise<{ stream: string; customerId?: string }> {
    const collection = Collections.internalAccounts;
    const doc = await getForPlatform<InternalAccountDoc>(this.store, collection, 'INTERNAL_ACCOUNT', platformId, id);
    if (!doc.customerId) return { stream: streams.platform(platformId) };
    return { stream: streams.customer(doc.customerId), customerId: doc.customerId };
  }

  /** The account as opened and changed by its owner's stream up to asOf, without ledger totals yet. */
  private openedAsOf(platformId: string, id: string, owner: RecordedEvent[], customerId?: string) {
    if (!customerId) {
      const opened = typed<PlatformEvent>(owner).find(
        (e) => e.type === 'PlatformAccountOpened' && e.data.accountId === id,
      );
      if (opened?.type !== 'PlatformAccountOpened') return undefined;
      return openAccountDoc({ ...opened.data, status: 'ACTIVE' });
    }
    const customer = fold(customerDecider.initialState(), customerDecider.evolve, typed<CustomerEvent>(owner));
    const account = customer.accounts.get(id);
    const opened = owner.find((e) => e.type === 'InternalAccountOpened' && e.data.accountId === id);
    if (!account || !opened) return undefined;
    const { type, currency, status } = account;
    const createdAt = String(opened.data.createdAt);
    return openAccountDoc({ accountId: id, platformId, customerId, type, currency, status, createdAt });
  }

  private async accountAsOf(platformId: string, id: string, asOf: Date): Promise<Record<string, unknown>> {
    const { stream, customerId } = await this.ownAccount(platformId, id);
    const owner = eventsUpTo(await this.events.readStream(stream), asOf);
    const doc = this.openedAsOf(platformId, id, owner, customerId);
    if (!doc) throw notFound('INTERNAL_ACCOUNT', id);
    const ledger = eventsUpTo(await this.events.readStream(streams.ledger(platformId)), asOf);
    const { balance, ...totals } = ledgerTotals(ledger, id);
    const ownerTimes = effectiveTimes(owner);
    const touched = [
      ...owner.flatMap((e, i) => (e.data.accountId === id ? [new Date(ownerTimes[i]).toISOString()] : [])),
      ...ledgerPostings(ledger, id).flatMap((p) => (p.occurredAt ? [p.occurredAt] : [])),
    ];
    const updatedAt = latest(doc.createdAt, touched);
    const resource = { ...doc, ledger: totals, balance: { ...doc.balance, amount: Number(balance) }, updatedAt };
    if (doc.type === 'EMBEDDED_WALLET') {
      // The privacy flag lives in the wallet stream (WalletPrivacyChanged), as the read model takes it.
      const wallet = eventsUpTo(await this.events.readStream(streams.wallet(id)), asOf);
      const last = wallet.filter((e) => e.type === 'WalletPrivacyChanged').at(-1);
      if (last) {
        resource.privateEnabled = Boolean(last.data.privateEnabled);
        resource.updatedAt = latest(updatedAt, [String(last.data.updatedAt)]);
      }
    }
    return toInternalAccount(resource);
  }
}
