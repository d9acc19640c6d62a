import { Inject, Injectable } from '@nestjs/common';
import { CardBacktest, checkBacktestPeriod, type BacktestPeriod } from '#domain/cards/card-backtest.js';
import { checkSpendingControls, type SpendingControls } from '#domain/cards/card-spending.js';
import type { CardEvent } from '#domain/cards/card-types.js';
import { notFound } from '#domain/errors.js';
import { streams, uuidOf } from '#domain/primitives.js';
import type { EventStore } from '#event-store/event-store.js';
import { EVENT_STORE } from '../tokens.js';

/** Events read from the card's stream at a time: a long history is replayed without holding it all. */
const PAGE = 5_000;

/**
 * Backtests of spending controls: what a draft would have decided of a card's past authorizations. Reads the card's
 * stream from the event log (not the read models) and writes nothing: no command runs, nothing is appended.
 */
@Injectable()
export class CardBacktests {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  /**
   * The draft's decisions over [from, to) for a card of `platformId` (another platform's card, or an unknown one, is
   * 404 CARD_NOT_FOUND; the operator's CLI gives none and reads any card): the changed authorizations, their counts
   * and amounts per pair of decisions, and totals.
   */
  async backtest(
    platformId: string | undefined,
    cardId: string,
    draft: SpendingControls | null,
    period: BacktestPeriod,
  ) {
    const checked = checkBacktestPeriod(period);
    const controls = checkSpendingControls(draft, 'spendingControls');
    if (!uuidOf('Card', cardId)) throw notFound('CARD', cardId);
    const replay = new CardBacktest(controls, checked);
    const stream = streams.card(cardId);
    for (let fromRevision = 0n; ;) {
      const page = await this.events.readStream(stream, { fromRevision, maxCount: PAGE });
      for (const e of page) replay.apply({ type: e.type, data: e.data } as CardEvent);
      const card = replay.card;
      // The first page tells whose card it is: another platform's is not read further.
      if (!card.exists || (platformId !== undefined && card.platformId !== platformId)) throw notFound('CARD', cardId);
      if (page.length < PAGE) break;
      fromRevision = page[page.length - 1].revision + 1n;
    }
    const card = replay.card;
    if (!card.exists) throw notFound('CARD', cardId);
    return { cardId, currency: card.card.currency, ...replay.report() };
  }
}
