import { DomainError } from '#domain/errors.js';
import type { TimerJob } from '#domain/payments/transactions/payment-plan.js';
import type { PlatformClocks } from '../../command-context.js';
import { PaymentProcess } from '../transactions/payment-process.js';

/**
 * Handles one timer job; business refusals (the payment moved on) end the job, anything else
 * retries. A payment busy with another step gets that step finished first, then this one is tried.
 */
export async function handleTimer(
  process: PaymentProcess,
  job: TimerJob,
  jobId: string,
  clocks: PlatformClocks,
): Promise<void> {
  try {
    await runTimer(process, job, jobId, clocks);
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'PAYMENT_BUSY')) throw error;
    const ref = job.kind === 'QUOTE_DEADLINE' ? { kind: 'quote' as const, id: job.quoteId } : job.ref;
    await process.finishActiveStep(ref, { platformId: job.platformId, actor: 'system:timers', correlationId: jobId });
    await runTimer(process, job, jobId, clocks);
  }
}

async function runTimer(process: PaymentProcess, job: TimerJob, jobId: string, clocks: PlatformClocks): Promise<void> {
  const metadata = { platformId: job.platformId, actor: 'system:timers', correlationId: jobId };
  switch (job.kind) {
    case 'QUOTE_DEADLINE': {
      const ref = { kind: 'quote' as const, id: job.quoteId };
      const { status } = await process.load(ref);
      if (status === 'PENDING') {
        // Due on the platform's clock, read now: a job brought forward early is retried (with backoff) until then.
        await process.expireIfDue(ref, await clocks.now(job.platformId), metadata);
      } else if (status === 'PROCESSING') {
        await process.recover(ref, metadata);
      }
      return;
    }
    case 'PAYMENT_STEP':
      await process.applyStep(job.ref, job.step, metadata);
      return;
    case 'PAYMENT_RECOVERY':
      await process.recover(job.ref, metadata);
      return;
  }
}
