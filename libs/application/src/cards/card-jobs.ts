import { AUTHORIZATION_VALIDITY_MS } from '#domain/cards/card-authorization.js';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import type { JobQueue } from '#jobs/job-queue.js';

/** The queue of card timers and reactions, processed by the worker. */
export const CARD_PROVISIONING_QUEUE = 'card-provisioning';

export type CardJob =
  /** The issuer answers a provisioning request; `dueAt` is the time it answers at. */
  | { name: 'issue'; data: { cardId: string; platformId: string; dueAt: string } }
  /** A holder passed KYC: their PENDING_KYC cards (once read models include `position`) go to the issuer. */
  | { name: 'holder-kyc-approved'; data: { platformId: string; customerId: string; position: string; at: string } }
  /** A card was created PENDING_KYC: covers an approval that landed between the KYC read and the card's creation. */
  | { name: 'card-awaiting-kyc'; data: { cardId: string; platformId: string; at: string } }
  /** A holder was deleted: the service closes their open cards. */
  | { name: 'holder-deleted'; data: { platformId: string; customerId: string; position: string; at: string } }
  /** An authorization's validity ended: reverse it if still uncleared and release its hold. */
  | {
      name: 'authorization-expiry';
      data: { cardId: string; platformId: string; authorizationId: string; dueAt: string };
    };

/** Delays and retries are on the card's platform clock (`group`), so advancing it brings them forward. */
const RETRIES = { attempts: 8, backoff: { type: 'exponential' as const, delayMs: 500, maxDelayMs: 60_000 } };

/**
 * Schedules the issuer's answer for a card that entered PENDING_ISSUE at `since`. The job id
 * dedupes: the API (at once) and the worker's reaction to the event (for crash safety) may both ask.
 */
export function scheduleIssuance(jobs: JobQueue, cardId: string, platformId: string, since: string): Promise<string> {
  const dueAt = new Date(Date.parse(since) + CARD_ISSUANCE_DELAY_MS).toISOString();
  const job: CardJob = { name: 'issue', data: { cardId, platformId, dueAt } };
  return jobs.enqueue(CARD_PROVISIONING_QUEUE, job.name, job.data, {
    id: `issue:${cardId}`,
    delayMs: CARD_ISSUANCE_DELAY_MS,
    group: platformId,
    ...RETRIES,
  });
}

/**
 * Schedules the expiry of an authorization requested at `at`. Scheduled before the hold is placed,
 * so a hold whose authorization was never recorded (a crash in between) is released too.
 */
export function scheduleAuthorizationExpiry(
  jobs: JobQueue,
  input: { cardId: string; platformId: string; authorizationId: string; at: string },
): Promise<string> {
  const dueAt = new Date(Date.parse(input.at) + AUTHORIZATION_VALIDITY_MS).toISOString();
  const job: CardJob = {
    name: 'authorization-expiry',
    data: { cardId: input.cardId, platformId: input.platformId, authorizationId: input.authorizationId, dueAt },
  };
  return jobs.enqueue(CARD_PROVISIONING_QUEUE, job.name, job.data, {
    id: `expire:${input.authorizationId}`,
    delayMs: AUTHORIZATION_VALIDITY_MS,
    group: input.platformId,
    ...RETRIES,
  });
}

export function enqueueCardJob(jobs: JobQueue, job: CardJob, id: string): Promise<string> {
  return jobs.enqueue(CARD_PROVISIONING_QUEUE, job.name, job.data, { id, group: job.data.platformId, ...RETRIES });
}
