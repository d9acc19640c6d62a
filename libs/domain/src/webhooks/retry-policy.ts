/**
 * Webhook retries: exponential backoff from `firstDelayMs`, never more than `maxDelayMs` apart,
 * for up to `windowMs` after the first attempt. The attempt budget is derived from those three
 * numbers so that the last attempt lands inside the window.
 */
export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export const WEBHOOK_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 30_000,
  maxDelayMs: 30 * 60_000,
  windowMs: 7 * 24 * 3600_000,
};

/** Delay before the next attempt after `failedAttempts` failures (1 after the first). */
export function retryDelayMs(policy: RetryPolicy, failedAttempts: number): number {
  return Math.min(policy.firstDelayMs * 2 ** Math.max(0, failedAttempts - 1), policy.maxDelayMs);
}

/** Total attempts (the first included) whose scheduled times stay within the window. */
export function attemptBudget(policy: RetryPolicy): number {
  let elapsed = 0;
  let attempts = 1;
  for (;;) {
    const next = retryDelayMs(policy, attempts);
    if (elapsed + next > policy.windowMs) return attempts;
    elapsed += next;
    attempts += 1;
  }
}

/** When the last attempt happens if every attempt fails (ms after the first attempt). */
export function lastAttemptOffsetMs(policy: RetryPolicy): number {
  const budget = attemptBudget(policy);
  let elapsed = 0;
  for (let failed = 1; failed < budget; failed++) elapsed += retryDelayMs(policy, failed);
  return elapsed;
}

/** Attempts of every webhook but TEST (341 with the policy above). */
export const WEBHOOK_MAX_ATTEMPTS = attemptBudget(WEBHOOK_RETRY_POLICY);

/** The queue of webhook deliveries: one job per webhook (and per redelivery request). */
export const WEBHOOK_QUEUE = 'webhooks';
