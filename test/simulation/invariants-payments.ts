import { streams } from '#domain/primitives.js';
import { isFinal, type TransactionStatus } from '#domain/payments/transactions/transaction.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import { InvariantViolation } from './invariants.js';
import type { World } from './world.js';

const fail = (invariant: string, detail: string, stream: string): never => {
  throw new InvariantViolation(invariant, detail, [stream]);
};

/** The streams of the workload's payments: quotes (with their transactions) and transfers. */
function paymentStreams(world: World): string[] {
  return [...world.quotes.map((q) => streams.quote(q.id)), ...world.transactions.map((t) => streams.transaction(t.id))];
}

/**
 * A payment runs once: it starts (PENDING to PROCESSING) at most once, and a final status stays. With `settled` (every
 * timer has fired, nothing is pending): no payment is left waiting or half done.
 */
export function checkPayments(log: MemoryLog, world: World, settled = false): void {
  for (const stream of paymentStreams(world)) {
    let starts = 0;
    let status: TransactionStatus | undefined;
    for (const e of log.streams.get(stream) ?? []) {
      if (e.type === 'TransactionCreated')
        status = (e.data as { transaction: { status: TransactionStatus } }).transaction.status;
      if (e.type !== 'TransactionStatusChanged') continue;
      const data = e.data as { previousStatus: TransactionStatus; transaction: { status: TransactionStatus } };
      if (data.previousStatus === 'PENDING' && data.transaction.status === 'PROCESSING') starts++;
      if (starts > 1) fail('payments: started at most once', 'started twice', stream);
      if (isFinal(data.previousStatus))
        fail('payments: a final status stays', `${data.previousStatus} became ${data.transaction.status}`, stream);
      status = data.transaction.status;
    }
    if (settled && status !== undefined && status !== 'COMPLETED' && !isFinal(status))
      fail('payments: every payment ends once its timers fired', `still ${status}`, stream);
  }
}
