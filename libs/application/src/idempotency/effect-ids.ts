import type { IdGenerator } from '#domain/primitives.js';
import { derivedUuid } from '#domain/payments/transactions/payment-plan.js';
import type { Actor } from '../tokens.js';

/**
 * The ids of a keyed request's effects, carried by its actor under a symbol: copies of the actor (`{ ...actor }`)
 * keep it, and event metadata, which is stored as JSON, never records it.
 */
const EFFECT_IDS = Symbol('effectIds');

type KeyedActor = Actor & { [EFFECT_IDS]?: IdGenerator };

/**
 * `actor` for a request run under an Idempotency-Key's claim: the ids its effects draw through {@link effectId} (a
 * transfer's, a card's, a payment's) are derived from the claim's `effectsId` and their order instead of drawn at
 * random. A request run again after a takeover (its first run cut off by a crash before its answer was kept, or still
 * running elsewhere when its lease ended) has the first run's `effectsId`, so it names its effects as the first run
 * did: a transfer already applied is the same transfer again (the ledger applies it once), a stream already created
 * is found.
 */
export function keyedActor(actor: Actor, effectsId: string): Actor {
  let drawn = 0;
  const ids: IdGenerator = { uuid: () => derivedUuid(`effects\n${effectsId}\n${drawn++}`) };
  return { ...actor, [EFFECT_IDS]: ids } as KeyedActor;
}

/** A new id for an effect of `actor`'s request: the claim's (see {@link keyedActor}) under a key, `ids`' otherwise. */
export function effectId(actor: Actor, ids: IdGenerator): string {
  return ((actor as KeyedActor)[EFFECT_IDS] ?? ids).uuid();
}

/** The ids of `actor`'s effects, for a helper that draws several (see {@link effectId}). */
export function effectIds(actor: Actor, ids: IdGenerator): IdGenerator {
  return { uuid: () => effectId(actor, ids) };
}
