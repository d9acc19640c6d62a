import type { Queue } from 'bullmq';
import type { BackoffPolicy } from '../job-queue.js';
import { DEPTH_CAP } from '../job-queue.js';

/** What the Redis job carries: the payload plus the queue-clock due time and the retry policy. */
export interface Envelope<T = unknown> {
  payload: T;
  /** Queue-clock ms before which the job must not run. */
  dueAt: number;
  backoff?: BackoffPolicy;
  /** The job's clock group (JobOptions.group). */
  group?: string;
  /** Real time before which a deferred run's job does not run again (promotions leave it). */
  heldUntil?: number;
}

/** Jobs read from Redis per page when the queue is scanned. */
export const PROMOTE_PAGE = 1000;

export type JobStates = ('waiting' | 'prioritized' | 'delayed' | 'active' | 'failed')[];

/** Visits the envelopes of the jobs in `types`, page by page, at most DEPTH_CAP of them. */
export async function eachEnvelope(q: Queue, types: JobStates, visit: (envelope: Envelope | undefined) => void) {
  for (let start = 0; start < DEPTH_CAP; start += PROMOTE_PAGE) {
    const page = await q.getJobs(types, start, start + PROMOTE_PAGE - 1, true);
    for (const job of page) visit(job?.data as Envelope | undefined);
    if (page.length < PROMOTE_PAGE) break;
  }
}
