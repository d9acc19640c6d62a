import { afterEach, describe, expect, it } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { plantedFaults, type PlantedFault } from '#domain/planted-faults.js';
import { describeRun } from './report.js';
import { shrink } from './shrink.js';
import { simulate, type SimulationResult } from './simulation.js';
import { OPERATIONS } from './workload.js';

/** The seeds CI runs, and the steps of each run. */
const CI_SEEDS = 100;
const CI_STEPS = 2000;

/** The first failing run among seeds 1..seeds, or undefined. */
async function firstFailure(seeds: number, steps: number): Promise<SimulationResult | undefined> {
  for (let seed = 1; seed <= seeds; seed++) {
    const result = await simulate({ seed, steps });
    if (result.failure) return result;
  }
  return undefined;
}

describe('the simulator', () => {
  it('runs the same seed to the same trace, and different seeds to different traces', async () => {
    const [first, again, other] = [
      await simulate({ seed: 7, steps: 600 }),
      await simulate({ seed: 7, steps: 600 }),
      await simulate({ seed: 8, steps: 600 }),
    ];
    expect(again.hash).toBe(first.hash);
    expect(again.stats).toEqual(first.stats);
    expect(other.hash).not.toBe(first.hash);
  });

  it(`keeps every invariant over ${CI_SEEDS} seeds of ${CI_STEPS} steps`, async () => {
    const started = performance.now();
    let events = 0;
    let restarts = 0;
    for (let seed = 1; seed <= CI_SEEDS; seed++) {
      const result = await simulate({ seed, steps: CI_STEPS });
      if (result.failure) throw new Error(describeRun(result));
      expect(result.stats.checks).toBeGreaterThanOrEqual(CI_STEPS / 250);
      events += result.stats.events;
      restarts += result.stats.restarts;
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round((CI_SEEDS * CI_STEPS) / seconds);
    console.log(
      `simulation: ${CI_SEEDS} seeds x ${CI_STEPS} steps in ${seconds.toFixed(1)} s (${rate} steps/s), ` +
        `${events} events, ${restarts} restarts`,
    );
  }, 1_200_000);
});

describe('regressions the simulator found', () => {
  // Two requests with one Idempotency-Key in one process, the platform's clock moved forward between their claims:
  // the later claimant saw the first claim's lease as over and ran the request a second time (double funding).
  // Found with requests kept in flight for many steps (a low pace) and a workload of keyed funding.
  const keyedFunding = Object.fromEntries(OPERATIONS.map((op) => [op.name, 0]));
  Object.assign(keyedFunding, { fund: 60, advanceClock: 12, createCustomer: 6 });
  it.each([1, 4, 11])(
    'a key claimed in this process is not taken over while its request runs (seed %i)',
    async (seed) => {
      const result = await simulate({ seed, steps: 300, pace: 4, mix: keyedFunding, processes: 1 });
      expect(result.failure === undefined ? 'ok' : describeRun(result)).toBe('ok');
    },
  );

  // A payment's return notification taken before the notification of its booking (the bank's answer delivered late):
  // the return found the payment PROCESSING and did nothing, then the booking completed it, and it stayed COMPLETED
  // with the money the bank had given back. Found with a workload of production platforms' bank rail payments.
  const railPayments = Object.fromEntries(OPERATIONS.map((op) => [op.name, 0]));
  Object.assign(railPayments, {
    createCustomer: 6,
    fund: 20,
    createRailAccount: 6,
    railTransfer: 30,
    railPass: 10,
    bankRun: 8,
  });
  it('a return taken before its booking gives the money back (seed 6)', async () => {
    const result = await simulate({ seed: 6, steps: 400, mix: railPayments });
    expect(result.failure === undefined ? 'ok' : describeRun(result)).toBe('ok');
  });
});

describe('regressions the simulator found: webhooks under a rebuild', () => {
  // A projection the webhook event map reads (internal accounts, customers) reset and replaying while the dispatcher
  // planned a batch: the batch read a document the reset had dropped and planned fewer webhooks (one never scheduled).
  // Found with projections replayed often under a workload of payments and funding.
  const payments = Object.fromEntries(OPERATIONS.map((op) => [op.name, 0]));
  Object.assign(payments, { fund: 30, createCustomer: 10, transfer: 10, createExternalAccount: 3, pay: 10 });
  it('a batch planned while its read models are rebuilt schedules every webhook (seed 27)', async () => {
    const result = await simulate({ seed: 27, steps: 600, mix: payments, faults: { replay: 0.05 } });
    expect(result.failure === undefined ? 'ok' : describeRun(result)).toBe('ok');
  });
});

describe('planted faults are caught within the CI seeds', () => {
  afterEach(() => {
    for (const fault of Object.keys(plantedFaults) as PlantedFault[]) plantedFaults[fault] = false;
  });

  it.each([
    ['unbalancedTransfer', 'ledger: every currency sums to zero'],
    ['dropIdempotencyRecord', 'idempotency: a key never has two effects'],
    ['skipUniquenessClaim', 'uniqueness: one customer per platformCustomerId'],
    ['applyProjectionTwice', 'read models agree with the ledger'],
    ['skipAgentReservation', 'agent limits'],
    ['reopenClosedCard', 'cards: a CLOSED card stays closed'],
    ['webhookErrorCountsAsDelivered', 'webhooks: a delivered webhook reached its receiver'],
  ] as [PlantedFault, string][])(
    '%s',
    async (fault, invariant) => {
      plantedFaults[fault] = true;
      const failed = await firstFailure(CI_SEEDS, CI_STEPS);
      expect(failed?.failure?.invariant).toBe(invariant);
      const report = describeRun(failed!);
      expect(report).toContain(`seed ${failed!.seed}`);
      expect(report).toContain(`INVARIANT BROKEN at step ${failed!.failure!.step}: ${invariant}`);
    },
    600_000,
  );

  it.each(['skipUniquenessClaim', 'webhookErrorCountsAsDelivered'] as PlantedFault[])(
    'shrinks a failing run to fewer steps that still break the invariant (%s)',
    async (fault) => {
      plantedFaults[fault] = true;
      const failed = (await firstFailure(CI_SEEDS, CI_STEPS))!;
      const shortest = await shrink({ seed: failed.seed, steps: CI_STEPS });
      expect(shortest?.failure?.invariant).toBe(failed.failure!.invariant);
      expect(shortest!.steps).toBeLessThanOrEqual(failed.failure!.step);
      expect(shortest!.steps).toBeLessThan(CI_STEPS);
    },
    600_000,
  );
});
