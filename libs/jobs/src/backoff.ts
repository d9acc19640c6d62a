import type { BackoffPolicy } from './job-queue.js';

/**
 * Delay before the next attempt after `attemptsMade` failed attempts (1 after the first failure).
 * Shared by both adapters so that retries land at the same queue-clock times everywhere.
 */
export function backoffDelayMs(policy: BackoffPolicy | undefined, attemptsMade: number): number {
  if (!policy) return 0;
  const base = Math.max(0, policy.delayMs);
  const raw = policy.type === 'exponential' ? base * 2 ** Math.max(0, attemptsMade - 1) : base;
  const capped = policy.maxDelayMs === undefined ? raw : Math.min(raw, Math.max(0, policy.maxDelayMs));
  return Math.round(capped);
}

/** Validated attempt budget: at least one, whole attempts only. */
export function attemptBudget(attempts: number | undefined): number {
  if (attempts === undefined) return 1;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be a positive integer, got ${attempts}`);
  return attempts;
}

/** Validated delay: whole, non-negative milliseconds. */
export function delayOf(delayMs: number | undefined): number {
  if (delayMs === undefined) return 0;
  if (!Number.isFinite(delayMs) || delayMs < 0)
    throw new RangeError(`delayMs must be a non-negative number, got ${delayMs}`);
  return Math.round(delayMs);
}

/** The message stored as a job's last error. */
export function errorMessage(error: unknown): string {
  // Duck-typed: an error from another realm (native drivers, vm contexts) is not `instanceof Error`.
  const e = error as { message?: unknown; name?: unknown } | null;
  if (e && typeof e === 'object' && typeof e.message === 'string') return e.message || String(e.name ?? 'Error');
  return String(error);
}

/** True for the port's UnrecoverableJobError, also when it crossed a module boundary. */
export function isUnrecoverable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'UnrecoverableJobError';
}

/** The delay of the port's DeferredJobError (also when it crossed a module boundary); undefined for other errors. */
export function deferredBy(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || (error as { name?: unknown }).name !== 'DeferredJobError')
    return undefined;
  const ms = (error as { delayMs?: unknown }).delayMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? Math.round(ms) : 0;
}
