import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createEventStore } from '#event-store/index.js';
import { SubscriptionEnded, type EventStore } from '#event-store/event-store.js';
import { Scenario, snapshot } from './projection-runner.fixtures.js';
import { ProjectionRunner } from './projection-runner.js';
import type { Projection } from '../projection.js';
import {
  allProjections,
  Collections,
  internalAccountProjection,
  type InternalAccountDoc,
} from '../projections/index.js';
import type { Doc, ReadModelStore } from '../read-model-store.js';
import { SqliteReadModelStore } from '../sqlite/read-model-store.js';

describe('ProjectionRunner with the embedded event store', () => {
  let dir: string;
  let eventStore: EventStore;
  let readModels: ReadModelStore;
  let scenario: Scenario;
  const runners: ProjectionRunner[] = [];
  const runner = (
    projections: Projection[] = allProjections,
    options: ConstructorParameters<typeof ProjectionRunner>[3] = {},
  ) => {
    const r = new ProjectionRunner(eventStore, readModels, projections, options);
    runners.push(r);
    return r;
  };
  const balance = async (accountId: string) =>
    (await readModels.get<InternalAccountDoc>(Collections.internalAccounts, accountId))?.balance.amount;
  const expectBalances = async () => {
    for (const [accountId, amount] of scenario.balances) expect(await balance(accountId)).toBe(Number(amount));
  };

  /** A platform whose customer 1 is funded from settlement with `amount`; answers the position of that transfer. */
  const fundedCustomer = async (amount: bigint) => {
    await scenario.createPlatform();
    const account = await scenario.createCustomer(1);
    return scenario.transfer(scenario.settlementId, account, amount);
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'projection-runner-'));
    eventStore = await createEventStore({ kind: 'sqlite', path: join(dir, 'events.db') });
    readModels = new SqliteReadModelStore(join(dir, 'read-models.db'));
    scenario = new Scenario(eventStore);
  });

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    await readModels.close();
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies new events and resolves waitForPosition once every projection passed the position', async () => {
    const projections = runner();
    await projections.start();
    const position = await fundedCustomer(12_500n);

    expect(await projections.waitForPosition(position, 5000)).toBe(true);
    expect(projections.position).toBeGreaterThanOrEqual(position);
    expect(await readModels.get(Collections.platforms, scenario.platformId)).toMatchObject({
      name: 'Acme Payments',
      platformId: scenario.platformId,
    });
    const customers = await readModels.find(Collections.customers, {
      filters: [{ field: 'platformId', op: 'eq', value: scenario.platformId }],
      limit: 10,
    });
    expect(customers.data).toEqual([
      expect.objectContaining({ platformCustomerId: 'cust-1', kycStatus: 'APPROVED', isDeleted: false }),
    ]);
    await expectBalances();
    // Checkpoints advance over events a projection does not handle (the ledger events here).
    for (const p of allProjections) expect(await readModels.getCheckpoint(p.name)).toBe(position);

    expect(await projections.waitForPosition(position + 100n, 30)).toBe(false);
  });

  it('waits by polling stored checkpoints when this process runs no projector', async () => {
    const worker = runner();
    const api = runner();
    await worker.start();
    const position = await fundedCustomer(700n);
    expect(await api.waitForPosition(position, 5000)).toBe(true);
    expect(api.position).toBe(position);
    await expectBalances();
    expect(await api.waitForPosition(position + 1n, 60)).toBe(false);
  });

  it('applies in batches and resumes after stop from the checkpoints without applying anything twice', async () => {
    await scenario.createPlatform();
    const accounts = [await scenario.createCustomer(1), await scenario.createCustomer(2)];
    for (let i = 0; i < 10; i++) await scenario.transfer(scenario.settlementId, accounts[i % 2], BigInt(100 + i));

    const first = runner(allProjections, { batchSize: 3 });
    await first.start();
    expect(await first.waitForPosition(await eventStore.headPosition(), 5000)).toBe(true);
    await expectBalances();
    await first.stop();

    for (let i = 0; i < 7; i++) await scenario.transfer(accounts[i % 2], accounts[(i + 1) % 2], BigInt(10 + i));
    await scenario.createCustomer(3);
    const head = await eventStore.headPosition();

    const second = runner(allProjections, { batchSize: 4 });
    await second.start();
    expect(await second.waitForPosition(head, 5000)).toBe(true);
    await expectBalances();
    expect((await readModels.find(Collections.customers, { limit: 10 })).totalCount).toBe(3);
  });

  it('recovers from a transiently failed batch by resubscribing from the checkpoints', async () => {
    let failures = 0;
    const flaky: Projection = {
      ...internalAccountProjection,
      async apply(event, tx) {
        await internalAccountProjection.apply(event, tx);
        // Fails the first time the third transfer is applied, after earlier writes in the same batch.
        if (event.type === 'TransferCreated' && event.data.amount === '3' && failures++ === 0)
          throw Object.assign(new Error('simulated crash'), { code: 'SQLITE_BUSY' });
      },
    };
    const errors: unknown[] = [];
    const projections = runner([allProjections[0], allProjections[1], flaky], {
      batchSize: 2,
      retryDelayMs: 0,
      logger: { error: (_m, e) => errors.push(e) },
    });
    await projections.start();
    await scenario.createPlatform();
    const account = await scenario.createCustomer(1);
    for (const amount of [1n, 2n, 3n, 4n, 5n]) await scenario.transfer(scenario.settlementId, account, amount);

    expect(await projections.waitForPosition(await eventStore.headPosition(), 5000)).toBe(true);
    expect(errors).toEqual([expect.objectContaining({ message: 'simulated crash' })]);
    expect(await balance(account)).toBe(15);
    await expectBalances();
    expect((await readModels.find(Collections.setAsideEvents, { limit: 10 })).data).toEqual([]);
  });

  it('sets aside an event one projection keeps failing on, with why, and goes on with every other', async () => {
    const tries: bigint[] = [];
    const poisoned: Projection = {
      ...internalAccountProjection,
      async apply(event, tx) {
        if (event.type === 'TransferCreated' && event.data.amount === '3') {
          tries.push(event.position);
          throw new RangeError('amount 3 does not fit');
        }
        await internalAccountProjection.apply(event, tx);
      },
    };
    const logged: string[] = [];
    const others = allProjections.filter((p) => p.name !== internalAccountProjection.name);
    const projections = runner([...others, poisoned], {
      batchSize: 4,
      retryDelayMs: 0,
      setAside: { attempts: 3, delaysMs: [0] },
      now: () => new Date('2026-01-05T12:00:00.000Z'),
      logger: { error: (message) => logged.push(message) },
    });
    await projections.start();
    await scenario.createPlatform();
    const account = await scenario.createCustomer(1);
    const positions: bigint[] = [];
    for (const amount of [1n, 2n, 3n, 4n, 5n])
      positions.push(await scenario.transfer(scenario.settlementId, account, amount));
    const head = await eventStore.headPosition();

    expect(await projections.waitForPosition(head, 5000)).toBe(true);
    // Wrong for that account alone: the other transfers are in, and every projection is at the head.
    expect(await balance(account)).toBe(12);
    for (const p of allProjections) expect(await readModels.getCheckpoint(p.name)).toBe(head);
    // Tried in its batch, then on its own with every projection, then in this projection alone three times.
    expect(tries).toEqual(Array(5).fill(positions[2]));
    const stored = await readModels.find(Collections.setAsideEvents, { limit: 10 });
    expect(stored.data).toEqual([
      expect.objectContaining({
        id: `projection:${internalAccountProjection.name}:${positions[2]}`,
        processor: `projection:${internalAccountProjection.name}`,
        position: positions[2].toString(),
        eventType: 'TransferCreated',
        platformId: scenario.platformId,
        error: 'RangeError: amount 3 does not fit',
        attempts: 3,
        setAsideAt: '2026-01-05T12:00:00.000Z',
      }),
    ]);
    expect(logged).toEqual([expect.stringContaining('set aside event')]);

    // A restart and a rebuild step over it the same way, to the same record.
    await projections.rebuild([internalAccountProjection.name]);
    expect(await balance(account)).toBe(12);
    expect((await readModels.find(Collections.setAsideEvents, { limit: 10 })).data).toEqual(stored.data);
  });

  it('rebuilds from zero to identical documents, all projections or some, and resumes', async () => {
    const projections = runner(allProjections, { batchSize: 5 });
    await projections.start();
    await scenario.createPlatform();
    const accounts = [
      await scenario.createCustomer(1),
      await scenario.createCustomer(2),
      await scenario.createCustomer(3),
    ];
    for (let i = 0; i < 12; i++)
      await scenario.transfer(
        i % 4 === 0 ? scenario.settlementId : accounts[i % 3],
        accounts[(i + 1) % 3],
        BigInt(1000 + i),
      );
    const head = await eventStore.headPosition();
    expect(await projections.waitForPosition(head, 5000)).toBe(true);
    const before = await snapshot(readModels);
    expect(before[Collections.internalAccounts]).toHaveLength(4);
    expect(before[Collections.ledgerTransfers]).toHaveLength(12);

    // Corrupt the read models: a rebuild must not depend on what is stored.
    await readModels.commitBatch(internalAccountProjection.name, head, head + 1000n, async (tx) => {
      tx.put(Collections.internalAccounts, { id: accounts[0], bogus: true });
      tx.put(Collections.ledgerTransfers, { id: 'Transfer:bogus' });
    });
    await readModels.commitBatch('customers', head, head + 1000n, async (tx) =>
      tx.delete(Collections.customers, (before.customers[0] as Doc).id),
    );

    await projections.rebuild([internalAccountProjection.name]);
    expect((await snapshot(readModels))[Collections.internalAccounts]).toEqual(before[Collections.internalAccounts]);
    expect(await readModels.getCheckpoint(internalAccountProjection.name)).toBe(head);

    await projections.rebuild();
    expect(await snapshot(readModels)).toEqual(before);
    for (const p of allProjections) expect(await readModels.getCheckpoint(p.name)).toBe(head);

    // Still running after the rebuild.
    const position = await scenario.transfer(scenario.settlementId, accounts[2], 5n);
    expect(await projections.waitForPosition(position, 5000)).toBe(true);
    await expectBalances();
  });

  it('rebuilds with half of the projections replayed by a delegate to the same documents and checkpoints', async () => {
    const projections = runner(allProjections, { batchSize: 5 });
    await projections.start();
    await scenario.createPlatform();
    const accounts = [await scenario.createCustomer(1), await scenario.createCustomer(2)];
    for (let i = 0; i < 8; i++) await scenario.transfer(scenario.settlementId, accounts[i % 2], BigInt(100 + i));
    const head = await eventStore.headPosition();
    expect(await projections.waitForPosition(head, 5000)).toBe(true);
    const before = await snapshot(readModels);

    // The delegate's side: its own runner (and connection), writing under the fences it is handed.
    const delegated: string[][] = [];
    const otherModels = new SqliteReadModelStore(join(dir, 'read-models.db'));
    try {
      await projections.rebuild(undefined, {
        delegate: {
          replay: async (names, at, fences) => {
            delegated.push(names);
            expect(at).toBe(head);
            expect([...fences.keys()].sort()).toEqual([...names].sort());
            await new ProjectionRunner(eventStore, otherModels, allProjections, { lease: false }).replayDelegated(
              names,
              at,
              fences,
            );
          },
        },
      });
    } finally {
      await otherModels.close();
    }
    expect(delegated).toHaveLength(1);
    // The heaviest projection stays here; the delegate takes about half of the weight.
    expect(delegated[0]).not.toContain(internalAccountProjection.name);
    expect(delegated[0].length).toBeGreaterThan(0);
    expect(await snapshot(readModels)).toEqual(before);
    for (const p of allProjections) expect(await readModels.getCheckpoint(p.name)).toBe(head);

    // A failed delegate fails the rebuild (after the local half has ended).
    await expect(
      projections.rebuild(undefined, {
        delegate: { replay: () => Promise.reject(new Error('replay thread died')) },
      }),
    ).rejects.toThrow('replay thread died');
    // Running again, the next rebuild repairs what the failed one left.
    await projections.rebuild();
    expect(await snapshot(readModels)).toEqual(before);
  });

  it('rebuilds while stopped and stays stopped', async () => {
    await scenario.createPlatform();
    const account = await scenario.createCustomer(1);
    await scenario.transfer(scenario.settlementId, account, 42n);
    const projections = runner();
    await projections.rebuild();
    await expectBalances();
    const position = await scenario.transfer(scenario.settlementId, account, 1n);
    expect(await projections.waitForPosition(position, 60)).toBe(false);
    await expect(projections.rebuild(['no-such-projection'])).rejects.toThrow('unknown projection');
  });

  it('resubscribes from its checkpoints when the event store ends the subscription without an error', async () => {
    // The store ends the first subscription after three deliveries, as EventStoreDB may do.
    let subscriptions = 0;
    const ending: EventStore = Object.create(eventStore) as EventStore;
    ending.subscribeToAll = (handler, options) => {
      const n = ++subscriptions;
      let delivered = 0;
      let endIt: (() => void) | undefined;
      const ended = new Promise<void>((resolve) => (endIt = resolve));
      const inner = eventStore.subscribeToAll(async (event) => {
        if (n === 1 && delivered === 3) return endIt!();
        delivered++;
        await handler(event);
      }, options);
      const done =
        n === 1 ? ended.then(async () => (await inner.stop(), Promise.reject(new SubscriptionEnded()))) : inner.done;
      done.catch(() => undefined);
      return { done, stop: () => inner.stop() };
    };
    const errors: unknown[] = [];
    const projections = new ProjectionRunner(ending, readModels, allProjections, {
      batchSize: 1,
      retryDelayMs: 0,
      logger: { error: (_m, e) => errors.push(e) },
    });
    runners.push(projections);
    await projections.start();
    await scenario.createPlatform();
    const account = await scenario.createCustomer(1);
    for (const amount of [1n, 2n, 3n]) await scenario.transfer(scenario.settlementId, account, amount);
    expect(await projections.waitForPosition(await eventStore.headPosition(), 5000)).toBe(true);
    expect(subscriptions).toBe(2);
    expect(errors).toEqual([expect.any(SubscriptionEnded)]);
    await expectBalances();
  });
});
