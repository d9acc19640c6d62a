import { describe, expect, it } from '@jest/globals';
import { writerOf } from '#application/queries/caught-up-read.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { EventStore } from '#event-store/event-store.js';
import { LedgerReplay, storedCheckpointPassed, webhookSources } from './sources.js';

/** Read models whose customer document appears once `appearsAfter` rereads were asked for. */
function readModels(appearsAfter: number) {
  const waits: string[] = [];
  const store = {
    get: async (_collection: string, id: string) =>
      waits.length >= appearsAfter ? { id, platformId: 'Platform:p', fullName: 'Ada' } : undefined,
  } as unknown as ReadModelStore;
  let passed = 0;
  const passing = {
    passed: async () => void passed++,
    storedPassed: async (projection: string) => void waits.push(projection),
  };
  const sources = webhookSources(store, passing, new LedgerReplay({} as EventStore));
  return { sources, waits, passedCount: () => passed };
}

describe('what the webhook event map reads', () => {
  it('reads a document once the read models passed the batch, waiting for that once', async () => {
    const { sources, waits, passedCount } = readModels(0);
    expect(await sources.customer('Customer:a')).toEqual({ id: 'Customer:a', fullName: 'Ada' });
    expect(await sources.customer('Customer:b')).toBeDefined();
    expect({ passed: passedCount(), rereads: waits }).toEqual({ passed: 1, rereads: [] });
  });

  it('reads a missing document again once its projection passed the batch in the store (after a rebuild)', async () => {
    const { sources, waits } = readModels(2);
    expect(await sources.customer('Customer:a')).toEqual({ id: 'Customer:a', fullName: 'Ada' });
    const customers = writerOf(Collections.customers);
    expect(waits).toEqual([customers, customers]);
  });

  it('answers that a document is missing after three rereads', async () => {
    const { sources, waits } = readModels(Infinity);
    expect(await sources.customer('Customer:a')).toBeUndefined();
    expect(waits).toHaveLength(3);
  });

  it('waits for a stored checkpoint to pass a position, and stops when told', async () => {
    const checkpoints = [undefined, 4n, 9n, 10n];
    const store = { getCheckpoint: async () => checkpoints.shift() };
    await storedCheckpointPassed(store, 'customers', 10n, { intervalMs: 0, stopped: () => false });
    expect(checkpoints).toEqual([]);
    const behind = { getCheckpoint: async () => 3n };
    await expect(
      storedCheckpointPassed(behind, 'customers', 10n, { intervalMs: 0, stopped: () => true }),
    ).rejects.toThrow(/stopped while waiting/);
  });
});
