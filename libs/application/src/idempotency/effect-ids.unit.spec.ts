import { describe, expect, it } from '@jest/globals';
import type { IdGenerator } from '#domain/primitives.js';
import { effectId, effectIds, keyedActor } from './effect-ids.js';

const actor = { platformId: 'Platform:p', actor: 'ApiToken:t', correlationId: 'c' };
const counting = (): IdGenerator => {
  let n = 0;
  return { uuid: () => `random-${n++}` };
};

describe('the ids of a keyed request’s effects', () => {
  it('are drawn from the generator for a request without a key', () => {
    const ids = counting();
    expect([effectId(actor, ids), effectId(actor, ids)]).toEqual(['random-0', 'random-1']);
  });

  it('are derived from the claim’s effectsId and their order: a second run names its effects as the first did', () => {
    const draw = (effectsId: string) => {
      const keyed = keyedActor(actor, effectsId);
      return [effectId(keyed, counting()), effectIds(keyed, counting()).uuid()];
    };
    const first = draw('e1');
    expect(first[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first[0]).not.toBe(first[1]);
    expect(draw('e1')).toEqual(first);
    expect(draw('e2')).not.toEqual(first);
  });

  it('travel with copies of the actor and never into what is stored', () => {
    const keyed = keyedActor(actor, 'e1');
    const copy = { ...keyed, actor: 'system:decisions' };
    expect(effectId(copy, counting())).toBe(effectId(keyedActor(actor, 'e1'), counting()));
    expect(JSON.parse(JSON.stringify({ ...keyed }))).toEqual(actor);
    expect(structuredClone({ ...keyed })).toEqual(actor);
  });
});
