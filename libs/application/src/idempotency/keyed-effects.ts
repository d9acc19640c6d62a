import { AsyncLocalStorage } from 'node:async_hooks';
import type { IdGenerator } from '#domain/ids.js';
import { derivedUuid } from '#domain/payments/transfers/payment-legs.js';

/** The request under an Idempotency-Key that the current work belongs to, and how many ids it has drawn. */
interface KeyedEffects {
  readonly effectsId: string;
  drawn: number;
}

const current = new AsyncLocalStorage<KeyedEffects>();

/**
 * Runs a request that holds an Idempotency-Key's claim so that the ids it draws (`ctx.ids.uuid()`: a transfer's,
 * a card's, a payment's) are derived from the claim's `effectsId` and their order instead of drawn at random. A
 * request run again after a takeover (its first run cut off by a crash before its answer was kept, or still running
 * elsewhere when its lease ended) has the first run's `effectsId`, so it names its effects as the first run did:
 * a transfer already applied is the same transfer again (a no-op in the ledger), a stream already created is found.
 */
export function withKeyedEffects<T>(effectsId: string, work: () => T): T {
  return current.run({ effectsId, drawn: 0 }, work);
}

/** `ids` as handlers see it: derived within a keyed request (see `withKeyedEffects`), `ids`' own elsewhere. */
export function keyedEffectIds(ids: IdGenerator): IdGenerator {
  return {
    uuid() {
      const keyed = current.getStore();
      if (!keyed) return ids.uuid();
      return derivedUuid(`effects\n${keyed.effectsId}\n${keyed.drawn++}`);
    },
  };
}
