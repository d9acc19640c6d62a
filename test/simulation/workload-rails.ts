import { customerDecider } from '#domain/customers/customer.js';
import { streams } from '#domain/primitives.js';
import { railFolder, type BankRailConfig } from '#domain/payments/rails/bank-rails.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { SimProcess } from './process.js';
import type { Operation } from './workload.js';
import type { World } from './world.js';
import { addBankAccount, transferWith } from './workload-transfers.js';
import { actorOf } from './actors.js';

/** The production platforms' USD rail (PATCH /config): the account money leaves from, a creditor id for pulls. */
export const SIM_USD_RAIL: BankRailConfig = {
  currency: 'USD',
  type: 'ISO20022_FILES',
  account: { name: 'Sim Payments Inc', accountNumber: '7000123456', routingNumber: '021000021' },
  creditorSchemeId: 'SIMCRED0001',
};

/** Every production platform pays out and pulls in USD through the simulated bank. */
export async function configureRails(process: SimProcess, world: World): Promise<void> {
  for (const platform of world.platforms.filter((p) => !p.sandbox)) {
    await process.runner.run(
      streams.platform(platform.id),
      platformDecider,
      {
        type: 'UpdatePlatformConfig',
        changes: { rails: [SIM_USD_RAIL] },
        now: process.clocks.base.now().toISOString(),
      },
      { metadata: { ...actorOf(platform.id, 'rails') }, answersAfter: 'append' },
    );
    // As PATCH /config does: the rail's exchange folders exist from its configuration on.
    process.bank.folder(railFolder(platform.id, SIM_USD_RAIL.currency));
  }
}

/**
 * A production platform's customer's bank account, most with a direct debit mandate; the last three digits of its
 * number decide what the simulated bank does (BankSimulator: 002 and 003 rejected at once, 004 rejected in the next
 * run, 005 booked then returned, 006 booked in the next run, others booked at once).
 */
export const createRailAccount: Operation = async (process, world, random) => {
  const customers = world.customers.filter(
    (c) => !world.platforms.find((p) => p.id === c.platformId)!.sandbox && c.accounts.some((a) => a.currency === 'USD'),
  );
  if (customers.length === 0) return 'no production customer';
  const customer = random.pick(customers);
  // The platform's own KYC approved the customer (as PATCH /customers with kycStatus records it): accounts open.
  const { state } = await process.runner.load(streams.customer(customer.id), customerDecider);
  if (state.exists && state.kycStatus !== 'APPROVED')
    await process.runner.run(
      streams.customer(customer.id),
      customerDecider,
      {
        type: 'ChangeKycStatus',
        kycStatus: 'APPROVED',
        now: (await process.clocks.now(customer.platformId)).toISOString(),
      },
      { metadata: { ...actorOf(customer.platformId, `kyc-${customer.id}`) }, answersAfter: 'append' },
    );
  const suffix = random.pick(['001', '001', '001', '002', '003', '004', '005', '006', '006']);
  const accountNumber = `7770${random.int(3)}${suffix}`;
  const mandate = random.chance(0.8);
  const extra = mandate
    ? { directDebitMandate: { mandateId: `MANDATE-${accountNumber}`, signedOn: '2026-01-15' } }
    : {};
  await addBankAccount(process, world, customer, { accountNumber, suffix, extra });
  return `rail account ${suffix}${mandate ? ' mandate' : ''}`;
};

/** A transfer out (a credit transfer) or in (a direct debit) between a production customer and their bank account. */
export const railTransfer: Operation = async (process, world, random) => {
  const production = new Set(world.platforms.filter((p) => !p.sandbox).map((p) => p.id));
  const externals = world.externalAccounts.filter((e) => production.has(e.platformId));
  if (externals.length === 0) return 'no rail account';
  const external = random.pick(externals);
  const { out, status } = await transferWith(process, world, random, external, 0.5);
  return `rail transfer ${out ? 'out' : 'in'} ${external.suffix} ${status}`;
};

/** The worker's rail poll: what waits goes out into the outbox, what the bank delivered is taken. */
export const railPass: Operation = async (process) => {
  await process.railPass();
  return 'rail pass';
};

/** The bank's side: it takes the outbox and answers (late, twice, or with statements, as its seed says). */
export const bankRun: Operation = async (process) => process.bank.run();
