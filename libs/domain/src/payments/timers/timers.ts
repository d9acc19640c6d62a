import type { PaymentStep } from '../transactions/payment-plan.js';

/**
 * Durable timers run as jobs on the `timers` queue; their delays are measured on the queue's
 * clock (the sandbox clock), so advancing it makes them due. Every handler is idempotent: a job
 * may run again after a crash.
 */
export const TIMER_QUEUE = 'timers';

/** Which stream holds a payment: a quote (with its transaction) or a stand-alone transaction. */
export interface PaymentRef {
  kind: 'quote' | 'transaction';
  /** `Quote:<uuid>` or `Transaction:<uuid>`. */
  id: string;
}

export type TimerJob =
  /** At a quote's expiresAt: a PENDING quote expires; a started one gets its immediate step applied (recovery). */
  | { kind: 'QUOTE_DEADLINE'; platformId: string; quoteId: string }
  /** A planned later step of a payment. */
  | { kind: 'PAYMENT_STEP'; platformId: string; ref: PaymentRef; step: PaymentStep }
  /** Re-applies a payment's immediate step if the process that started it died before finishing. */
  | { kind: 'PAYMENT_RECOVERY'; platformId: string; ref: PaymentRef };

/** Recovery runs this long after a payment starts, when the immediate step has long finished. */
export const RECOVERY_DELAY_MS = 60_000;

export function timerJobId(job: TimerJob): string {
  switch (job.kind) {
    case 'QUOTE_DEADLINE':
      return `deadline:${job.quoteId}`;
    case 'PAYMENT_STEP':
      return `step:${job.ref.id}:${job.step.type}`;
    case 'PAYMENT_RECOVERY':
      return `recovery:${job.ref.id}`;
  }
}
