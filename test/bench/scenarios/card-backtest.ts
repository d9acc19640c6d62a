import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CardBacktests } from '#application/cards/card-backtest.js';
import { cardDecider } from '#domain/cards/card.js';
import type { CardEvent } from '#domain/cards/card-types.js';
import { SqliteEventStore } from '#event-store/sqlite/event-store.js';
import { fmt, round, type Scenario } from '../scenario.js';

const AUTHORIZATIONS = 100_000;
/** Events per append (well under the store's 1 MiB per append). */
const BATCH = 500;
const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** A card's stream: created, issued, then one approved authorization of 300 a minute (mcc 5814 or 5411). */
function history(platformId: string, cardId: string, customerId: string): CardEvent[] {
  const fundingSource = `InternalAccount:${randomUUID()}`;
  const decide = (events: CardEvent[], cmd: Parameters<typeof cardDecider.decide>[0]) => {
    const state = events.reduce(cardDecider.evolve, cardDecider.initialState());
    return [...events, ...cardDecider.decide(cmd, state)];
  };
  const holderAccounts = [
    { id: fundingSource, type: 'EMBEDDED_WALLET' as const, currency: 'USD', status: 'ACTIVE' as const },
  ];
  const created = { type: 'CreateCard' as const, cardId, platformId, customerId, platformCardId: 'bench' };
  const command = { ...created, holderKycStatus: 'APPROVED' as const, holderAccounts, issuanceSeed: 'bench' };
  const now = new Date(START).toISOString();
  let events = decide([], { ...command, fundingSources: [fundingSource], sandbox: true, now });
  events = decide(events, { type: 'CompleteIssuance', now });
  for (let i = 0; i < AUTHORIZATIONS; i++) {
    const at = new Date(START + MINUTE + i * MINUTE).toISOString();
    const authorization = {
      id: `CardAuthorization:${randomUUID()}`,
      cardId,
      customerId,
      amount: '300',
      currency: 'USD',
      merchant: { descriptor: 'BENCH SHOP', mcc: i % 3 === 0 ? '5411' : '5814', country: 'US' },
      status: 'APPROVED' as const,
      declineReason: null,
      fundingSourceId: fundingSource,
      holdTransferId: `Transfer:${randomUUID()}`,
      transferIds: [],
      clearedAmount: '0',
      returnedAmount: '0',
      latePresentment: false,
      activity: [{ type: 'AUTHORIZATION' as const, amount: '300', result: 'APPROVED' as const, createdAt: at }],
      createdAt: at,
      updatedAt: at,
    };
    events.push({ type: 'CardAuthorizationRecorded', data: { platformId, cardId, authorization } });
  }
  return events;
}

/**
 * A spending-controls backtest over a card that recorded 100,000 authorizations (one a minute, about 70 days),
 * through the application's CardBacktests on the embedded event store: the card's stream read in pages and replayed
 * once against a draft (a daily limit and a blocked category). No raw reference: the figure is the time it answers in.
 */
export const cardBacktest: Scenario = {
  name: 'card-backtest',
  description: `a spending-controls backtest over ${fmt(AUTHORIZATIONS)} recorded authorizations of one card`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-backtest-'));
    const store = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const platformId = `Platform:${randomUUID()}`;
      const cardId = `Card:${randomUUID()}`;
      const stream = `card-${cardId.slice('Card:'.length)}`;
      const events = history(platformId, cardId, `Customer:${randomUUID()}`);
      const metadata = { platformId, actor: 'bench', correlationId: randomUUID() };
      for (let i = 0; i < events.length; i += BATCH) {
        const batch = events.slice(i, i + BATCH).map((e) => ({ type: e.type, data: e.data, metadata }));
        await store.appendToStream(stream, batch as never);
      }
      const backtests = new CardBacktests(store);
      const draft = { dailyLimit: 30_000, blockedMerchantCategories: ['5411'] };
      const period = { from: new Date(START).toISOString(), to: new Date(START + 100 * 86_400_000).toISOString() };
      const times: number[] = [];
      let report: Awaited<ReturnType<CardBacktests['backtest']>> | undefined;
      for (let run = 0; run < 3; run++) {
        const t0 = performance.now();
        report = await backtests.backtest(platformId, cardId, draft, period);
        times.push(performance.now() - t0);
      }
      if (report!.authorizations !== AUTHORIZATIONS) throw new Error(`replayed ${report!.authorizations}`);
      const best = Math.min(...times);
      const lines = [
        `${fmt(AUTHORIZATIONS)} authorizations replayed in ${round(best / 1000, 2)} s (best of 3; ` +
          `${times.map((t) => round(t / 1000, 2)).join(', ')} s): ${fmt(AUTHORIZATIONS / (best / 1000))} a second`,
        `draft approves ${fmt(report!.draftApproved.count)}; ${fmt(report!.changed.count)} decisions change ` +
          `(${fmt(report!.changes.length)} listed)`,
      ];
      const figures = {
        authorizations: AUTHORIZATIONS,
        bestSeconds: round(best / 1000, 2),
        authorizationsPerSecond: round(AUTHORIZATIONS / (best / 1000)),
      };
      return { lines, ratio: null, figures };
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
