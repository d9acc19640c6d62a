import { CreateQuoteCommand, ExecuteQuoteCommand } from '#application/payments/quotes/quote-commands.js';
import type { Operation } from './workload.js';
import { actorOf } from './actors.js';

/**
 * A quote between two customers' accounts of a platform (in one currency or two), priced and scheduled to expire by
 * the application; now and then executed at once.
 */
export const createQuote: Operation = async (process, world, random) => {
  const platform = random.pick(world.platforms);
  const accounts = world.accountsOf(platform.id);
  if (accounts.length < 2) return 'no accounts';
  const source = random.pick(accounts);
  const destination = random.pick(accounts.filter((a) => a.id !== source.id));
  if (!destination) return 'no accounts';
  const quote = await process.createQuote.execute(
    new CreateQuoteCommand(
      {
        source: { sourceType: 'ACCOUNT', accountId: source.id },
        destination: { destinationType: 'ACCOUNT', accountId: destination.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100 + random.int(2_000),
        immediatelyExecute: random.chance(0.3),
      },
      actorOf(platform.id, 'quote'),
    ),
  );
  const created = { id: String(quote.id), platformId: platform.id };
  world.quotes.push(created);
  if (quote.status !== 'PENDING' || random.chance(0.3)) return `quote ${String(quote.status)}`;
  // Executed while it is fresh: once, or twice at the same time (a client's retry racing its first try).
  const runs = random.chance(0.3) ? 2 : 1;
  const execute = () =>
    process.executeQuote.execute(new ExecuteQuoteCommand(created.id, actorOf(platform.id, `execute-${created.id}`)));
  const outcomes = await Promise.allSettled(Array.from({ length: runs }, execute));
  const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (rejected && outcomes.every((o) => o.status === 'rejected')) throw rejected.reason;
  const answers = outcomes.map((o) => (o.status === 'fulfilled' ? String(o.value.status) : 'refused'));
  return `quote executed ${answers.join(' ')}`;
};

/** Executes a quote; two executions of one quote race now and then. */
export const executeQuote: Operation = async (process, world, random) => {
  if (world.quotes.length === 0) return 'no quote';
  const quote = random.pick(world.quotes.slice(-20));
  const executed = await process.executeQuote.execute(
    new ExecuteQuoteCommand(quote.id, actorOf(quote.platformId, `execute-${quote.id}`)),
  );
  return `executed ${String(executed.status)}`;
};
