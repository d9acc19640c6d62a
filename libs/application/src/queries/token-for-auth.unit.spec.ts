import { describe, expect, it, jest } from '@jest/globals';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { caughtUpReads } from './caught-up-read.js';
import { Queries } from './queries.js';
import { useFakeTimers } from '../../../../test/support/fake-timers.js';

const TOKEN = { id: 'ApiToken:1', platformId: 'Platform:1', secretHash: 'h', status: 'ACTIVE' };

/** A read-model store whose tokens' projection has reached `checkpoint`, holding the token once it reached 10. */
function store(checkpoints: (bigint | undefined)[]) {
  let checkpoint: bigint | undefined;
  const reads = { checkpoints: 0, gets: 0 };
  const fake = {
    async get() {
      reads.gets += 1;
      return checkpoint !== undefined && checkpoint >= 10n ? TOKEN : undefined;
    },
    async getCheckpoint(name: string) {
      expect(name).toBe('platforms');
      reads.checkpoints += 1;
      checkpoint = checkpoints.length > 1 ? checkpoints.shift() : checkpoints[0];
      return checkpoint;
    },
  } as unknown as ReadModelStore;
  return { fake, reads };
}

const head = { headPosition: async () => 10n };

describe('Queries.tokenForAuth on the read models as the application has them (caughtUpReads)', () => {
  useFakeTimers();

  it('a token not replayed yet (a rebuild) is found once its projection reaches the head', async () => {
    const { fake, reads } = store([undefined, 4n, 10n]);
    const found = new Queries(caughtUpReads(fake, head)).tokenForAuth(TOKEN.id);
    await jest.advanceTimersByTimeAsync(100);
    await expect(found).resolves.toEqual(TOKEN);
    expect(reads.checkpoints).toBe(3);
    expect(reads.gets).toBe(2);
  });

  it('a token that does not exist is refused at once when the projection is at the head', async () => {
    const { fake, reads } = store([10n]);
    (fake as unknown as { get: () => Promise<unknown> }).get = async () => undefined;
    await expect(new Queries(caughtUpReads(fake, head)).tokenForAuth('ApiToken:unknown')).resolves.toBeUndefined();
    expect(reads.checkpoints).toBe(1);
  });

  it('gives up after two seconds when the projection does not catch up', async () => {
    const { fake } = store([3n]);
    const found = new Queries(caughtUpReads(fake, head)).tokenForAuth(TOKEN.id);
    await jest.advanceTimersByTimeAsync(1_900);
    let answered = false;
    void found.then(() => (answered = true));
    await Promise.resolve();
    expect(answered).toBe(false);
    await jest.advanceTimersByTimeAsync(200);
    await expect(found).resolves.toBeUndefined();
  });
});
