import { streams } from '#domain/ids.js';
import { isFinal, type TransactionStatus } from '#domain/payments/transactions/transaction.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import { InvariantViolation } from './invariants.js';
import type { World } from './world.js';

/** A quote is executed once: its payment starts (PENDING to PROCESSING) at most once, and a final status stays. */
export function checkQuotes(log: MemoryLog, world: World): void {
  for (const quote of world.quotes) {
    const stream = streams.quote(quote.id);
    let starts = 0;
    for (const e of log.streams.get(stream) ?? []) {
      if (e.type !== 'TransactionStatusChanged') continue;
      const data = e.data as { previousStatus: TransactionStatus; transaction: { status: TransactionStatus } };
      if (data.previousStatus === 'PENDING' && data.transaction.status === 'PROCESSING') starts++;
      if (starts > 1)
        throw new InvariantViolation('quotes: executed at most once', `${quote.id} started twice`, [stream]);
      if (isFinal(data.previousStatus))
        throw new InvariantViolation(
          'quotes: a final status stays',
          `${data.previousStatus} became ${data.transaction.status}`,
          [stream],
        );
    }
  }
}
