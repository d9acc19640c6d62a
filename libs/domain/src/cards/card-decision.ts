/**
 * Who decided a card authorization, and how long it took: the service's own rules (card state, spending controls,
 * funding-source balances), the platform's decision endpoint, the platform's default when its endpoint did not answer
 * usably in time, or the stand-in decision when the service itself could not answer within the processor's deadline.
 */
export type AuthorizationDecider = 'RULES' | 'PLATFORM' | 'DEFAULT' | 'STAND_IN';

/** Why a platform's default decided instead of its endpoint. */
export type DecisionFallback = 'TIMEOUT' | 'CONNECTION_ERROR' | 'BAD_STATUS' | 'MALFORMED_ANSWER';

export interface AuthorizationDecision {
  decidedBy: AuthorizationDecider;
  /** Milliseconds between the request's arrival and the decision, on the service's monotonic clock. */
  elapsedMs: number;
  /** The platform's reason for a decline, or why the stand-in decided. */
  reason?: string;
  fallback?: DecisionFallback;
}
