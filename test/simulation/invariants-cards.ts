import { cardDecider } from '#domain/cards/card.js';
import type { CardAggregate, CardAuthorizationRecord, CardEvent } from '#domain/cards/card-types.js';
import { streams } from '#domain/primitives.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import { InvariantViolation, foldLedger } from './invariants.js';
import { CARD_CONTROLS } from './workload-cards.js';
import type { World } from './world.js';

const fail = (invariant: string, detail: string, ...streamNames: string[]): never => {
  throw new InvariantViolation(invariant, detail, streamNames);
};

/**
 * Cards keep their rules: a CLOSED card never changes state again, no approval is recorded on a card that is CLOSED
 * or not issued yet (one decided before a freeze stands: card-authorization.ts), and no approval passes the card's
 * per-authorization or daily limit.
 */
export function checkCards(log: MemoryLog, world: World): void {
  for (const card of world.cards) {
    const stream = streams.card(card.id);
    let state: CardAggregate = cardDecider.initialState();
    const daily = new Map<string, bigint>();
    for (const e of log.streams.get(stream) ?? []) {
      const event = { type: e.type, data: e.data } as CardEvent;
      const before = state.card?.state;
      if (event.type === 'CardStateChanged' && before === 'CLOSED')
        fail('cards: a CLOSED card stays closed', `${event.data.card.state} after CLOSED`, stream);
      if (event.type === 'CardAuthorizationRecorded') {
        const authorization = event.data.authorization as CardAuthorizationRecord;
        if (authorization.status === 'APPROVED') {
          if (before !== 'ACTIVE' && before !== 'FROZEN')
            fail('cards: no approval on a closed or unissued card', `approved on a ${before} card`, stream);
          const amount = BigInt(authorization.amount);
          const day = authorization.createdAt.slice(0, 10);
          daily.set(day, (daily.get(day) ?? 0n) + amount);
          if (
            amount > BigInt(CARD_CONTROLS.perAuthorizationLimit) ||
            daily.get(day)! > BigInt(CARD_CONTROLS.dailyLimit)
          )
            fail('cards: no limit exceeded', `${amount} approved, ${daily.get(day)} on ${day}`, stream);
        }
      }
      state = cardDecider.evolve(state, event);
    }
  }
}

/**
 * Once every timer has fired (the run's end moves the clock past the authorizations' validity): no card hold is
 * left open, and each was released or posted as its authorization says.
 */
export function checkCardHoldsReleased(log: MemoryLog, world: World): void {
  for (const platform of world.platforms) {
    const stream = streams.ledger(platform.id);
    const ledger = foldLedger(log.streams.get(stream) ?? []);
    for (const transfer of ledger.transfers.values()) {
      if (transfer.code !== 'CARD_AUTHORIZATION' || !transfer.pending || transfer.resolution) continue;
      fail('cards: every hold is released in the end', `${transfer.id} for ${String(transfer.reference)}`, stream);
    }
  }
}
