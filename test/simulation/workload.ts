import { customerDecider } from '#domain/customers/customer.js';
import { DomainError } from '#domain/errors.js';
import { publicId, streams } from '#domain/primitives.js';
import { ledgerDecider } from '#domain/ledger/ledger.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { CreateCustomerCommand } from '#application/customers/customer-commands.js';
import { FundInternalAccountCommand } from '#application/payments/ledger/fund-commands.js';
import { AdvanceSandboxClockCommand } from '#application/sandbox-clock/sandbox-clock.js';
import type { SimProcess } from './process.js';
import { agentSpend, createAgent } from './workload-agents.js';
import { authorizeCard, changeCard, createCard } from './workload-cards.js';
import { createQuote, executeQuote } from './workload-quotes.js';
import { createExternalAccount, transfer } from './workload-transfers.js';
import { bankRun, createRailAccount, railPass, railTransfer } from './workload-rails.js';
import { agentTransferOut, createApprovalAgent } from './workload-agent-actions.js';
import { openWallet, walletSession, walletSigned } from './workload-wallet.js';
import { deleteSomething } from './workload-deletions.js';
import { testWebhook } from './webhooks.js';
import { SimulatedFault } from './projector.js';
import type { Random } from './scheduler.js';
import type { KeyedRequest, SimPlatform, World } from './world.js';
import { actorOf } from './actors.js';

export const CURRENCIES = ['USD', 'EUR'];

/** How an operation ended, as the trace records it: ok, or the error's code. */
export function outcome(error: unknown): string {
  if (error instanceof DomainError) return error.code;
  if (error instanceof SimulatedFault) return 'FAULT';
  if (error instanceof Error) return `ERROR ${error.name}: ${error.message}`;
  return `ERROR ${String(error)}`;
}

/** Errors an operation may meet; anything else is a finding (a 5xx the service must never answer). */
export function expectedFailure(error: unknown): boolean {
  return (
    error instanceof DomainError ||
    error instanceof SimulatedFault ||
    error?.constructor?.name === 'CommandConflictError'
  );
}

/** The platforms every run starts with: sandbox and production, each with a settlement account per currency. */
export async function createPlatforms(process: SimProcess, world: World, random: Random): Promise<void> {
  const kinds = [true, true, false, true];
  for (const [i, sandbox] of kinds.entries()) {
    const id = publicId('Platform', random.uuid());
    const settlement = new Map(CURRENCIES.map((c) => [c, publicId('InternalAccount', random.uuid())]));
    await process.runner.run(
      streams.platform(id),
      platformDecider,
      {
        type: 'CreatePlatform',
        platformId: id,
        name: `platform ${i}`,
        sandbox,
        umaDomain: `p${i}.test`,
        settlementAccounts: [...settlement].map(([currency, accountId]) => ({ accountId, currency, crypto: false })),
        now: process.clocks.base.now().toISOString(),
      },
      { metadata: { ...actorOf(id, 'setup') }, answersAfter: 'append' },
    );
    const platformCustomerIds = Array.from({ length: 4 }, (_, n) => `cust-${i}-${n}`);
    world.platforms.push({ id, sandbox, settlement, platformCustomerIds });
  }
}

/** One request of the workload: started, not awaited; its outcome goes to the trace when it completes. */
export type Operation = (process: SimProcess, world: World, random: Random, step: number) => Promise<string>;

export const createCustomer: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms);
  const platformCustomerId = random.pick(platform.platformCustomerIds);
  const currencies = random.chance(0.7) ? CURRENCIES : ['USD'];
  const customerId = await process.createCustomer.execute(
    new CreateCustomerCommand(
      { platformCustomerId, customerType: 'INDIVIDUAL', fullName: 'Sim Customer', currencies },
      actorOf(platform.id, `customer-${platformCustomerId}`),
    ),
  );
  const { state } = await process.runner.load(streams.customer(customerId), customerDecider);
  const accounts = [...state.accounts].map(([id, a]) => ({ id, currency: a.currency }));
  world.customers.push({ id: customerId, platformId: platform.id, accounts });
  return `customer ${platformCustomerId} created`;
};

/** Funding under an Idempotency-Key: a key is reused (same request), raced, or sent with another request. */
export const fund: Operation = async (process, world, random) => {
  const platform = random.chance(0.9) ? random.pick(world.platforms.filter((p) => p.sandbox)) : world.platforms[2];
  const accounts = world.accountsOf(platform.id);
  if (accounts.length === 0) return 'no account';
  const keys = world.keys.get(platform.id) ?? [];
  world.keys.set(platform.id, keys);
  let request = keys.length > 0 && random.chance(0.5) ? random.pick(keys) : undefined;
  if (!request) {
    request = { key: `key-${keys.length}`, accountId: random.pick(accounts).id, amount: 1 + random.int(5000) };
    keys.push(request);
  }
  // Now and then the same key with another request (must be refused, 422).
  const body = random.chance(0.05) ? { ...request, amount: request.amount + 1 } : request;
  // Now and then sent twice at once (a client's retry racing its first try).
  if (!random.chance(0.25)) return sendFunding(process, world, platform, body);
  const both = await Promise.allSettled([0, 1].map(() => sendFunding(process, world, platform, body)));
  const answers = both.map((o) => (o.status === 'fulfilled' ? o.value : `failed ${outcome(o.reason)}`));
  return `raced: ${answers.join('; ')}`;
};

/** One funding request under its key, as the HTTP layer runs it (the key claimed, the request run, its answer kept). */
async function sendFunding(process: SimProcess, world: World, platform: SimPlatform, body: KeyedRequest) {
  const actor = actorOf(platform.id, `idem-${body.key}`);
  const start = await process.idempotency.begin(actor, body.key, {
    method: 'POST',
    path: `/sandbox/internal-accounts/${body.accountId}/fund`,
    body: { amount: body.amount },
  });
  const name = `${world.platforms.indexOf(platform)}/${body.key}`;
  if (start.kind === 'replay') return `${name} replayed ${JSON.stringify(start.response.body)}`;
  world.record(`fund ${name} runs`);
  try {
    // Run as the claim's actor, as the HTTP layer runs it: the transfer's id is the claim's effect id.
    const command = new FundInternalAccountCommand(body.accountId, BigInt(body.amount), start.actor);
    const transferId = await process.fund.execute(command);
    await start.complete({ status: 200, body: { transferId } });
    world.ackTransfer(platform.id, transferId);
    return `${name} funded ${transferId}`;
  } catch (error) {
    world.record(`fund ${name} failed ${outcome(error)}`);
    // As the HTTP layer does: a refusal is the key's recorded answer; any other failure releases the key.
    if (error instanceof DomainError) await start.complete({ status: 400, body: { code: error.code } });
    else await start.release();
    throw error;
  }
}

function sameCurrencyPair(world: World, platform: SimPlatform, random: Random) {
  const accounts = world.accountsOf(platform.id);
  if (accounts.length < 2) return undefined;
  const from = random.pick(accounts);
  const to = random.pick(accounts.filter((a) => a.id !== from.id && a.currency === from.currency));
  return to ? { from, to } : undefined;
}

/** A payment between two customers' accounts of one platform (its ledger leg); ids are now and then reused. */
export const pay: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms);
  const repeat = world.payments.length > 0 && random.chance(0.1) ? random.pick(world.payments) : undefined;
  const pair = repeat ? undefined : sameCurrencyPair(world, platform, random);
  if (!repeat && !pair) return 'no pair';
  const payment = repeat
    ? { ...repeat, amount: random.chance(0.5) ? repeat.amount : repeat.amount + 1n }
    : {
        platformId: platform.id,
        id: publicId('Transfer', random.uuid()),
        from: pair!.from.id,
        to: pair!.to.id,
        amount: BigInt(1 + random.int(3000)),
      };
  const currency = world.accountsOf(payment.platformId).find((a) => a.id === payment.from)!.currency;
  await process.runner.run(
    streams.ledger(payment.platformId),
    ledgerDecider,
    {
      type: 'CreateTransfer',
      id: payment.id,
      debit: { id: payment.from, currency, allowNegative: false },
      credit: { id: payment.to, currency, allowNegative: false },
      amount: payment.amount,
      code: 'PAYMENT',
      now: (await process.clocks.now(payment.platformId)).toISOString(),
    },
    { metadata: { ...actorOf(payment.platformId, `pay-${payment.id}`) }, answersAfter: 'append' },
  );
  if (!repeat) world.payments.push(payment);
  world.ackTransfer(payment.platformId, payment.id);
  return `paid ${payment.amount}`;
};

/** A hold on a customer's account (a card authorization's pending transfer to the platform's settlement account). */
export const hold: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms);
  const accounts = world.accountsOf(platform.id);
  if (accounts.length === 0) return 'no account';
  const account = random.pick(accounts);
  const id = publicId('Transfer', random.uuid());
  await process.runner.run(
    streams.ledger(platform.id),
    ledgerDecider,
    {
      type: 'CreateTransfer',
      id,
      debit: { id: account.id, currency: account.currency, allowNegative: false },
      credit: { id: platform.settlement.get(account.currency)!, currency: account.currency, allowNegative: true },
      amount: BigInt(1 + random.int(2000)),
      pending: true,
      code: 'PAYMENT_HOLD',
      now: (await process.clocks.now(platform.id)).toISOString(),
    },
    { metadata: { ...actorOf(platform.id, `hold-${id}`) }, answersAfter: 'append' },
  );
  const holds = world.holds.get(platform.id) ?? [];
  holds.push({ id, accountId: account.id });
  world.holds.set(platform.id, holds);
  world.ackTransfer(platform.id, id);
  return 'held';
};

/** Posts (in part or whole) or voids a hold; two resolutions of one hold race now and then. */
export const resolveHold: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms);
  const holds = world.holds.get(platform.id) ?? [];
  if (holds.length === 0) return 'no hold';
  const target = random.pick(holds);
  const id = publicId('Transfer', random.uuid());
  const now = (await process.clocks.now(platform.id)).toISOString();
  const command = random.chance(0.6)
    ? {
        type: 'PostPendingTransfer' as const,
        id,
        pendingId: target.id,
        now,
        ...(random.chance(0.3) ? { amount: 1n } : {}),
      }
    : { type: 'VoidPendingTransfer' as const, id, pendingId: target.id, now };
  await process.runner.run(streams.ledger(platform.id), ledgerDecider, command, {
    metadata: { ...actorOf(platform.id, `resolve-${target.id}`) },
    answersAfter: 'append',
  });
  return command.type;
};

/** A sandbox platform's clock moves forward (its own time only). */
export const advanceClock: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms.filter((p) => p.sandbox));
  const byMs = 1 + (random.chance(0.8) ? random.int(60_000) : random.int(30 * 60_000));
  await process.advanceClock.execute(new AdvanceSandboxClockCommand(byMs, actorOf(platform.id, 'clock')));
  return `advanced ${byMs}`;
};

/** The operations and their weights: money moves dominate, on few platforms, so that streams are contended. */
export const OPERATIONS: { name: string; weight: number; run: Operation }[] = [
  { name: 'createCustomer', weight: 6, run: createCustomer },
  { name: 'fund', weight: 30, run: fund },
  { name: 'pay', weight: 30, run: pay },
  { name: 'hold', weight: 12, run: hold },
  { name: 'resolveHold', weight: 12, run: resolveHold },
  { name: 'advanceClock', weight: 3, run: advanceClock },
  { name: 'createAgent', weight: 2, run: createAgent },
  { name: 'agentSpend', weight: 25, run: agentSpend },
  { name: 'createCard', weight: 2, run: createCard },
  { name: 'authorizeCard', weight: 18, run: authorizeCard },
  { name: 'changeCard', weight: 4, run: changeCard },
  { name: 'createQuote', weight: 10, run: createQuote },
  { name: 'executeQuote', weight: 10, run: executeQuote },
  { name: 'createExternalAccount', weight: 3, run: createExternalAccount },
  { name: 'transfer', weight: 15, run: transfer },
  { name: 'testWebhook', weight: 2, run: testWebhook },
  { name: 'createRailAccount', weight: 2, run: createRailAccount },
  { name: 'railTransfer', weight: 6, run: railTransfer },
  { name: 'railPass', weight: 3, run: railPass },
  { name: 'bankRun', weight: 2, run: bankRun },
  { name: 'createApprovalAgent', weight: 1, run: createApprovalAgent },
  { name: 'agentTransferOut', weight: 8, run: agentTransferOut },
  { name: 'openWallet', weight: 2, run: openWallet },
  { name: 'walletSession', weight: 2, run: walletSession },
  { name: 'walletSigned', weight: 14, run: walletSigned },
  { name: 'deleteSomething', weight: 2, run: deleteSomething },
];

/** A workload's mix: weights by operation name that replace the default ones (0 leaves an operation out). */
export type WorkloadMix = Partial<Record<string, number>>;

export function pickOperation(random: Random, mix: WorkloadMix = {}): { name: string; run: Operation } {
  const weighted = OPERATIONS.map((op) => ({ ...op, weight: mix[op.name] ?? op.weight }));
  const total = weighted.reduce((sum, op) => sum + op.weight, 0);
  let at = random.int(total);
  for (const op of weighted) {
    if (at < op.weight) return op;
    at -= op.weight;
  }
  return weighted[0];
}
