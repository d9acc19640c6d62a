import { CreateExternalAccountCommand } from '#application/external-accounts/external-account-commands.js';
import { TransferInCommand, TransferOutCommand } from '#application/payments/transfers/transfer-commands.js';
import type { SimProcess } from './process.js';
import type { Random } from './scheduler.js';
import type { Operation } from './workload.js';
import type { World } from './world.js';
import { actorOf } from './actors.js';

/**
 * A customer's bank account, its number ending in one of the sandbox's magic suffixes: 001 succeeds, 002 and 003 fail
 * at once, 004 is rejected by the bank after a while, 005 stays pending and then fails (the sandbox's plans in
 * payment-plan.ts).
 */
export const createExternalAccount: Operation = async (process, world, random) => {
  const customer = world.customers.length > 0 ? random.pick(world.customers) : undefined;
  if (!customer || !customer.accounts.some((a) => a.currency === 'USD')) return 'no customer';
  const suffix = random.pick(['001', '001', '001', '002', '003', '004', '005']);
  // A few numbers per customer, so that the claim on one account number is contended.
  const accountNumber = `5550${random.int(3)}${suffix}`;
  await addBankAccount(process, world, customer, { accountNumber, suffix });
  return `external account ${suffix}`;
};

/**
 * A USD bank account of `customer`'s (a US account number, `extra` fields besides), through the application's handler;
 * the world keeps it with its number's `suffix`.
 */
export async function addBankAccount(
  process: SimProcess,
  world: World,
  customer: World['customers'][number],
  { accountNumber, suffix, extra = {} }: { accountNumber: string; suffix: string; extra?: Record<string, unknown> },
): Promise<void> {
  const id = await process.createExternalAccount.execute(
    new CreateExternalAccountCommand(
      'customer',
      {
        customerId: customer.id,
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber,
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Sim Customer' },
        },
        ...extra,
      },
      actorOf(customer.platformId, `external-${customer.id}`),
    ),
  );
  world.externalAccounts.push({ id, customerId: customer.id, platformId: customer.platformId, suffix });
}

/**
 * A transfer between a customer's USD account and one of their bank accounts, out or in: a payment the process
 * manager runs, its outcome (and its later steps, on timers) chosen by the bank account's suffix.
 */
export const transfer: Operation = async (process, world, random) => {
  if (world.externalAccounts.length === 0) return 'no external account';
  const external = random.pick(world.externalAccounts);
  const { out, status } = await transferWith(process, world, random, external, 0.6);
  return `transfer ${out ? 'out' : 'in'} ${external.suffix} ${status}`;
};

/**
 * A transfer between `external`'s customer's USD account and `external` through the application's handlers: out (a
 * payout) with the chance `outChance`, else in; the transaction is added to the world's.
 */
export async function transferWith(
  process: SimProcess,
  world: World,
  random: Random,
  external: World['externalAccounts'][number],
  outChance: number,
): Promise<{ out: boolean; status: string }> {
  const customer = world.customers.find((c) => c.id === external.customerId)!;
  const internal = customer.accounts.find((a) => a.currency === 'USD')!;
  const out = random.chance(outChance);
  const input = {
    source: { accountId: out ? internal.id : external.id },
    destination: { accountId: out ? external.id : internal.id },
    amount: 50 + random.int(1_500),
  };
  const actor = actorOf(external.platformId, `transfer-${external.id}`);
  const handler = out ? process.transferOut : process.transferIn;
  const command = out ? new TransferOutCommand(input, actor) : new TransferInCommand(input, actor);
  const transaction = await handler.execute(command);
  world.transactions.push({ id: String(transaction.id), platformId: external.platformId });
  return { out, status: String(transaction.status) };
}
