import type { DecisionFallback } from '#domain/cards/card-decision.js';
import type { DecisionKind } from '#domain/webhooks/decision-endpoints.js';

export type { DecisionFallback } from '#domain/cards/card-decision.js';
export type { DecisionKind } from '#domain/webhooks/decision-endpoints.js';

/** What the platform (or its default) decided about one request. */
export interface PlatformDecision {
  /** APPROVE; for an agent action with the default WAIT, neither: `decision` says so. */
  approved: boolean;
  /** The endpoint's answer or the configured default: APPROVE, DECLINE (cards), REJECT or WAIT (agent actions). */
  decision: string;
  /** A card's partial approval: at most the requested amount. */
  approvedAmount?: bigint;
  reason?: string;
  decidedBy: 'PLATFORM' | 'DEFAULT';
  /** Why the default decided. */
  fallback?: DecisionFallback;
  /** From `startedAt` (or the call) to the decision, on the monotonic clock. */
  elapsedMs: number;
}

export interface DecisionRequest {
  /** The request's id (`Webhook:<uuid>`): the envelope's `id` and the `webhook-id` header. */
  requestId: string;
  /** The resource the platform decides on: the envelope's `data`. */
  data: Record<string, unknown>;
  /** The amount asked for (cards): an `approvedAmount` above it is a malformed answer. */
  requestedAmount?: bigint;
  /** When the request arrived, on `now()`'s clock (default: the call). */
  startedAt?: number;
}

/**
 * Asks a platform's decision endpoint, synchronously and within the deadline the platform set, to decide a request;
 * its default decides when the endpoint times out, cannot be reached, answers a status other than 2xx or an answer
 * that is not one of the kind's. Undefined when the platform registered no endpoint of the kind.
 * One platform's endpoint never delays another's requests: calls share no queue or lock.
 */
export interface PlatformDecisions {
  decide(platformId: string, kind: DecisionKind, request: DecisionRequest): Promise<PlatformDecision | undefined>;
  /** The monotonic clock elapsed times are measured on (milliseconds). */
  now(): number;
}

/** Where no adapter was supplied (the CLI): no platform is asked. */
export const NO_PLATFORM_DECISIONS: PlatformDecisions = {
  decide: () => Promise.resolve(undefined),
  now: () => performance.now(),
};
